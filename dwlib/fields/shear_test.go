package fields

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func smallShear(seed uint64) ShearConfig {
	return ShearConfig{
		Flow:  FlowConfig{NX: 32, NY: 64, LX: 1, LY: 2, Re: 1000, Sc: 2, DT: 5e-3},
		Width: 0.08, Amp: 1e-3, Modes: 3, StepsPerFrame: 20, Frames: 25, Seed: seed,
	}
}

// TestShearRollsUp: the perturbation of v at the shear layers grows (Kelvin–Helmholtz) while the
// tracer's mean stays put.
func TestShearRollsUp(t *testing.T) {
	cfg := smallShear(1)
	frames, err := Shear(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := cfg.Flow.NX * cfg.Flow.NY
	rms := func(frame []float64, ch int) float64 {
		s := 0.0
		for _, x := range frame[ch*n : (ch+1)*n] {
			s += x * x
		}
		return math.Sqrt(s / float64(n))
	}
	mean := func(frame []float64) float64 {
		s := 0.0
		for _, x := range frame[:n] {
			s += x
		}
		return s / float64(n)
	}
	// After the projection's transient (t = 0.4) the unstable mode grows exponentially (about
	// 15x by t = 2.4 at this Re; without shear v would only decay).
	first, last := frames[4], frames[len(frames)-1]
	if g := rms(last, 3) / rms(first, 3); g < 8 {
		t.Errorf("rms v grew by %.3g from t = 0.4 to 2.4, want a Kelvin–Helmholtz growth of more than 8", g)
	}
	if d := math.Abs(mean(last) - mean(first)); d > 1e-12 {
		t.Errorf("tracer mean moved by %g", d)
	}
}

// TestShearSeeds: the same seed gives the same frames, bit for bit; another seed other frames.
func TestShearSeeds(t *testing.T) {
	cfg := smallShear(3)
	cfg.Frames = 3
	a, err := Shear(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Shear(cfg)
	for k := range a {
		if !slices.Equal(a[k], b[k]) {
			t.Fatalf("frame %d differs between two runs of seed 3", k)
		}
	}
	cfg.Seed = 4
	c, _ := Shear(cfg)
	if slices.Equal(a[2], c[2]) {
		t.Error("seeds 3 and 4 gave the same frame")
	}
}

// TestShearConfigErrors: bad configurations are refused by name.
func TestShearConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*ShearConfig)
		want string
	}{
		{"grid", func(c *ShearConfig) { c.Flow.NX = 2 }, "grid"},
		{"re", func(c *ShearConfig) { c.Flow.Re = 0 }, "Re"},
		{"dt", func(c *ShearConfig) { c.Flow.DT = math.NaN() }, "DT"},
		{"width", func(c *ShearConfig) { c.Width = -1 }, "Width"},
		{"modes", func(c *ShearConfig) { c.Modes = 20 }, "Modes"},
		{"frames", func(c *ShearConfig) { c.Frames = 0 }, "Frames"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallShear(1)
			tc.edit(&cfg)
			if _, err := Shear(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

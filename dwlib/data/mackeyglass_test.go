package data

import (
	"math"
	"runtime"
	"slices"
	"testing"
)

// smallMG is a quick configuration for structural tests.
func smallMG(driven bool) MGConfig {
	c := DefaultMGConfig()
	if driven {
		c = DefaultDrivenMGConfig()
	}
	c.NumTraj, c.Length, c.Channels, c.BurnIn = 3, 64, 2, 100
	return c
}

// lagrange4 interpolates the uniformly spaced grid g (spacing h, g[i] at
// time i*h) at time s with the cubic through 4 nearby points, all taken from
// the same unit time interval as s: with a piecewise-constant drive the
// solution has derivative kinks at integer times, and an interpolant across
// a kink would be only first-order accurate. It is deliberately a different
// interpolant from the generator's Hermite midpoint rule.
func lagrange4(g []float64, h, s float64) float64 {
	perUnit := int(math.Round(1 / h))
	lo := int(math.Floor(s)) * perUnit
	i := int(math.Floor(s/h)) - 1
	i = max(lo, min(i, lo+perUnit-3, len(g)-4))
	u := s/h - float64(i)
	var out float64
	for a := range 4 {
		w := 1.0
		for b := range 4 {
			if b != a {
				w *= (u - float64(b)) / float64(a-b)
			}
		}
		out += w * g[i+a]
	}
	return out
}

// refUnitStep re-integrates the delay equation from grid index n0 over one
// time unit with plain RK4 at a 20x finer step, reading delayed values from
// the recorded 0.1-grid history by cubic Lagrange interpolation and the drive
// as the constant force.
func refUnitStep(c MGConfig, fine []float64, n0 int, force float64) float64 {
	const sub = 20
	h := c.Step / sub
	x := fine[n0]
	t0 := float64(n0) * c.Step
	f := func(t, x float64) float64 {
		xd := lagrange4(fine, c.Step, t-c.Tau)
		return c.Beta*xd/(1+math.Pow(xd, float64(c.Power))) - c.Gamma*x + force
	}
	steps := int(math.Round(1 / h))
	for k := range steps {
		t := t0 + float64(k)*h
		k1 := f(t, x)
		k2 := f(t+h/2, x+h/2*k1)
		k3 := f(t+h/2, x+h/2*k2)
		k4 := f(t+h, x+h*k3)
		x += h / 6 * (k1 + 2*k2 + 2*k3 + k4)
	}
	return x
}

func TestMackeyGlassMatchesIndependentIntegration(t *testing.T) {
	for _, tc := range []struct {
		name   string
		driven bool
		scale  float64
	}{
		{"autonomous", false, 0},
		{"driven-.08", true, .08},
		{"driven-.34", true, .34},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := smallMG(tc.driven)
			c.DriveScale = tc.scale
			_, perUnit, _ := c.grid()
			var fine []float64
			samples, u := mgSimulateChannel(c, 1, 1, func(n int, x float64) {
				if n != len(fine) {
					t.Fatalf("fine grid index %d, want %d", n, len(fine))
				}
				fine = append(fine, x)
			})
			// The public generator returns exactly these samples, taken
			// every unit time after the burn-in.
			raw, err := GenerateMackeyGlass(c)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range samples {
				if v != fine[(c.BurnIn+k)*perUnit] || raw[1].X[k][1] != v {
					t.Fatalf("sample %d: %v, fine grid %v, generator %v", k, v, fine[(c.BurnIn+k)*perUnit], raw[1].X[k][1])
				}
				if tc.driven && raw[1].Drive[k][1] != u[c.BurnIn+k] {
					t.Fatalf("drive %d misaligned", k)
				}
			}
			maxErr, maxWrong := 0.0, math.Inf(1)
			for _, k := range []int{40, 70, 95, 120, 140} { // unit times after the first delay window
				force := 0.0
				if tc.driven {
					force = c.DriveScale * u[k]
				}
				got := fine[(k+1)*perUnit]
				ref := refUnitStep(c, fine, k*perUnit, force)
				maxErr = max(maxErr, math.Abs(got-ref))
				if tc.driven {
					// Drive misaligned by one interval must not match.
					wrong := refUnitStep(c, fine, k*perUnit, c.DriveScale*u[k+1])
					maxWrong = min(maxWrong, math.Abs(got-wrong))
				}
			}
			t.Logf("max |x_{t+1} - reference| = %.3g; misaligned drive min error %.3g", maxErr, maxWrong)
			if maxErr > 1e-8 {
				t.Errorf("unit step differs from independent re-integration by %g (> 1e-8)", maxErr)
			}
			if tc.driven && maxWrong < 1e-4 {
				t.Errorf("a drive shifted by one interval also matches (%g): alignment not tested", maxWrong)
			}
		})
	}
}

// TestMackeyGlassDefaultAttractor is the one test at the paper's default
// size: 40 trajectories x 2048 samples x 8 channels, all on the tau=30
// chaotic attractor, whose values stay within about (0.2, 1.4).
func TestMackeyGlassDefaultAttractor(t *testing.T) {
	raw, err := GenerateMackeyGlass(DefaultMGConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) != 40 {
		t.Fatalf("%d trajectories, want 40", len(raw))
	}
	lo, hi, sum, n := math.Inf(1), math.Inf(-1), 0.0, 0
	for i, s := range raw {
		if s.Len() != 2048 || len(s.X[0]) != 8 || s.Drive != nil {
			t.Fatalf("trajectory %d: shape %dx%d, drive %v", i, s.Len(), len(s.X[0]), s.Drive != nil)
		}
		for _, r := range s.X {
			for _, v := range r {
				lo, hi, sum, n = min(lo, v), max(hi, v), sum+v, n+1
			}
		}
	}
	mean := sum / float64(n)
	t.Logf("range [%.4f, %.4f], mean %.4f", lo, hi, mean)
	if lo <= 0.15 || hi >= 1.5 {
		t.Errorf("values span [%v, %v], outside the tau=30 attractor range (0.15, 1.5)", lo, hi)
	}
	if mean < 0.8 || mean > 1.0 {
		t.Errorf("mean %v, want about 0.9", mean)
	}
	// Channels are independent chaotic trajectories, not copies.
	if raw[0].X[100][0] == raw[0].X[100][1] || raw[0].X[100][0] == raw[1].X[100][0] {
		t.Error("channels or trajectories coincide")
	}
}

func TestDrivenMGDriveStatistics(t *testing.T) {
	c := smallMG(true)
	c.NumTraj, c.Length, c.Channels = 4, 4096, 4
	raw, err := GenerateMackeyGlass(c)
	if err != nil {
		t.Fatal(err)
	}
	var s1, s2, lag, n float64
	for _, s := range raw {
		for ch := range c.Channels {
			for k, r := range s.Drive {
				v := r[ch]
				s1 += v
				s2 += v * v
				n++
				if k > 0 {
					lag += v * s.Drive[k-1][ch]
				}
			}
		}
	}
	mean, vari := s1/n, s2/n-(s1/n)*(s1/n)
	rho := (lag / (n - float64(len(raw)*c.Channels))) / (s2 / n)
	t.Logf("drive mean %.4f var %.4f lag-1 autocorrelation %.4f over %v values", mean, vari, rho, n)
	// AR(1) with coefficient .9: effective sample size ~ n (1-.9)/(1+.9).
	if math.Abs(mean) > 0.06 || math.Abs(vari-1) > 0.08 || math.Abs(rho-.9) > 0.015 {
		t.Errorf("drive mean %v, variance %v, lag-1 autocorrelation %v; want 0, 1, .9", mean, vari, rho)
	}
}

// TestDrivenMGScaleSweep checks the common-random-numbers design of the
// drive sweep: drives are identical across scales, and scale 0 reproduces
// the autonomous states bit for bit.
func TestDrivenMGScaleSweep(t *testing.T) {
	auto, _ := GenerateMackeyGlass(smallMG(false))
	var drives [][]Series
	for _, scale := range []float64{0, .0315, .34} {
		c := smallMG(true)
		c.DriveScale = scale
		raw, err := GenerateMackeyGlass(c)
		if err != nil {
			t.Fatal(err)
		}
		drives = append(drives, raw)
		if scale == 0 {
			for i := range raw {
				if !rowsEqual(raw[i].X, auto[i].X) {
					t.Fatalf("scale 0: trajectory %d differs from autonomous Mackey-Glass", i)
				}
			}
		} else if rowsEqual(raw[0].X, auto[0].X) {
			t.Fatalf("scale %v: states equal the autonomous ones", scale)
		}
	}
	for i := range drives[0] {
		if !rowsEqual(drives[0][i].Drive, drives[2][i].Drive) {
			t.Fatalf("trajectory %d: drive realisation depends on the drive scale", i)
		}
	}
}

// TestDrivenMGTermScalesMatchPaper reproduces the RMS(A) and RMS(D) columns
// of the driven-MG term-scale table (probe-validation appendix): unnormalised
// training trajectories of seed 0, after the first delay window.
func TestDrivenMGTermScalesMatchPaper(t *testing.T) {
	for _, tc := range []struct{ scale, rmsA, rmsD float64 }{
		{.0315, .0420, .0315},
		{.34, .2424, .3398},
	} {
		c := DefaultDrivenMGConfig()
		c.DriveScale = tc.scale
		raw, err := GenerateMackeyGlass(c)
		if err != nil {
			t.Fatal(err)
		}
		sp, _ := RandomSplit(len(raw), 0)
		var sa, sd, n float64
		for _, s := range Pick(raw, sp.Train) {
			for k := 30; k < s.Len(); k++ {
				for ch, x := range s.X[k] {
					xd := s.X[k-30][ch]
					a := c.Beta*xd/(1+math.Pow(xd, 10)) - c.Gamma*x
					d := c.DriveScale * s.Drive[k][ch]
					sa, sd, n = sa+a*a, sd+d*d, n+1
				}
			}
		}
		gotA, gotD := math.Sqrt(sa/n), math.Sqrt(sd/n)
		t.Logf("scale %v: RMS(A) %.4f (paper %.4f), RMS(D) %.4f (paper %.4f)", tc.scale, gotA, tc.rmsA, gotD, tc.rmsD)
		if math.Abs(gotA/tc.rmsA-1) > .03 || math.Abs(gotD/tc.rmsD-1) > .03 {
			t.Errorf("scale %v: RMS(A)=%v RMS(D)=%v, paper %v %v (3%% tolerance)", tc.scale, gotA, gotD, tc.rmsA, tc.rmsD)
		}
	}
}

func TestMackeyGlassConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*MGConfig)
	}{
		{"tau not multiple of step", func(c *MGConfig) { c.Tau = 30.05 }},
		{"step does not divide unit", func(c *MGConfig) { c.Step = .3 }},
		{"no trajectories", func(c *MGConfig) { c.NumTraj = 0 }},
		{"nonstationary drive", func(c *MGConfig) { c.Driven, c.DriveCoef = true, 1 }},
	} {
		c := smallMG(false)
		tc.mod(&c)
		if _, err := GenerateMackeyGlass(c); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func rowsEqual(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestGenerationIndependentOfParallelism: per-trajectory streams make the
// output independent of how many goroutines generate it.
func TestGenerationIndependentOfParallelism(t *testing.T) {
	c := smallMG(true)
	c.NumTraj = 5
	par, _ := GenerateMackeyGlass(c)
	prev := runtime.GOMAXPROCS(1)
	seq, _ := GenerateMackeyGlass(c)
	runtime.GOMAXPROCS(prev)
	assertSameSeries(t, par, seq)
}

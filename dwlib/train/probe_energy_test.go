package train

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

func TestProbeMomentsEnergy(t *testing.T) {
	// K = 2 steps × L = 2 layers; step 1's sampler was not ready, so only routes 0 and 1 count.
	p := &ProbeMoments{
		Tot:   []wiener.Sym2{{II: 1, IJ: 9, JJ: 2}, {II: 3, JJ: 4}, {II: 100, JJ: 100}, {II: 100}},
		Noise: []wiener.Sym2{{II: 0.5, IJ: -9, JJ: 0.5}, {II: 2, JJ: 1}, {II: 50}, {JJ: 50}},
		Ready: []bool{true, false},
	}
	got := p.Energy()
	if got.Tot != 10 || got.Noise != 4 || got.Share() != 0.4 {
		t.Errorf("Energy() = %+v (share %v), want tot 10, noise 4, share 0.4", got, got.Share())
	}
	p.Ready[1] = true
	if got := p.Energy(); got.Tot != 310 || got.Noise != 104 {
		t.Errorf("all ready: %+v, want tot 310, noise 104", got)
	}
	if s := (ProbeEnergy{Noise: 1}).Share(); !math.IsNaN(s) {
		t.Errorf("share with no total energy = %v, want NaN", s)
	}
	if e := (&ProbeMoments{}).Energy(); e != (ProbeEnergy{}) {
		t.Errorf("empty probes: %+v, want zero", e)
	}
}

// TestEpochProbeTrace checks an epoch's probe trace against the controller's defining equation:
// with every calibration ready, the committed Σ tr T̂ (Σ tr R̂) is the route EMA folded over the
// calibrations' own Σ tr Tot (Σ tr Noise), the first taken as it is (trace is linear).
func TestEpochProbeTrace(t *testing.T) {
	s := newFitSession(t, "dw", nil)
	a := s.Trainer().Controller().Config().RouteEMA
	var tot, noise float64
	n := 0
	for range 3 {
		rec, err := s.RunEpoch(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Probes) != rec.Calibrations || rec.Calibrations == 0 {
			t.Fatalf("epoch %d: %d probe records for %d calibrations", rec.Epoch, len(rec.Probes), rec.Calibrations)
		}
		for _, e := range rec.Probes {
			if n == 0 {
				tot, noise = e.Tot, e.Noise
			} else {
				tot, noise = a*tot+(1-a)*e.Tot, a*noise+(1-a)*e.Noise
			}
			n++
		}
		m := rec.Moments
		if m == nil || math.Abs(m.Tot-tot) > 1e-9*tot || math.Abs(m.Noise-noise) > 1e-9*noise {
			t.Errorf("epoch %d: committed %+v, EMA of the probes {tot %v, noise %v}", rec.Epoch, m, tot, noise)
		}
	}
	full := newFitSession(t, "full", nil)
	rec, err := full.RunEpoch(nil)
	if err != nil || rec.Probes != nil || rec.Moments != nil {
		t.Errorf("Full: probes %v, moments %v (%v); want none", rec.Probes, rec.Moments, err)
	}
}

package train

import (
	"math"
	"slices"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/calib"
)

// TestStepResultReportsGainsAndProbes checks the per-microbatch view of Algorithm 1 that
// StepResult gives: the gains the task backward used, and on DW calibration microbatches the
// two probes' route moments. A shadow calib.Controller fed those moments must reproduce the
// trainer's gains bit for bit after every step, so the moments are the ones the trainer staged.
func TestStepResultReportsGainsAndProbes(t *testing.T) {
	const K, L = 4, 2
	batch := benchBatch(4, 3, K, 3, 11)
	for _, tc := range []struct {
		method          string
		warmup, period  int
		calibrationAt   []int   // 0-based microbatches that run the probes
		fixedGain       float64 // non-DW methods: every gain, every step
		wantGainsChange bool
	}{
		{method: "full", fixedGain: 1},
		{method: "static", fixedGain: 0.5},
		{method: "dw", warmup: 2, period: 3, calibrationAt: []int{2, 5, 8}, wantGainsChange: true},
		{method: "dw", warmup: 1, period: 1, calibrationAt: []int{1, 2, 3, 4, 5, 6, 7, 8}, wantGainsChange: true},
	} {
		t.Run(tc.method, func(t *testing.T) {
			cfg := Config{Method: tc.method, K: K, BatchSize: 4, LR: 3e-3, StaticGain: 0.5, Warmup: tc.warmup, Period: tc.period, Seed: 5}
			tr, err := NewTrainer(backend.MustShared(), tinyModel(t, "mlp"), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var shadow *calib.Controller
			if tc.method == "dw" {
				cc := calib.DefaultConfig(K, L)
				cc.Warmup, cc.Period = tc.warmup, tc.period
				if shadow, err = calib.New(cc, nil); err != nil {
					t.Fatal(err)
				}
			}
			changed := false
			for b := range 9 {
				before := tr.Gains()
				r, err := tr.Step(batch)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(r.Gains, before) {
					t.Fatalf("b=%d: StepResult.Gains = %v, the trainer's gains before the step were %v", b, r.Gains, before)
				}
				wantProbe := slices.Contains(tc.calibrationAt, b)
				if r.Calibration != wantProbe || (r.Probes != nil) != wantProbe {
					t.Fatalf("b=%d: Calibration = %v, Probes = %v, want a calibration: %v", b, r.Calibration, r.Probes, wantProbe)
				}
				if shadow == nil {
					for i, g := range r.Gains {
						if g != tc.fixedGain {
							t.Fatalf("b=%d: gain %d = %v, want %v", b, i, g, tc.fixedGain)
						}
					}
					continue
				}
				if !slices.Equal(r.Gains, shadow.Gains()) {
					t.Fatalf("b=%d: the task backward used %v, the shadow controller has %v", b, r.Gains, shadow.Gains())
				}
				if p := r.Probes; p != nil {
					if len(p.Tot) != K*L || len(p.Noise) != K*L || len(p.Ready) != K {
						t.Fatalf("b=%d: probe moments of lengths %d, %d, %d, want %d, %d, %d", b, len(p.Tot), len(p.Noise), len(p.Ready), K*L, K*L, K)
					}
					for i, m := range p.Tot {
						if !(m.II > 0) || !(m.JJ > 0) || math.IsNaN(m.IJ) {
							t.Fatalf("b=%d: q_tot moment %d = %+v, want a positive diagonal", b, i, m)
						}
					}
					if err := shadow.Stage(p.Tot, p.Noise, p.Ready); err != nil {
						t.Fatal(err)
					}
				}
				shadow.Commit()
				if !slices.Equal(tr.Gains(), shadow.Gains()) {
					t.Fatalf("b=%d: trainer gains %v, shadow controller fed the reported probes %v", b, tr.Gains(), shadow.Gains())
				}
				if !slices.Equal(tr.Gains(), r.Gains) {
					changed = true
				}
			}
			if changed != tc.wantGainsChange {
				t.Fatalf("gains changed: %v, want %v", changed, tc.wantGainsChange)
			}
		})
	}
}

// TestNoiseScaleScalesTheNoiseMoment: the noise probe is linear in the sampled noise, so
// NoiseScale s multiplies its route moment by s exactly (up to rounding) and leaves the total
// probe alone. Compared at the first calibration, before the gains of the two runs part.
func TestNoiseScaleScalesTheNoiseMoment(t *testing.T) {
	const K = 4
	batch := benchBatch(4, 3, K, 3, 11)
	probe := func(scale float64) *ProbeMoments {
		cfg := Config{Method: "dw", K: K, BatchSize: 4, LR: 3e-3, Warmup: 1, Period: 1, Seed: 5, NoiseScale: scale}
		tr, err := NewTrainer(backend.MustShared(), tinyModel(t, "mlp"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for b := range 2 {
			r, err := tr.Step(batch)
			if err != nil {
				t.Fatal(err)
			}
			if r.Probes != nil {
				return r.Probes
			}
			if b == 1 {
				t.Fatal("no calibration at microbatch 1")
			}
		}
		return nil
	}
	base, quarter := probe(0), probe(0.25)
	nonzero := 0
	for i := range base.Noise {
		if base.Tot[i] != quarter.Tot[i] {
			t.Errorf("route %d: total moment %+v with NoiseScale 0.25, %+v without", i, quarter.Tot[i], base.Tot[i])
		}
		b, q := base.Noise[i], quarter.Noise[i]
		for _, pair := range [][2]float64{{b.II, q.II}, {b.IJ, q.IJ}, {b.JJ, q.JJ}} {
			if math.Abs(pair[1]-0.25*pair[0]) > 1e-9*math.Max(1, math.Abs(pair[0])) {
				t.Errorf("route %d: noise moment %+v with NoiseScale 0.25, want a quarter of %+v", i, q, b)
			}
		}
		if b.II > 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("every noise moment is zero: the test compares nothing")
	}
	if err := (Config{Method: "dw", K: 2, NoiseScale: -1}).Defaults().Validate(); err == nil {
		t.Error("NoiseScale -1 accepted")
	}
}

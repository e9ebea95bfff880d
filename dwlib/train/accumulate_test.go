package train

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// model64 is a float64 forecaster, so accumulated and whole-batch gradients can be compared to
// round-off.
func model64(t *testing.T, kind string, window int) *model.Forecaster {
	t.Helper()
	f, err := model.New(model.Config{Kind: kind, StateDim: 2, Hidden: 6, Layers: 2, SSMState: 3, Window: window, Seed: 7, DType: dtypes.Float64})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func paramValues(t *testing.T, f *model.Forecaster) []float64 {
	t.Helper()
	return storeValues(t, f, ModelScope)
}

// storeValues lists the float64 values of m's variables under scope, in store order.
func storeValues(t *testing.T, m Model, scope string) []float64 {
	t.Helper()
	saved, err := saveVars(m.Store(), scope)
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	for _, v := range saved {
		out = append(out, v.F64...)
	}
	return out
}

func maxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestAccumulationIsTheWholeBatchGradient: one Step on 8 windows, the same 8 windows as chunks of
// 3, and as two microbatches of 5 and 3 weighted 5/8 and 3/8 all give the same optimizer step.
func TestAccumulationIsTheWholeBatchGradient(t *testing.T) {
	batch := benchBatch(8, 3, 4, 2, 21)
	for _, method := range []string{"full", "jreg", "tbptt", "static"} {
		t.Run(method, func(t *testing.T) {
			cfg := Config{Method: method, K: 4, BatchSize: 8, LR: 1e-2, Segment: 2, ClipNorm: 0.05, Seed: 3}
			run := func(do func(tr *Trainer) error) []float64 {
				f := model64(t, "mamba", 3)
				tr, err := NewTrainer(backend.MustShared(), f, cfg)
				if err != nil {
					t.Fatal(err)
				}
				for range 2 {
					if err := do(tr); err != nil {
						t.Fatal(err)
					}
				}
				return paramValues(t, f)
			}
			whole := run(func(tr *Trainer) error { _, err := tr.Step(batch); return err })
			chunked := run(func(tr *Trainer) error {
				if _, err := tr.AccumulateChunks(batch, 1, 3); err != nil {
					return err
				}
				_, err := tr.Apply()
				return err
			})
			split := run(func(tr *Trainer) error {
				if _, err := tr.Accumulate(batch.Rows(0, 5), 5.0/8); err != nil {
					return err
				}
				if _, err := tr.Accumulate(batch.Rows(5, 8), 3.0/8); err != nil {
					return err
				}
				if tr.Pending() != 2 {
					t.Errorf("Pending = %d, want 2", tr.Pending())
				}
				_, err := tr.Apply()
				return err
			})
			init := paramValues(t, model64(t, "mamba", 3))
			if d := maxAbsDiff(whole, init); d < 1e-4 {
				t.Fatalf("two steps moved the parameters by only %g", d)
			}
			if method == "jreg" {
				// JReg's random directions are drawn per graph call, so chunks draw different ones.
				return
			}
			if d := maxAbsDiff(whole, chunked); d > 1e-12 {
				t.Errorf("chunks of 3: parameters differ from the whole batch by %g", d)
			}
			if d := maxAbsDiff(whole, split); d > 1e-12 {
				t.Errorf("microbatches 5+3: parameters differ from the whole batch by %g", d)
			}
		})
	}
}

// TestApplyNeedsAMicrobatch: an optimizer step with nothing accumulated is an error.
func TestApplyNeedsAMicrobatch(t *testing.T) {
	tr, err := NewTrainer(backend.MustShared(), model64(t, "mlp", 1), Config{Method: "full", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Apply(); err == nil {
		t.Error("Apply with nothing accumulated: no error")
	}
	if _, err := tr.Accumulate(benchBatch(2, 1, 2, 2, 1), 0); err == nil {
		t.Error("Accumulate with weight 0: no error")
	}
}

// TestWeightDecayModes checks Adam's first step by hand. Adam's first update is lr·g/(|g|+ε)
// elementwise, so with a decay λ much larger than the gradients, coupled L2 ("l2": g + λθ) moves
// every parameter by lr·sign(θ) towards 0, while decoupled decay moves it by lr·sign(g) + lr·λθ.
func TestWeightDecayModes(t *testing.T) {
	batch := benchBatch(4, 1, 2, 2, 5)
	const lr, wd = 1e-3, 1e4
	step := func(mode string) (before, after []float64) {
		f := model64(t, "mlp", 1)
		tr, err := NewTrainer(backend.MustShared(), f, Config{Method: "full", K: 2, LR: lr, WeightDecay: wd, WeightDecayMode: mode, ClipNorm: 1e9})
		if err != nil {
			t.Fatal(err)
		}
		before = paramValues(t, f)
		if _, err := tr.Step(batch); err != nil {
			t.Fatal(err)
		}
		return before, paramValues(t, f)
	}
	before, l2 := step(WeightDecayL2)
	_, dec := step(WeightDecayDecoupled)
	checked := 0
	for i, th := range before {
		if math.Abs(wd*th) < 10 { // λθ must dominate the gradient (|g| < 10 here)
			continue
		}
		checked++
		if want := th - lr*math.Copysign(1, th); math.Abs(l2[i]-want) > 1e-9 {
			t.Fatalf("l2: θ=%g moved to %g, want %g", th, l2[i], want)
		}
		if got, lo := dec[i]-th, lr*wd*math.Abs(th)-lr; math.Abs(got) < lo {
			t.Fatalf("decoupled: θ=%g moved by %g, want at least lr·λ|θ| − lr = %g", th, got, lo)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d parameters with |λθ| ≥ 10", checked)
	}
}

// TestDetachContext: stopping gradients at the end of the context changes the step when there
// are context steps, and is a no-op with a one-step window (no context steps).
func TestDetachContext(t *testing.T) {
	for _, tc := range []struct {
		window int
		same   bool
	}{{1, true}, {4, false}} {
		batch := benchBatch(4, tc.window, 3, 2, 8)
		run := func(detach bool) []float64 {
			f := model64(t, "mamba", tc.window)
			tr, err := NewTrainer(backend.MustShared(), f, Config{Method: "full", K: 3, LR: 1e-2, DetachContext: detach, ClipNorm: 1e9})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tr.Step(batch); err != nil {
				t.Fatal(err)
			}
			return paramValues(t, f)
		}
		d := maxAbsDiff(run(true), run(false))
		if tc.same && d > 1e-15 {
			t.Errorf("window %d: detaching a context of no steps changed the parameters by %g", tc.window, d)
		}
		if !tc.same && d < 1e-9 {
			t.Errorf("window %d: detaching the context changed nothing (%g)", tc.window, d)
		}
	}
}

package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// driveBatch is benchBatch with J drive channels.
func driveBatch(n, window, K, D, J int, seed uint64) *Batch {
	b := benchBatch(n, window, K, D, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	b.J = J
	b.Drive = make([]float64, n*(window-1+K)*J)
	for i := range b.Drive {
		b.Drive[i] = rng.NormFloat64()
	}
	return b
}

func accumValues(t *testing.T, m Model) []float64 { t.Helper(); return storeValues(t, m, accumScope) }

func relDiff(a, b []float64) float64 {
	d, s := 0.0, 0.0
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
		s = max(s, math.Abs(a[i]))
	}
	return d / max(s, 1e-300)
}

// TestEnginesAgree: the step engine and the unrolled graphs give the same loss, accumulated
// gradient, probe moments, gains and parameters, in float64 to 1e-12, for every method and for
// the features that change the backward pass: a recurrent state carried through the context
// (attached or detached), drive, TBPTT's cuts, both JReg readings, the MSE loss, DW's
// calibrations, a channel-independent forecaster, a user's recurrent and stateless cells.
func TestEnginesAgree(t *testing.T) {
	const K = 5
	mamba := func(J int) func(t *testing.T) Model {
		return func(t *testing.T) Model {
			f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, DriveDim: J, Hidden: 6, Layers: 2, SSMState: 3, Window: 4, Seed: 7, DType: dtypes.Float64})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	channels := func(t *testing.T) Model { // channel independent: the blocks run on N·D rows
		f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 6, Layers: 2, SSMState: 3, Window: 4, Seed: 7,
			DType: dtypes.Float64, ChannelIndependent: true})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	mlp := func(t *testing.T) Model { return model64(t, "mlp", 1) }
	gru := func(t *testing.T) Model {
		c, err := model.FromRecurrentCell(backend.MustShared(), model.Spec{StateDim: 2, Layers: 2, Window: 3, HiddenDim: 4, DType: dtypes.Float64, Seed: 3}, userGRU(5, 2))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cell := func(t *testing.T) Model {
		return customModel(t, model.Spec{StateDim: 2, Layers: 2, Window: 1, DType: dtypes.Float64, Seed: 4}, 5)
	}
	for _, tc := range []struct {
		name   string
		newM   func(t *testing.T) Model
		J      int
		window int
		cfg    Config
	}{
		{"mamba/full", mamba(0), 0, 4, Config{Method: "full"}},
		{"mamba/full/detach", mamba(0), 0, 4, Config{Method: "full", DetachContext: true}},
		{"mamba/full/drive", mamba(2), 2, 4, Config{Method: "full"}},
		{"mamba/full/mse", mamba(0), 0, 4, Config{Method: "full", Loss: LossMSE}},
		{"mamba/clip", mamba(0), 0, 4, Config{Method: "clip", ClipNorm: 0.01}},
		// JReg's finite difference divides round-off by ε: a larger ε keeps it below the tolerance.
		{"mamba/jreg", mamba(0), 0, 4, Config{Method: "jreg", JRegCoef: 5, JRegEps: 0.05}},
		{"mamba/jreg-authors", mamba(0), 0, 4, Config{Method: "jreg", JRegCoef: 5, JRegEps: 0.05, JRegStyle: JRegAuthors}},
		{"mamba/tbptt", mamba(0), 0, 4, Config{Method: "tbptt", Segment: 2}},
		{"mamba/static/drive", mamba(1), 1, 4, Config{Method: "static", StaticGain: 0.4}},
		{"mamba/dw/drive", mamba(1), 1, 4, Config{Method: "dw", Warmup: 1, Period: 2}},
		{"mamba/channels/dw", channels, 1, 4, Config{Method: "dw", Warmup: 1, Period: 2}},
		{"mamba/channels/jreg", channels, 1, 4, Config{Method: "jreg", JRegCoef: 5, JRegEps: 0.05}},
		{"mamba/dw/detach", mamba(0), 0, 4, Config{Method: "dw", Warmup: 1, Period: 1, DetachContext: true}},
		{"mlp/full", mlp, 0, 1, Config{Method: "full"}},
		{"mlp/dw", mlp, 0, 1, Config{Method: "dw", Warmup: 1, Period: 1}},
		{"gru/dw", gru, 0, 3, Config{Method: "dw", Warmup: 1, Period: 2}},
		{"gru/tbptt", gru, 0, 3, Config{Method: "tbptt", Segment: 3}},
		{"cell/jreg", cell, 0, 1, Config{Method: "jreg", JRegCoef: 5, JRegEps: 0.05}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			batch := driveBatch(5, tc.window, K, 2, tc.J, 31)
			if tc.J == 0 {
				batch = benchBatch(5, tc.window, K, 2, 31)
			}
			type trace struct {
				losses, accums, params []float64
				moments                []float64
				gains                  []float64
				jreg                   []float64
			}
			run := func(engine string) trace {
				m := tc.newM(t)
				cfg := tc.cfg
				cfg.K, cfg.BatchSize, cfg.LR, cfg.Seed, cfg.Engine = K, 5, 3e-2, 9, engine
				cfg.DetachContext = tc.cfg.DetachContext
				tr, err := NewTrainer(backend.MustShared(), m, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if (tr.engine != nil) != (engine == EngineSteps) {
					t.Fatalf("engine %q: step engine in use = %v", engine, tr.engine != nil)
				}
				var tc trace
				for range 4 {
					r, err := tr.Accumulate(batch, 0.7)
					if err != nil {
						t.Fatal(err)
					}
					tc.losses = append(tc.losses, r.Loss)
					tc.accums = append(tc.accums, accumValues(t, m)...)
					if r.Probes != nil {
						for i := range r.Probes.Tot {
							p, q := r.Probes.Tot[i], r.Probes.Noise[i]
							tc.moments = append(tc.moments, p.II, p.IJ, p.JJ, q.II, q.IJ, q.JJ)
						}
					}
					tc.gains = append(tc.gains, tr.Gains()...)
					if (r.JReg != nil) != (cfg.Method == "jreg") {
						t.Fatalf("method %s: JReg statistics reported = %v", cfg.Method, r.JReg != nil)
					}
					if j := r.JReg; j != nil {
						tc.jreg = append(tc.jreg, float64(j.Gains), j.MeanGain, j.MaxGain, j.OverOne, j.Penalty)
					}
					if _, err := tr.Apply(); err != nil {
						t.Fatal(err)
					}
				}
				saved, err := saveVars(m.Store(), ModelScope)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range saved {
					tc.params = append(tc.params, v.F64...)
				}
				return tc
			}
			u, s := run(EngineUnrolled), run(EngineSteps)
			for _, c := range []struct {
				what string
				a, b []float64
			}{{"loss", u.losses, s.losses}, {"accumulated gradient", u.accums, s.accums},
				{"probe moments", u.moments, s.moments}, {"gains", u.gains, s.gains}, {"parameters", u.params, s.params},
				{"JReg statistics", u.jreg, s.jreg}} {
				if len(c.a) != len(c.b) {
					t.Fatalf("%s: %d values unrolled, %d with the step engine", c.what, len(c.a), len(c.b))
				}
				if d := relDiff(c.a, c.b); d > 1e-12 {
					t.Errorf("%s: the engines differ by %.3g (relative to the largest value)", c.what, d)
				}
			}
			if tc.cfg.Method == "dw" && len(u.moments) == 0 {
				t.Fatal("no calibration ran: the probes were not compared")
			}
			if maxAbsDiff(u.accums, make([]float64, len(u.accums))) == 0 {
				t.Fatal("every accumulated gradient is zero: nothing was compared")
			}
		})
	}
}

// TestPredictorEnginesAgree: forecasts from the forward-step loop equal the unrolled rollout's in
// float64, with drive and a context longer than the training window.
func TestPredictorEnginesAgree(t *testing.T) {
	f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 6, Layers: 2, SSMState: 3, Window: 4, Seed: 7, DType: dtypes.Float64})
	if err != nil {
		t.Fatal(err)
	}
	const W, H, nw = 6, 7, 3
	rng := rand.New(rand.NewPCG(1, 2))
	var ws []eval.Window
	for range nw {
		var w eval.Window
		for range W {
			w.History = append(w.History, []float64{rng.NormFloat64(), rng.NormFloat64()})
			w.HistoryDrive = append(w.HistoryDrive, []float64{rng.NormFloat64()})
		}
		for range H {
			w.FutureDrive = append(w.FutureDrive, []float64{rng.NormFloat64()})
		}
		ws = append(ws, w)
	}
	forecast := func(engine string) [][][]float64 {
		p, err := newPredictor(backend.MustShared(), f, 4, engine, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if (p.step != nil) != (engine == EngineSteps) {
			t.Fatalf("engine %q not in use", engine)
		}
		out, err := p.ForecastBatch(ws, H)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	u, s := forecast(EngineUnrolled), forecast(EngineSteps)
	moved := 0.0
	for i := range u {
		for h := range u[i] {
			if d := relDiff(u[i][h], s[i][h]); d > 1e-12 {
				t.Errorf("window %d, step %d: forecasts %v (unrolled) and %v (steps)", i, h, u[i][h], s[i][h])
			}
			moved = max(moved, maxAbsDiff(u[i][h], ws[i].History[W-1]))
		}
	}
	if moved == 0 {
		t.Fatal("the forecasts equal the last state: nothing was compared")
	}
}

// TestCompileChangesNothing: a session that compiles its graphs up front (Session.Compile) trains
// exactly as one that compiles them at their first calls, on both engines, resumed mid-way too
// (the compilation hands the updated variables' buffers over and must put them back).
func TestCompileChangesNothing(t *testing.T) {
	for _, engine := range []string{EngineUnrolled, EngineSteps} {
		t.Run(engine, func(t *testing.T) {
			t.Setenv(EngineEnv, engine)
			run := func(compile bool) []float64 {
				s := newFitSession(t, "dw", nil)
				if s.Trainer().Engine() != engine {
					t.Fatalf("engine %s, want %s", s.Trainer().Engine(), engine)
				}
				for epoch := range 2 {
					if compile {
						times, _, err := s.Compile()
						if err != nil {
							t.Fatalf("epoch %d: %v", epoch, err)
						}
						if len(times) < 2 {
							t.Fatalf("Compile compiled %d graphs", len(times))
						}
					}
					if _, err := s.RunEpoch(nil); err != nil {
						t.Fatal(err)
					}
				}
				return modelValues(t, s)
			}
			plain, compiled := run(false), run(true)
			if d := maxAbsDiff(plain, compiled); d != 0 {
				t.Errorf("compiling up front changed the parameters by %g", d)
			}
		})
	}
}

// TestStepEngineCompilesOnce: a DW session on the step engine builds its graphs in its first
// epoch (which calibrates) and none after; with the optimizer step, at most 10 executables.
func TestStepEngineCompilesOnce(t *testing.T) {
	t.Setenv(EngineEnv, EngineSteps)
	before := sharedBuilds()
	s := newFitSession(t, "dw", nil)
	rec, err := s.RunEpoch(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calibrations == 0 {
		t.Fatal("the first epoch did not calibrate")
	}
	first := sharedBuilds() - before
	for range 2 {
		if _, err := s.RunEpoch(nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := sharedBuilds() - before; n != first || n+1 > 10 {
		t.Errorf("step graphs built: %d in the first epoch, %d after three (+1 optimizer step); want none after the first and at most 10 in all", first, n)
	}
}

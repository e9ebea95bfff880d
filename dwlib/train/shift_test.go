package train

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// shiftedModel64 is a float64 forecaster with the given shift; the same kind and seed give the
// same parameters whatever the shift.
func shiftedModel64(t *testing.T, kind, shift string) *model.Forecaster {
	t.Helper()
	f, err := model.New(model.Config{Kind: kind, StateDim: 2, Hidden: 6, Layers: 2, SSMState: 3, Window: 4, Seed: 7,
		DType: dtypes.Float64, Shift: shift})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// randomWindows draws n windows of w states of dimension 2, at a level of about 3.
func randomWindows(n, w int, seed uint64) []eval.Window {
	rng := rand.New(rand.NewPCG(seed, 2))
	ws := make([]eval.Window, n)
	for i := range ws {
		for range w {
			ws[i].History = append(ws[i].History, []float64{3 + rng.NormFloat64(), -2 + rng.NormFloat64()})
		}
	}
	return ws
}

// moved returns the windows with c added to every state.
func moved(ws []eval.Window, c []float64) []eval.Window {
	out := make([]eval.Window, len(ws))
	for i, w := range ws {
		for _, row := range w.History {
			out[i].History = append(out[i].History, []float64{row[0] + c[0], row[1] + c[1]})
		}
	}
	return out
}

func forecast(t *testing.T, f Model, ws []eval.Window, H int) [][][]float64 {
	t.Helper()
	p, err := NewPredictor(backend.MustShared(), f, 8)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.ForecastBatch(ws, H)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPredictorShift: a shifted model's forecasts are c + the unshifted model's forecasts of the
// window minus c (c its last or mean state), and moving a window's level moves its forecasts by
// exactly as much. The unshifted model fails the second property, which keeps the test honest.
func TestPredictorShift(t *testing.T) {
	const H = 5
	ws := randomWindows(3, 4, 1)
	c := []float64{1.5, -4}
	for _, kind := range []string{"mamba", "mlp"} {
		plain := shiftedModel64(t, kind, model.ShiftNone)
		for _, shift := range []string{model.ShiftLast, model.ShiftMean} {
			f := shiftedModel64(t, kind, shift)
			got := forecast(t, f, ws, H)
			for i, w := range ws {
				var hist []float64
				for _, row := range w.History {
					hist = append(hist, row...)
				}
				off, err := model.ShiftOffsets(shift, hist, 1, len(w.History), 2)
				if err != nil {
					t.Fatal(err)
				}
				want := forecast(t, plain, moved([]eval.Window{w}, []float64{-off[0], -off[1]}), H)[0]
				for h := range H {
					for j := range 2 {
						if d := math.Abs(got[i][h][j] - (want[h][j] + off[j])); d > 1e-12 {
							t.Fatalf("%s/%s window %d h %d coordinate %d: %v, want %v + %v", kind, shift, i, h+1, j, got[i][h][j], want[h][j], off[j])
						}
					}
				}
			}
			up := forecast(t, f, moved(ws, c), H)
			for i := range ws {
				for h := range H {
					for j := range 2 {
						if d := math.Abs(up[i][h][j] - got[i][h][j] - c[j]); d > 1e-12 {
							t.Fatalf("%s/%s: moving window %d by %v moved forecast h %d coordinate %d by %v", kind, shift, i, c, h+1, j, up[i][h][j]-got[i][h][j])
						}
					}
				}
			}
		}
		a, b := forecast(t, plain, ws, H), forecast(t, plain, moved(ws, c), H)
		if d := b[0][H-1][0] - a[0][H-1][0]; math.Abs(d-c[0]) < 1e-6 {
			t.Errorf("%s: the unshifted model moved its forecast by exactly the level change too (%v): the test cannot tell", kind, d)
		}
	}
}

// TestTrainerShift: training a shifted model on a batch is training the unshifted one (the same
// parameters) on the batch shifted by hand: the same losses, the same parameters after three
// optimizer steps, for Full and for Internal-DW (whose probes and residual sampler see the shifted
// batch; a constant shift changes neither).
func TestTrainerShift(t *testing.T) {
	raw := benchBatch(6, 4, 3, 2, 5)
	for i := range raw.History {
		raw.History[i] += 4 // a level the shift removes
	}
	for _, method := range []string{"full", "dw"} {
		for _, shift := range []string{model.ShiftLast, model.ShiftMean} {
			cfg := Config{Method: method, K: 3, BatchSize: 6, LR: 3e-3, Warmup: 1, Period: 1, Seed: 3, Loss: LossMSE}
			f, g := shiftedModel64(t, "mamba", shift), shiftedModel64(t, "mamba", model.ShiftNone)
			tf, err := NewTrainer(backend.MustShared(), f, cfg)
			if err != nil {
				t.Fatal(err)
			}
			tg, err := NewTrainer(backend.MustShared(), g, cfg)
			if err != nil {
				t.Fatal(err)
			}
			byHand, err := ShiftBatch(raw, shift)
			if err != nil {
				t.Fatal(err)
			}
			for step := range 3 {
				rf, err := tf.Step(raw)
				if err != nil {
					t.Fatal(err)
				}
				rg, err := tg.Step(byHand)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(rf.Loss-rg.Loss) > 1e-12 {
					t.Errorf("%s/%s step %d: loss %v, by hand %v", method, shift, step, rf.Loss, rg.Loss)
				}
			}
			pf, pg := paramValues(t, f), paramValues(t, g)
			for i := range pf {
				if math.Abs(pf[i]-pg[i]) > 1e-12 {
					t.Fatalf("%s/%s: parameter %d is %v after three steps, by hand %v", method, shift, i, pf[i], pg[i])
				}
			}
			if shift == model.ShiftLast {
				// The last observed state of every shifted window is the origin: zero.
				for i := range byHand.N {
					last := byHand.History[(i*byHand.Window+byHand.Window-1)*byHand.D:][:byHand.D]
					if last[0] != 0 || last[1] != 0 {
						t.Fatalf("shifted window %d ends at %v, want 0", i, last)
					}
				}
			}
		}
	}
}

func TestTrainerShiftNeedsMSE(t *testing.T) {
	_, err := NewTrainer(backend.MustShared(), shiftedModel64(t, "mamba", model.ShiftLast), Config{Method: "full", K: 3})
	if err == nil || !strings.Contains(err.Error(), `Shift "last" needs Loss "mse"`) {
		t.Errorf("NewTrainer of a shifted model with rel-L2: %v, want a refusal naming the shift and the loss", err)
	}
}

// TestModelBatch: the batch a diagnostic cuts for a shifted model is the training batch shifted
// as the Trainer shifts it; an unshifted model gets MakeBatch's.
func TestModelBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var units []data.Series
	for range 2 {
		var x [][]float64
		for range 20 {
			x = append(x, []float64{5 + rng.NormFloat64(), rng.NormFloat64()})
		}
		units = append(units, data.Series{X: x})
	}
	g := Geometry{Window: 4, K: 3}
	picks := []Pick{{Unit: 0, Origin: 6}, {Unit: 1, Origin: 9}}
	raw, err := MakeBatch(units, picks, g)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ModelBatch(shiftedModel64(t, "mamba", model.ShiftNone), units, picks, g)
	if err != nil || !slices.Equal(plain.History, raw.History) || !slices.Equal(plain.Targets, raw.Targets) {
		t.Errorf("ModelBatch of an unshifted model differs from MakeBatch (%v)", err)
	}
	got, err := ModelBatch(shiftedModel64(t, "mamba", model.ShiftLast), units, picks, g)
	if err != nil {
		t.Fatal(err)
	}
	for i := range raw.N {
		last := raw.History[(i*g.Window+g.Window-1)*2:][:2]
		for k := range g.K {
			for j := range 2 {
				off := (i*g.K+k)*2 + j
				if got.Targets[off] != raw.Targets[off]-last[j] {
					t.Fatalf("window %d step %d coordinate %d: target %v, want %v − %v", i, k+1, j, got.Targets[off], raw.Targets[off], last[j])
				}
			}
		}
	}
}

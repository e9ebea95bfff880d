package train

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/internal/modeltest"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// userMLP is a user's residual MLP cell written with GoMLX layers.
func userMLP(hidden, L int) model.Cell {
	return model.CellFunc(func(scope *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
		z := layers.DenseWithBias(scope.In("read_in"), x, hidden)
		for l := range L {
			b := scope.In("block%d", l)
			z = merge(l, z, func(h *Node) *Node {
				return layers.Dense(b.In("out"), Tanh(layers.DenseWithBias(b.In("up"), h, 2*hidden)), false, hidden)
			})
		}
		return Add(x, MulScalar(layers.DenseWithBias(scope.In("read_out"), z, x.Shape().Dimensions[1]), 0.1))
	})
}

func customModel(t *testing.T, spec model.Spec, hidden int) *model.Custom {
	t.Helper()
	c, err := model.FromCell(backend.MustShared(), spec, userMLP(hidden, spec.Layers))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// userGRU is a user's recurrent cell: a GRU-style hidden state read in beside x before L merges.
func userGRU(hidden, L int) model.RecurrentCell {
	return model.RecurrentCellFunc(func(scope *mlmodel.Scope, x, h, d *Node, merge model.Merge) (*Node, *Node) {
		xh := Concatenate([]*Node{x, h}, -1)
		gate := Logistic(layers.DenseWithBias(scope.In("gate"), xh, h.Shape().Dimensions[1]))
		hNext := Add(Mul(gate, h), Mul(OneMinus(gate), Tanh(layers.DenseWithBias(scope.In("cand"), xh, h.Shape().Dimensions[1]))))
		z := layers.DenseWithBias(scope.In("read_in"), Concatenate([]*Node{x, hNext}, -1), hidden)
		for l := range L {
			b := scope.In("block%d", l)
			z = merge(l, z, func(v *Node) *Node {
				return layers.Dense(b.In("out"), Tanh(layers.DenseWithBias(b.In("up"), v, 2*hidden)), false, hidden)
			})
		}
		return Add(x, MulScalar(layers.DenseWithBias(scope.In("read_out"), z, x.Shape().Dimensions[1]), 0.1)), hNext
	})
}

// TestCustomCellEveryMethod trains a user-defined cell, stateless and recurrent, with every
// method: the loss stays finite, full BPTT lowers it, and Internal-DW calibrates.
func TestCustomCellEveryMethod(t *testing.T) {
	t.Run("stateless", func(t *testing.T) {
		trainEveryMethod(t, func() Model { return customModel(t, model.Spec{StateDim: 3, Layers: 2, Window: 3, Seed: 1}, 8) })
	})
	t.Run("recurrent", func(t *testing.T) {
		trainEveryMethod(t, func() Model {
			c, err := model.FromRecurrentCell(backend.MustShared(), model.Spec{StateDim: 3, Layers: 2, Window: 3, HiddenDim: 4, Seed: 1}, userGRU(8, 2))
			if err != nil {
				t.Fatal(err)
			}
			return c
		})
	})
}

// trainEveryMethod takes ten steps with every method on a fresh model from newModel.
func trainEveryMethod(t *testing.T, newModel func() Model) {
	trainEveryMethodOn(t, newModel, benchBatch(4, 3, 4, 3, 9), 10, EngineAuto)
}

// trainEveryMethodOn takes steps optimizer steps on batch with every method, each on a fresh model
// from newModel, on engine: the losses stay finite, Full's falls and DW calibrates.
func trainEveryMethodOn(t *testing.T, newModel func() Model, batch *Batch, steps int, engine string) {
	for _, method := range Methods {
		t.Run(method, func(t *testing.T) {
			cfg := Config{Method: method, K: batch.K, BatchSize: batch.N, LR: 3e-3, Segment: 2, Warmup: 1, Period: 2, Seed: 3, Engine: engine}
			tr, err := NewTrainer(backend.MustShared(), newModel(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			first, last, calibrations := 0.0, 0.0, 0
			for i := range steps {
				r, err := tr.Step(batch)
				if err != nil {
					t.Fatal(err)
				}
				if !finite(r.Loss) || !finite(r.GradNorm) {
					t.Fatalf("step %d: loss %v, grad norm %v", i, r.Loss, r.GradNorm)
				}
				if i == 0 {
					first = r.Loss
				}
				last = r.Loss
				if r.Calibration {
					calibrations++
				}
			}
			if method == "full" && !(last < first) {
				t.Errorf("full: loss %v after %d steps, %v at the first", last, steps, first)
			}
			if method == "dw" && calibrations == 0 {
				t.Errorf("dw: no calibration in %d steps", steps)
			}
		})
	}
}

// mirrorMLP is the project's "mlp" stepper (linear read-in, RMSNorm → dense → tanh → dense blocks,
// Linear → SiLU → Linear read-out) written as a user's Cell, with the same variable names.
func mirrorMLP(hidden, L int) model.Cell {
	return model.CellFunc(func(scope *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
		dt := x.DType()
		dense := func(s *mlmodel.Scope, h *Node, out int, bias bool) *Node {
			in := h.Shape().Dimensions[1]
			y := MatMul(h, s.VariableWithShape("w", shapes.Make(dt, in, out)).NodeValue(h.Graph()))
			if bias {
				y = Add(y, InsertAxes(s.VariableWithShape("b", shapes.Make(dt, out)).NodeValue(h.Graph()), 0))
			}
			return y
		}
		u := x
		if d != nil {
			u = Concatenate([]*Node{x, ConvertDType(d, dt)}, -1)
		}
		z := dense(scope.In("read_in"), u, hidden, true)
		for l := range L {
			b := scope.In("block%d", l)
			z = merge(l, z, func(h *Node) *Node {
				ms := ReduceAndKeep(Mul(h, h), ReduceMean, -1)
				gain := b.In("norm").VariableWithShape("g", shapes.Make(dt, hidden)).NodeValue(h.Graph())
				n := Mul(Div(h, Sqrt(Add(ms, Scalar(h.Graph(), dt, 1e-6)))), InsertAxes(gain, 0))
				return dense(b.In("out"), Tanh(dense(b.In("up"), n, 2*hidden, true)), hidden, false)
			})
		}
		r := dense(scope.In("read_out1"), z, hidden, true)
		return Add(x, dense(scope.In("read_out2"), Mul(r, Logistic(r)), x.Shape().Dimensions[1], true))
	})
}

// TestCustomMirrorsTheMLPStepper: the project's MLP stepper written as a Cell, with the
// forecaster's parameters copied in, trains like model.New's "mlp" with every method: the same
// losses and the same parameters after a few steps (float64, up to rounding).
func TestCustomMirrorsTheMLPStepper(t *testing.T) {
	const D, J, H, L, W, K = 2, 1, 4, 2, 2, 3
	batch := benchBatch(4, W, K, D, 5)
	batch.J = J
	batch.Drive = make([]float64, 4*(W-1+K)*J)
	for i := range batch.Drive {
		batch.Drive[i] = math.Sin(float64(i))
	}
	for _, method := range Methods {
		t.Run(method, func(t *testing.T) {
			f := modeltest.Perturbed(t, model.Config{Kind: "mlp", StateDim: D, DriveDim: J, Hidden: H, Layers: L, Window: W, Seed: 2}, 0.2, 6)
			c, err := model.FromCell(backend.MustShared(), model.Spec{Name: "mirror", StateDim: D, DriveDim: J, Layers: L, Window: W, DType: dtypes.Float64}, mirrorMLP(H, L))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for v := range f.Store().IterVariables() {
				cv := c.Store().GetVariable(v.Path())
				if cv == nil {
					t.Fatalf("the mirror has no variable %s", v.Path())
				}
				if err := cv.SetValue(tensors.FromFlatDataAndDimensions(tensors.MustCopyFlatData[float64](v.MustValue()), v.Shape().Dimensions...)); err != nil {
					t.Fatal(err)
				}
				n++
			}
			if m := c.Store().NumVariables(); m != n {
				t.Fatalf("the mirror has %d variables, the forecaster %d", m, n)
			}
			cfg := Config{Method: method, K: K, BatchSize: 4, LR: 1e-2, Segment: 2, Warmup: 1, Period: 1, StaticGain: 0.5, Seed: 3}
			trF, err := NewTrainer(backend.MustShared(), f, cfg)
			if err != nil {
				t.Fatal(err)
			}
			trC, err := NewTrainer(backend.MustShared(), c, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				rF, err := trF.Step(batch)
				if err != nil {
					t.Fatal(err)
				}
				rC, err := trC.Step(batch)
				if err != nil {
					t.Fatal(err)
				}
				if d := math.Abs(rF.Loss-rC.Loss) + math.Abs(rF.GradNorm-rC.GradNorm); !(d < 1e-10) {
					t.Fatalf("step %d: forecaster loss %v grad norm %v, mirror %v %v", i, rF.Loss, rF.GradNorm, rC.Loss, rC.GradNorm)
				}
			}
			for v := range f.Store().IterVariables() {
				if !inScope(v.Scope(), ModelScope) {
					continue
				}
				a := tensors.MustCopyFlatData[float64](v.MustValue())
				b := tensors.MustCopyFlatData[float64](c.Store().GetVariable(v.Path()).MustValue())
				if d := maxAbsDiff(a, b); !(d < 1e-10) {
					t.Errorf("%s differs by %g after 4 steps", v.Path(), d)
				}
			}
			if method == "dw" {
				if d := maxAbsDiff(trF.Gains(), trC.Gains()); !(d < 1e-8) {
					t.Errorf("DW gains differ by %g", d)
				}
			}
		})
	}
}

// TestCustomCheckpoints: a session of a custom model saves and resumes, and its checkpoints are
// refused by a model of another shape.
func TestCustomCheckpoints(t *testing.T) {
	spec := model.Spec{Name: "user-mlp", StateDim: 2, Layers: 2, Window: 3, BurnIn: 2, Seed: 4}
	tc := fitTrain
	tc.Method = "dw"
	session := func(c *model.Custom) *Session {
		s, err := NewSession(backend.MustShared(), c, tc, fitFit, waveUnits(3, 30, 1), waveUnits(2, 30, 2), "meta")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	dir := t.TempDir()
	path, best := filepath.Join(dir, "session.ckpt"), filepath.Join(dir, "best.ckpt")
	a := session(customModel(t, spec, 6))
	resumedEpochMatches(t, a, session(customModel(t, spec, 6)), path)
	if err := a.SaveModel(best); err != nil {
		t.Fatal(err)
	}

	wider := customModel(t, spec, 7)
	var ie *IdentityError
	if err := session(wider).Load(path); !errors.As(err, &ie) {
		t.Errorf("Load into a wider model: %v, want an *IdentityError", err)
	}
	if err := LoadModel(best, wider, "meta"); !errors.As(err, &ie) {
		t.Errorf("LoadModel into a wider model: %v, want an *IdentityError", err)
	}
	same := customModel(t, spec, 6)
	if err := LoadModel(best, same, "meta"); err != nil {
		t.Errorf("LoadModel into the same model: %v", err)
	}
	renamed := spec
	renamed.Name = "other"
	if err := LoadModel(best, customModel(t, renamed, 6), "meta"); !errors.As(err, &ie) {
		t.Errorf("LoadModel into another model name: %v, want an *IdentityError", err)
	}
}

// TestRecurrentCustomResumes: a recurrent cell's session, saved after one epoch and loaded into
// a fresh model, trains its second epoch exactly as the uninterrupted one; its identity names the
// hidden width, and a stateless cell's identity has no such field (its checkpoints stay valid).
func TestRecurrentCustomResumes(t *testing.T) {
	spec := model.Spec{Name: "user-gru", StateDim: 2, Layers: 2, Window: 3, BurnIn: 2, HiddenDim: 3, Seed: 4}
	tc := fitTrain
	tc.Method = "dw"
	session := func() *Session {
		c, err := model.FromRecurrentCell(backend.MustShared(), spec, userGRU(6, 2))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSession(backend.MustShared(), c, tc, fitFit, waveUnits(3, 30, 1), waveUnits(2, 30, 2), "meta")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := session()
	resumedEpochMatches(t, a, session(), filepath.Join(t.TempDir(), "session.ckpt"))
	id, err := json.Marshal(modelIdentityOf(a.f))
	if err != nil || !strings.Contains(string(id), `"HiddenDim":3`) {
		t.Errorf("recurrent identity %s (%v) lacks the hidden width", id, err)
	}
	stateless, err := json.Marshal(modelIdentityOf(customModel(t, model.Spec{StateDim: 2, Layers: 2, Window: 3}, 6)))
	if err != nil || strings.Contains(string(stateless), "HiddenDim") {
		t.Errorf("stateless identity %s (%v) names a hidden width", stateless, err)
	}
}

// resumedEpochMatches trains one epoch of a, saves it to path and loads it into b (a fresh session
// of the same model), then checks that the next epoch of both is the same to the bit.
func resumedEpochMatches(t *testing.T, a, b *Session, path string) {
	t.Helper()
	if _, err := a.RunEpoch(nil); err != nil {
		t.Fatal(err)
	}
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	if err := b.Load(path); err != nil {
		t.Fatal(err)
	}
	ra, err := a.RunEpoch(nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.RunEpoch(nil)
	if err != nil {
		t.Fatal(err)
	}
	if ra.ValLoss != rb.ValLoss || ra.TrainLoss != rb.TrainLoss || maxAbsDiff(ra.Gains, rb.Gains) != 0 {
		t.Errorf("resumed epoch 2 differs: %+v vs %+v", ra, rb)
	}
	if d := maxAbsDiff(modelValues(t, a), modelValues(t, b)); d != 0 {
		t.Errorf("resumed parameters differ by %g", d)
	}
}

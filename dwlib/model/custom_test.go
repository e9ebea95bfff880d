package model_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// tinyCell is a user-style residual MLP written with GoMLX layers: read-in, L merges of
// dense → tanh → dense, and a read-out increment.
func tinyCell(hidden, L int) model.Cell {
	return model.CellFunc(func(scope *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
		u := x
		if d != nil {
			u = Concatenate([]*Node{x, d}, -1)
		}
		z := layers.DenseWithBias(scope.In("read_in"), u, hidden)
		for l := range L {
			b := scope.In("block%d", l)
			z = merge(l, z, func(h *Node) *Node {
				return layers.Dense(b.In("out"), Tanh(layers.DenseWithBias(b.In("up"), h, hidden)), false, hidden)
			})
		}
		return Add(x, layers.DenseWithBias(scope.In("read_out"), z, x.Shape().Dimensions[1]))
	})
}

// tinyRecurrentCell is a user-style gated recurrent cell: the hidden state h is updated like a
// GRU's from x and the drive, and the step reads it in beside x before L merges.
func tinyRecurrentCell(hidden, L int) model.RecurrentCell {
	return model.RecurrentCellFunc(func(scope *mlmodel.Scope, x, h, d *Node, merge model.Merge) (*Node, *Node) {
		u := x
		if d != nil {
			u = Concatenate([]*Node{x, d}, -1)
		}
		uh := Concatenate([]*Node{u, h}, -1)
		gate := Logistic(layers.DenseWithBias(scope.In("gate"), uh, h.Shape().Dimensions[1]))
		cand := Tanh(layers.DenseWithBias(scope.In("cand"), uh, h.Shape().Dimensions[1]))
		hNext := Add(Mul(gate, h), Mul(OneMinus(gate), cand))
		z := layers.DenseWithBias(scope.In("read_in"), Concatenate([]*Node{u, hNext}, -1), hidden)
		for l := range L {
			b := scope.In("block%d", l)
			z = merge(l, z, func(v *Node) *Node {
				return layers.Dense(b.In("out"), Tanh(layers.DenseWithBias(b.In("up"), v, hidden)), false, hidden)
			})
		}
		return Add(x, layers.DenseWithBias(scope.In("read_out"), z, x.Shape().Dimensions[1])), hNext
	})
}

// TestCustomGradientMatchesFiniteDifferences checks a Custom model's rollout gradient (float64,
// with drive, every route open) against central finite differences of the loss, and the routed
// rollout against the router-free one, for a stateless and a recurrent cell (whose hidden state
// runs through a context of W−1 = 2 steps before the origin).
func TestCustomGradientMatchesFiniteDifferences(t *testing.T) {
	const D, J, L, H = 2, 1, 2, 3
	bk := backend.MustShared()
	stateless, err := model.FromCell(bk, model.Spec{StateDim: D, DriveDim: J, Layers: L, Window: 2, DType: dtypes.Float64, Seed: 4}, tinyCell(H, L))
	if err != nil {
		t.Fatal(err)
	}
	recurrent, err := model.FromRecurrentCell(bk, model.Spec{StateDim: D, DriveDim: J, Layers: L, Window: 3, HiddenDim: 2, DType: dtypes.Float64, Seed: 4}, tinyRecurrentCell(H, L))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    *model.Custom
		vars int
	}{
		{"stateless", stateless, 2 + 3*L + 2},         // read-in w, b; per block up w, b and out w; read-out w, b
		{"recurrent", recurrent, 2 + 2 + 2 + 3*L + 2}, // and the gate's and candidate's w, b
	} {
		t.Run(tc.name, func(t *testing.T) { checkCustomGradients(t, tc.c, tc.vars) })
	}
}

// checkCustomGradients compares c's rollout gradients (K = 3, batch 2) with finite differences.
func checkCustomGradients(t *testing.T, c *model.Custom, wantVars int) {
	const batch, K = 2, 3
	spec := c.Spec()
	D, J, L, W := spec.StateDim, spec.DriveDim, spec.Layers, spec.Window
	bk := backend.MustShared()
	rng := rand.New(rand.NewPCG(3, 9))
	args := []any{
		tensors.FromFlatDataAndDimensions(randn(rng, batch*W*D, 1), batch, W, D),
		tensors.FromFlatDataAndDimensions(randn(rng, batch*(W-1+K)*J, 1), batch, W-1+K, J),
		tensors.FromFlatDataAndDimensions(randn(rng, batch*K*D, 1), batch, K, D),
		openGains(K, L),
	}
	build := func(routed, grads bool) *mlmodel.Exec {
		return model.MustNewLiveExec(bk, c.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
			var router *route.Router
			if routed {
				router = route.NewRouter(in[3])
			}
			loss := rolloutLoss(c.Rollout(router, model.Inputs{History: in[0], Drive: in[1]}, K, model.RolloutOptions{}).Preds, in[2])
			if !grads {
				return []*Node{loss}
			}
			return append([]*Node{loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
		})
	}
	var vars []*mlmodel.Variable
	for v := range c.Store().IterVariables() {
		if v.Trainable {
			vars = append(vars, v)
		}
	}
	if len(vars) != wantVars {
		t.Fatalf("%d trainable variables, want %d", len(vars), wantVars)
	}
	routed := build(true, true).MustCall(args...)
	plain := build(false, true).MustCall(args...)
	if len(routed) != 1+len(vars) {
		t.Fatalf("%d gradients for %d variables", len(routed)-1, len(vars))
	}
	lossOnly := build(true, false)
	loss := func() float64 { return tensors.MustCopyFlatData[float64](lossOnly.MustCall(args...)[0])[0] }
	const eps = 1e-6
	for i, v := range vars {
		g := tensors.MustCopyFlatData[float64](routed[1+i])
		if d := relDiff(g, tensors.MustCopyFlatData[float64](plain[1+i])); d != 0 {
			t.Errorf("%s: open routed gradient differs from the plain one by %g", v.Path(), d)
		}
		x := values64(t, v)
		fd := make([]float64, len(x))
		for j := range x {
			orig := x[j]
			x[j] = orig + eps
			setValues64(t, v, x)
			up := loss()
			x[j] = orig - eps
			setValues64(t, v, x)
			down := loss()
			x[j] = orig
			setValues64(t, v, x)
			fd[j] = (up - down) / (2 * eps)
		}
		if d := relDiff(g, fd); !(d < 1e-6) && maxAbs(fd) > 1e-9 {
			t.Errorf("%s: gradient differs from finite differences by %g (relative)", v.Path(), d)
		}
	}
}

// TestFromCellChecksTheCell: a cell that builds a merge twice, skips one, returns the wrong shape or
// has no parameters is refused when the model is built.
func TestFromCellChecksTheCell(t *testing.T) {
	spec := model.Spec{StateDim: 2, Layers: 2, Window: 1}
	dense := func(scope *mlmodel.Scope, h *Node) *Node { return layers.Dense(scope, h, false, 2) }
	for _, tc := range []struct {
		name string
		cell model.CellFunc
		want string
	}{
		{"twice", func(s *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
			for range 2 {
				x = merge(0, x, func(h *Node) *Node { return dense(s.At("b"), h) })
			}
			return merge(1, x, func(h *Node) *Node { return dense(s.At("b"), h) })
		}, "merge 0 2 times"},
		{"missing", func(s *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
			return merge(0, x, func(h *Node) *Node { return dense(s.At("b"), h) })
		}, "merge 1 0 times"},
		{"outside", func(s *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
			return merge(5, x, func(h *Node) *Node { return dense(s.At("b"), h) })
		}, "built merge 5"},
		{"shape", func(s *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
			x = merge(0, x, func(h *Node) *Node { return dense(s.At("b"), h) })
			return Concatenate([]*Node{merge(1, x, func(h *Node) *Node { return dense(s.At("c"), h) }), x}, -1)
		}, "returned"},
		{"no parameters", func(s *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
			x = merge(0, x, func(h *Node) *Node { return Tanh(h) })
			return merge(1, x, func(h *Node) *Node { return Tanh(h) })
		}, "no trainable variables"},
	} {
		_, err := model.FromCell(backend.MustShared(), spec, tc.cell)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: FromCell = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := model.FromCell(backend.MustShared(), model.Spec{StateDim: 2}, tinyCell(3, 1)); err == nil || !strings.Contains(err.Error(), "Spec.Layers") {
		t.Errorf("Layers 0: %v", err)
	}
}

// TestFromCellIsSeeded: the same Spec.Seed gives the same initial parameters, another seed others.
func TestFromCellIsSeeded(t *testing.T) {
	params := func(seed uint64) []float64 {
		c, err := model.FromCell(backend.MustShared(), model.Spec{StateDim: 2, Layers: 1, Window: 1, DType: dtypes.Float64, Seed: seed}, tinyCell(3, 1))
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for v := range c.Store().IterVariables() {
			out = append(out, values64(t, v)...)
		}
		return out
	}
	a, b, other := params(1), params(1), params(2)
	if d := relDiff(a, b); d != 0 || math.IsNaN(d) {
		t.Errorf("same seed, parameters differ by %g", d)
	}
	if d := relDiff(a, other); !(d > 0) {
		t.Errorf("another seed gives the same parameters")
	}
}

// scalarRecurrent is a hand-workable recurrent cell (D = 1, one merge, hidden width 1):
// z = x + w·x (the merge), h' = a·h + x, x' = z + v·h', with scalar parameters w, a, v.
var scalarRecurrent = model.RecurrentCellFunc(func(scope *mlmodel.Scope, x, h, d *Node, merge model.Merge) (*Node, *Node) {
	param := func(name string) *Node {
		return scope.VariableWithShape(name, shapes.Make(x.DType(), 1, 1)).NodeValue(x.Graph())
	}
	z := merge(0, x, func(u *Node) *Node { return Mul(u, param("w")) })
	hNext := Add(Mul(h, param("a")), x)
	return Add(z, Mul(hNext, param("v"))), hNext
})

// scalarModel builds scalarRecurrent with w = 0.5, a = 0.9, v = 0.1.
func scalarModel(t *testing.T, window int) *model.Custom {
	t.Helper()
	c, err := model.FromRecurrentCell(backend.MustShared(), model.Spec{StateDim: 1, Layers: 1, Window: window, HiddenDim: 1, DType: dtypes.Float64}, scalarRecurrent)
	if err != nil {
		t.Fatal(err)
	}
	for v := range c.Store().IterVariables() {
		setValues64(t, v, []float64{map[string]float64{"w": 0.5, "a": 0.9, "v": 0.1}[v.Name()]})
	}
	return c
}

// TestRecurrentRolloutHandWorked: the hidden state is zero before the first observed step, is
// built by the Window−1 context states (whose predictions are dropped), and is carried through
// the rollout; worked by hand for history (1, 2, 3) and K = 2.
func TestRecurrentRolloutHandWorked(t *testing.T) {
	c := scalarModel(t, 3)
	exec := model.MustNewLiveExec(backend.MustShared(), c.Store(), func(_ *mlmodel.Scope, in []*Node) []*Node {
		return c.Rollout(nil, model.Inputs{History: in[0]}, 2, model.RolloutOptions{}).Preds
	})
	out := exec.MustCall(tensors.FromFlatDataAndDimensions([]float64{1, 2, 3}, 1, 3, 1))
	const w, a, v = 0.5, 0.9, 0.1
	h := a*(a*0+1) + 2 // context: h = x0, then a·x0 + x1
	h = a*h + 3
	p1 := (1+w)*3 + v*h
	h = a*h + p1
	p2 := (1+w)*p1 + v*h
	for k, want := range []float64{p1, p2} {
		if got := tensors.MustCopyFlatData[float64](out[k])[0]; math.Abs(got-want) > 1e-12 {
			t.Errorf("prediction %d = %v, want %v", k+1, got, want)
		}
	}
}

// TestRecurrentGradientCuts: the gradient of the last prediction with respect to the history
// flows into the first context state through the hidden state, except with DetachContext (which
// keeps the origin's path) and with TruncateEvery = 1 (which cuts x and h before the last step).
func TestRecurrentGradientCuts(t *testing.T) {
	c := scalarModel(t, 3)
	grad := func(opts model.RolloutOptions) []float64 {
		exec := model.MustNewLiveExec(backend.MustShared(), c.Store(), func(_ *mlmodel.Scope, in []*Node) *Node {
			preds := c.Rollout(nil, model.Inputs{History: in[0]}, 2, opts).Preds
			return Gradient(ReduceAllSum(preds[1]), in[0])[0]
		})
		return tensors.MustCopyFlatData[float64](exec.MustCall(tensors.FromFlatDataAndDimensions([]float64{1, 2, 3}, 1, 3, 1))[0])
	}
	for _, tc := range []struct {
		name       string
		opts       model.RolloutOptions
		first, org bool // nonzero gradient at history[0] and at the origin history[2]
	}{
		{"full", model.RolloutOptions{}, true, true},
		{"detached context", model.RolloutOptions{DetachContext: true}, false, true},
		{"truncated every step", model.RolloutOptions{TruncateEvery: 1}, false, false},
	} {
		g := grad(tc.opts)
		if (g[0] != 0) != tc.first || (g[2] != 0) != tc.org {
			t.Errorf("%s: gradient %v; want nonzero at history[0] %v, at the origin %v", tc.name, g, tc.first, tc.org)
		}
	}
}

// TestFromRecurrentCellChecks: a recurrent cell needs a hidden width, a stateless one refuses
// one, and a cell that returns a hidden state of another shape is refused when the model is built.
func TestFromRecurrentCellChecks(t *testing.T) {
	bk := backend.MustShared()
	spec := model.Spec{StateDim: 1, Layers: 1, Window: 2}
	if _, err := model.FromRecurrentCell(bk, spec, scalarRecurrent); err == nil || !strings.Contains(err.Error(), "Spec.HiddenDim = 0") {
		t.Errorf("recurrent cell without HiddenDim: %v", err)
	}
	spec.HiddenDim = 2
	if _, err := model.FromCell(bk, spec, tinyCell(3, 1)); err == nil || !strings.Contains(err.Error(), "use FromRecurrentCell") {
		t.Errorf("stateless cell with HiddenDim: %v", err)
	}
	wide := model.RecurrentCellFunc(func(s *mlmodel.Scope, x, h, d *Node, merge model.Merge) (*Node, *Node) {
		y := merge(0, x, func(u *Node) *Node { return layers.Dense(s.In("b"), u, false, 1) })
		return y, Concatenate([]*Node{h, h}, -1)
	})
	if _, err := model.FromRecurrentCell(bk, spec, wide); err == nil || !strings.Contains(err.Error(), "returned a hidden state") {
		t.Errorf("hidden state of the wrong width: %v", err)
	}
	if _, err := model.FromRecurrentCell(bk, model.Spec{StateDim: 1, Layers: 1, HiddenDim: -1}, scalarRecurrent); err == nil || !strings.Contains(err.Error(), "HiddenDim") {
		t.Errorf("negative HiddenDim: %v", err)
	}
}

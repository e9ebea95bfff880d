package model_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
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

// TestCustomGradientMatchesFiniteDifferences checks a Custom model's rollout gradient (float64,
// with drive, every route open) against central finite differences of the loss, and the routed
// rollout against the router-free one.
func TestCustomGradientMatchesFiniteDifferences(t *testing.T) {
	const batch, K, D, J, L, H, W = 2, 3, 2, 1, 2, 3, 2
	bk := backend.MustShared()
	c, err := model.FromCell(bk, model.Spec{StateDim: D, DriveDim: J, Layers: L, Window: W, DType: dtypes.Float64, Seed: 4}, tinyCell(H, L))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	args := []any{
		tensors.FromFlatDataAndDimensions(randn(rng, batch*W*D, 1), batch, W, D),
		tensors.FromFlatDataAndDimensions(randn(rng, batch*(W-1+K)*J, 1), batch, W-1+K, J),
		tensors.FromFlatDataAndDimensions(randn(rng, batch*K*D, 1), batch, K, D),
		openGains(K, L),
	}
	build := func(routed, grads bool) *mlmodel.Exec {
		return mlmodel.MustNewExec(bk, c.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
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
	if len(vars) != 2+3*L+2 { // read-in w, b; per block up w, b and out w; read-out w, b
		t.Fatalf("%d trainable variables, want %d", len(vars), 2+3*L+2)
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

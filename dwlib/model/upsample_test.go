package model

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/backend"
)

// interpGradientError returns the forward difference between upsampleBilinear and GoMLX's
// Interpolate (bilinear, half-pixel centres) and the worst gradient error of each against central
// finite differences, for x [2, h, w, 3] → [2, oh, ow, 3] under the loss Σ y²·wt.
func interpGradientError(t *testing.T, h, w, oh, ow int) (forward, ours, gomlx float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(h), uint64(w)))
	rnd := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	xv, wv := rnd(2*h*w*3), rnd(2*oh*ow*3)
	wt := tensors.FromFlatDataAndDimensions(wv, 2, oh, ow, 3)
	up := func(x *Node, gomlxOp bool) *Node {
		if gomlxOp {
			return Interpolate(x, -1, oh, ow, -1).Bilinear().HalfPixelCenters(true).Done()
		}
		return upsampleBilinear(x, oh, ow)
	}
	loss := func(x, wn *Node, gomlxOp bool) *Node { y := up(x, gomlxOp); return ReduceAllSum(Mul(Mul(y, y), wn)) }
	worst := [2]float64{}
	var ys [2][]float64
	for i, gomlxOp := range []bool{false, true} {
		e := MustNewExec(backend.MustShared(), func(x, wn *Node) []*Node {
			l := loss(x, wn, gomlxOp)
			return []*Node{up(x, gomlxOp), Gradient(l, x)[0]}
		})
		lossOnly := MustNewExec(backend.MustShared(), func(x, wn *Node) *Node { return loss(x, wn, gomlxOp) })
		out := e.MustCall(tensors.FromFlatDataAndDimensions(xv, 2, h, w, 3), wt)
		ys[i] = tensors.MustCopyFlatData[float64](out[0])
		g := tensors.MustCopyFlatData[float64](out[1])
		for j := range xv {
			o := xv[j]
			xv[j] = o + 1e-6
			a := tensors.MustCopyFlatData[float64](lossOnly.MustCall(tensors.FromFlatDataAndDimensions(xv, 2, h, w, 3), wt)[0])[0]
			xv[j] = o - 1e-6
			b := tensors.MustCopyFlatData[float64](lossOnly.MustCall(tensors.FromFlatDataAndDimensions(xv, 2, h, w, 3), wt)[0])[0]
			xv[j] = o
			worst[i] = math.Max(worst[i], math.Abs((a-b)/2e-6-g[j]))
		}
	}
	for i := range ys[0] {
		forward = math.Max(forward, math.Abs(ys[0][i]-ys[1][i]))
	}
	return forward, worst[0], worst[1]
}

// TestUpsampleBilinear: the U-Net's upsampling computes GoMLX's bilinear interpolation with
// half-pixel centres (PyTorch's align_corners=False) and its gradient matches finite differences,
// for the 2× steps of even sides and the uneven ones of odd sides.
func TestUpsampleBilinear(t *testing.T) {
	for _, c := range [][4]int{{4, 4, 8, 8}, {4, 6, 7, 11}, {5, 3, 9, 5}} {
		forward, ours, gomlx := interpGradientError(t, c[0], c[1], c[2], c[3])
		if forward > 1e-12 {
			t.Errorf("%v: forward differs from graph.Interpolate by %g", c, forward)
		}
		if ours > 1e-6 {
			t.Errorf("%v: upsampleBilinear's gradient differs from finite differences by %g", c, ours)
		}
		t.Logf("%v: gradient error: ours %.2g, graph.Interpolate's %.2g", c, ours, gomlx)
	}
}

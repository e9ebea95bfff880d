package route

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/backend"
)

// TestMergeWithAProjectionSkip: y = tanh(x S + x B) with linear skip S [3, 2] and branch B [3, 2]
// routed by Merge: the input gradient is α·S vᵀ-side + m·B vᵀ-side, where v = (1 − y²)·ȳ, and the
// probe messages are d_I = v Sᵀ, d_F = v Bᵀ (the routes' own gradients, open); with an identity
// skip Merge is Block.
func TestMergeWithAProjectionSkip(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const n, din, dout = 2, 3, 2
	vals := func(k int) []float64 {
		v := make([]float64, k)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	x, S, B, ybar := vals(n*din), vals(din*dout), vals(din*dout), vals(n*dout)
	const alpha, m = 0.3, 0.7
	out := MustNewExec(backend.MustShared(), func(in []*Node) []*Node {
		xn, sn, bn, yb := in[0], in[1], in[2], in[3]
		g := xn.Graph()
		r := NewRouter(Const(g, [][][]float64{{{alpha, m}}}))
		pre := r.Merge(0, 0, xn, func(z *Node) *Node { return MatMul(z, sn) }, func(z *Node) *Node { return MatMul(z, bn) })
		y := Tanh(pre)
		q := ReduceAllSum(Mul(y, yb))
		grad := Gradient(q, xn)[0]
		dI, dF := r.Messages(q)
		return []*Node{grad, dI[0][0], dF[0][0]}
	})
	res, err := out.Call(tensors.FromFlatDataAndDimensions(x, n, din), tensors.FromFlatDataAndDimensions(S, din, dout),
		tensors.FromFlatDataAndDimensions(B, din, dout), tensors.FromFlatDataAndDimensions(ybar, n, dout))
	if err != nil {
		t.Fatal(err)
	}
	grad, dI, dF := tensors.MustCopyFlatData[float64](res[0]), tensors.MustCopyFlatData[float64](res[1]), tensors.MustCopyFlatData[float64](res[2])
	for i := range n {
		v := make([]float64, dout)
		for o := range dout {
			pre := 0.0
			for j := range din {
				pre += x[i*din+j] * (S[j*dout+o] + B[j*dout+o])
			}
			y := math.Tanh(pre)
			v[o] = (1 - y*y) * ybar[i*dout+o]
		}
		for j := range din {
			s, b := 0.0, 0.0
			for o := range dout {
				s += v[o] * S[j*dout+o]
				b += v[o] * B[j*dout+o]
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"input gradient", grad[i*din+j], alpha*s + m*b}, {"d_I", dI[i*din+j], s}, {"d_F", dF[i*din+j], b}} {
				if math.Abs(c.got-c.want) > 1e-12 {
					t.Errorf("row %d, coordinate %d: %s = %v, want %v", i, j, c.what, c.got, c.want)
				}
			}
		}
	}
}

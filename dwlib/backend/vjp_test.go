package backend

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/gomlx/backends"
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
)

func randMatrix(rng *rand.Rand, dims ...int) *tensors.Tensor {
	n := 1
	for _, d := range dims {
		n *= d
	}
	data := make([]float64, n)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	return tensors.FromFlatDataAndDimensions(data, dims...)
}

// dotLoss is a scalar function of A·B whose gradient exercises every entry of v:
// L = Σ W ⊙ tanh(A·B) for a fixed random weight W of the output's shape.
func dotLoss(a, b, w *Node) *Node {
	return ReduceAllSum(Mul(w, Tanh(Dot(a, b))))
}

// gradients returns dL/dA and dL/dB computed with the currently registered Dot VJP.
func gradients(t *testing.T, bk backends.Backend, a, b, w *tensors.Tensor) (ga, gb []float64) {
	t.Helper()
	exec := MustNewExec(bk, func(a, b, w *Node) (*Node, *Node) {
		g := Gradient(dotLoss(a, b, w), a, b)
		return g[0], g[1]
	})
	outs := exec.MustExec(a, b, w)
	return tensors.MustCopyFlatData[float64](outs[0]), tensors.MustCopyFlatData[float64](outs[1])
}

// finiteDifference returns the central-difference gradient of dotLoss w.r.t. the flat entries of x
// (which is a or b, selected by wrtA), in float64.
func finiteDifference(t *testing.T, bk backends.Backend, a, b, w *tensors.Tensor, wrtA bool) []float64 {
	t.Helper()
	loss := MustNewExec(bk, func(a, b, w *Node) *Node { return dotLoss(a, b, w) })
	x := a
	if !wrtA {
		x = b
	}
	base := tensors.MustCopyFlatData[float64](x)
	grad := make([]float64, len(base))
	const h = 1e-6
	eval := func(data []float64) float64 {
		xt := tensors.FromFlatDataAndDimensions(data, x.Shape().Dimensions...)
		if wrtA {
			return tensors.ToScalar[float64](loss.MustExec(xt, b, w)[0])
		}
		return tensors.ToScalar[float64](loss.MustExec(a, xt, w)[0])
	}
	for i := range base {
		plus := append([]float64(nil), base...)
		minus := append([]float64(nil), base...)
		plus[i] += h
		minus[i] -= h
		grad[i] = (eval(plus) - eval(minus)) / (2 * h)
	}
	return grad
}

func maxAbsDiff(x, y []float64) float64 {
	m := 0.0
	for i := range x {
		m = math.Max(m, math.Abs(x[i]-y[i]))
	}
	return m
}

func TestDotVJPMatchesFiniteDifferencesAndStock(t *testing.T) {
	bk := MustShared()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name         string
		aDims, bDims []int
		outDims      []int
	}{
		{"matrix-matrix", []int{3, 4}, []int{4, 5}, []int{3, 5}},
		{"matrix-vector", []int{3, 4}, []int{4}, []int{3}},
		{"vector-vector", []int{4}, []int{4}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := randMatrix(rng, tc.aDims...), randMatrix(rng, tc.bDims...)
			var w *tensors.Tensor
			if tc.outDims == nil {
				w = tensors.FromScalar(0.7)
			} else {
				w = randMatrix(rng, tc.outDims...)
			}
			ga, gb := gradients(t, bk, a, b, w)
			fa := finiteDifference(t, bk, a, b, w, true)
			fb := finiteDifference(t, bk, a, b, w, false)
			if d := maxAbsDiff(ga, fa); d > 1e-7 {
				t.Errorf("dL/dA differs from finite differences by %g", d)
			}
			if d := maxAbsDiff(gb, fb); d > 1e-7 {
				t.Errorf("dL/dB differs from finite differences by %g", d)
			}

			// The stock rule must agree to rounding.
			VJPRegistration[NodeTypeDot] = StockDotVJP
			defer RegisterGradients()
			sa, sb := gradients(t, bk, a, b, w)
			RegisterGradients()
			if d := maxAbsDiff(ga, sa); d > 1e-12 {
				t.Errorf("dL/dA differs from the stock VJP by %g", d)
			}
			if d := maxAbsDiff(gb, sb); d > 1e-12 {
				t.Errorf("dL/dB differs from the stock VJP by %g", d)
			}
		})
	}
}

package backend

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestDotGeneralVJP checks the project's DotGeneral VJP against GoMLX's own on the products the
// models use (the same products, in another operand order: equal to rounding), that it reads
// every one of them, and which gradients still need a transpose.
func TestDotGeneralVJP(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		lhsDims, rhsDims      []int
		lhsContract, lhsBatch []int
		rhsContract, rhsBatch []int
		plainLHS, plainRHS    bool // whether the gradient is a product, not a transpose of one
	}{
		{"matmul", []int{3, 4}, []int{4, 5}, []int{1}, nil, []int{0}, nil, true, true},
		{"matmul-transposed-rhs", []int{3, 4}, []int{5, 4}, []int{1}, nil, []int{1}, nil, true, true},
		{"batched-matvec", []int{2, 3, 4}, []int{2, 4, 1}, []int{2}, []int{0}, []int{1}, []int{0}, true, true},
		{"batched-outer", []int{2, 3, 1}, []int{2, 1, 4}, []int{2}, []int{0}, []int{1}, []int{0}, true, true},
		{"batched-matvec-rhs-first", []int{2, 1, 4}, []int{2, 3, 4}, []int{2}, []int{0}, []int{2}, []int{0}, true, true},
		{"batched-outer-middle", []int{2, 1, 3}, []int{2, 1, 4}, []int{1}, []int{0}, []int{1}, []int{0}, true, true},
		{"square-transposed", []int{4, 4}, []int{4, 4}, []int{0}, nil, []int{0}, nil, true, true},
		{"two-contracting", []int{2, 3, 4}, []int{3, 4, 5}, []int{1, 2}, nil, []int{0, 1}, nil, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			rnd := func(dims []int) *tensors.Tensor {
				x := make([]float64, prod(dims))
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				return tensors.FromFlatDataAndDimensions(x, dims...)
			}
			lhs, rhs := rnd(tc.lhsDims), rnd(tc.rhsDims)
			var plain []bool
			var read bool
			build := func(a, b *Node) []*Node {
				g := a.Graph()
				y := DotGeneral(a, tc.lhsContract, tc.lhsBatch, b, tc.rhsContract, tc.rhsBatch)
				_, read = readDotSpec(y)
				w := IotaFull(g, y.Shape()) // a cotangent that is not constant
				grads := Gradient(ReduceAllSum(Mul(y, w)), a, b)
				plain = nil
				for _, gr := range grads {
					plain = append(plain, gr.Type() != NodeTypeTranspose)
				}
				return grads
			}
			run := func() [][]float64 {
				out := MustExecOnceN(MustShared(), build, lhs, rhs)
				return [][]float64{tensors.MustCopyFlatData[float64](out[0]), tensors.MustCopyFlatData[float64](out[1])}
			}
			ours := run()
			if !read {
				t.Fatal("the DotGeneral's axes could not be read: the stock rule was used")
			}
			if want := []bool{tc.plainLHS, tc.plainRHS}; !slices.Equal(plain, want) {
				t.Errorf("gradient is a product, not a transpose: %v, want %v", plain, want)
			}
			VJPRegistration[NodeTypeDotGeneral] = StockDotGeneralVJP
			defer RegisterGradients()
			stock := run()
			for i := range ours {
				for j := range ours[i] {
					if d := math.Abs(ours[i][j] - stock[i][j]); !(d <= 1e-12*(1+math.Abs(stock[i][j]))) {
						t.Errorf("gradient %d[%d] = %.17g, GoMLX's %.17g", i, j, ours[i][j], stock[i][j])
					}
				}
			}
		})
	}
}

func prod(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

package backend

import (
	. "github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/shapes"
)

// StockDotVJP is GoMLX's own VJP for Dot, kept so tests and benchmarks can compare against it.
var StockDotVJP = VJPRegistration[NodeTypeDot]

func init() { RegisterGradients() }

// RegisterGradients installs the project's replacement VJPs into graph.VJPRegistration. It is
// idempotent and runs when this package is imported; call it explicitly only to document intent.
func RegisterGradients() {
	VJPRegistration[NodeTypeDot] = dotMatMulVJP
}

// dotMatMulVJP is the VJP of Dot written as matrix products instead of broadcast-multiply-reduce:
//
//	C = A·B (A [m,k], B [k,n]):  dA = v·Bᵀ,  dB = Aᵀ·v
//	c = A·b (A [m,k], b [k]):    dA = v⊗b,   db = Aᵀ·v
//
// The vector·vector case is cheap either way and is left to the stock rule.
func dotMatMulVJP(node *Node, vjps []*Node, outputShape shapes.Shape) []*Node {
	v := vjps[0]
	a, b := node.Inputs()[0], node.Inputs()[1]
	switch {
	case a.Rank() == 2 && b.Rank() == 2:
		return []*Node{
			DotGeneral(v, []int{1}, nil, b, []int{1}, nil), // [m,n]x[k,n] -> [m,k]
			DotGeneral(a, []int{0}, nil, v, []int{0}, nil), // [m,k]x[m,n] -> [k,n]
		}
	case a.Rank() == 2 && b.Rank() == 1:
		return []*Node{
			Mul(InsertAxes(v, -1), InsertAxes(b, 0)),
			DotGeneral(a, []int{0}, nil, v, []int{0}, nil),
		}
	default:
		return StockDotVJP(node, vjps, outputShape)
	}
}

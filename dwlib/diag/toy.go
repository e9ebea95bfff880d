package diag

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// ToyBlock is a tiny residual branch F(x) = tanh(xW)U on row vectors x ∈ ℝ^D (W is D×H, U is
// H×D, both row-major float64), for showing the routed residual backward of the paper's Eq.
// dual-route-jacobian on numbers small enough to print.
//
// Its forward value and J_Fᵀv are written out by hand (FValue, JFT), independently of GoMLX, so
// that the graph built with route.Block(x, toy.Graph, α, m) can be checked against
// α·v + m·J_Fᵀv.
type ToyBlock struct {
	D, H int
	W, U []float64
}

// NewToyBlock returns a ToyBlock with weights drawn from N(0, scale²), reproducibly from seed.
func NewToyBlock(d, h int, scale float64, seed uint64) ToyBlock {
	rng := rand.New(rand.NewPCG(seed, 0x70b))
	b := ToyBlock{D: d, H: h, W: make([]float64, d*h), U: make([]float64, h*d)}
	for i := range b.W {
		b.W[i] = scale * rng.NormFloat64()
	}
	for i := range b.U {
		b.U[i] = scale * rng.NormFloat64()
	}
	return b
}

// hidden returns s = tanh(xW).
func (b ToyBlock) hidden(x []float64) []float64 {
	b.check(x)
	s := make([]float64, b.H)
	for j := range b.H {
		a := 0.0
		for i := range b.D {
			a += x[i] * b.W[i*b.H+j]
		}
		s[j] = math.Tanh(a)
	}
	return s
}

// FValue returns F(x) = tanh(xW)U, computed in plain Go.
func (b ToyBlock) FValue(x []float64) []float64 {
	s := b.hidden(x)
	out := make([]float64, b.D)
	for k := range b.D {
		for j := range b.H {
			out[k] += s[j] * b.U[j*b.D+k]
		}
	}
	return out
}

// JFT returns J_F(x)ᵀv, the nonlinear route's backward message (paper, App. C.3, d_F = J_Fᵀv),
// by the chain rule written by hand: g_s = vUᵀ, g_a = g_s ⊙ (1 - s²), J_Fᵀv = g_a Wᵀ.
func (b ToyBlock) JFT(x, v []float64) []float64 {
	b.check(v)
	s := b.hidden(x)
	ga := make([]float64, b.H)
	for j := range b.H {
		gs := 0.0
		for k := range b.D {
			gs += v[k] * b.U[j*b.D+k]
		}
		ga[j] = gs * (1 - s[j]*s[j])
	}
	out := make([]float64, b.D)
	for i := range b.D {
		for j := range b.H {
			out[i] += ga[j] * b.W[i*b.H+j]
		}
	}
	return out
}

// Graph is F as GoMLX graph code, for route.Block: x is a [N, D] node (any float dtype; the
// weights are converted to it) and the result is tanh(xW)U, [N, D].
func (b ToyBlock) Graph(x *graph.Node) *graph.Node {
	g := x.Graph()
	W := graph.ConvertDType(graph.ConstTensor(g, tensors.FromFlatDataAndDimensions(append([]float64(nil), b.W...), b.D, b.H)), x.DType())
	U := graph.ConvertDType(graph.ConstTensor(g, tensors.FromFlatDataAndDimensions(append([]float64(nil), b.U...), b.H, b.D)), x.DType())
	return graph.MatMul(graph.Tanh(graph.MatMul(x, W)), U)
}

func (b ToyBlock) check(x []float64) {
	if len(x) != b.D {
		panic(fmt.Sprintf("diag.ToyBlock: vector of length %d, want D = %d", len(x), b.D))
	}
}

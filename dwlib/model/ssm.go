package model

import (
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
)

// ssmStep is one step of the selective SSM on the state h [N, E, S]:
//
//	h' = exp(Δ ⊗ A) ⊙ h + (Δ ⊙ v) ⊗ B,   y = h'·C        (per batch row n)
//
// with Δ, v [N, E], B, C [N, S] and the constants of ssmConsts (A broadcast once per graph). It
// returns y [N, E] and h'. The skip term D ⊙ v is the block's.
//
// Every product on [N, E, S] is between tensors of equal shapes, and every broadcast and every
// sum is a two-dimensional matrix product with a constant: Δ ⊗ 1 = Δ·1ᵀ, B spread over the
// channels = B·R with R [S, E·S] the 0/1 matrix R[s, (e, s')] = [s = s'], and Σ_s = ·1. Their
// gradients are matrix products too. The implicit broadcasts they replace were run through a
// generic index iterator and differentiated into broadcast multiplies and generic reductions, the
// bulk of the step's time on the pure-Go backend. (Batched products — h'·C as one DotGeneral with
// a batch axis — are fewer nodes, but the pure-Go backend fans each batched product out over its
// worker pool from inside a pool task, and several of them ready at once can take every worker
// and wait for one forever: a hang seen in this project's benchmarks. Unbatched products of these
// sizes run on the calling worker.)
func ssmStep(delta, v, bm, cm *Node, k ssmConsts, h *Node) (y, hNext *Node) {
	dims := h.Shape().Dimensions
	n, e, s := dims[0], dims[1], dims[2]
	overS := func(x *Node) *Node { return Reshape(MatMul(Reshape(x, n*e, 1), k.onesRow), n, e, s) } // x ⊗ 1
	overE := func(x *Node) *Node { return Reshape(MatMul(x, k.spread), n, e, s) }                   // 1 ⊗ x
	decay := Exp(Mul(overS(delta), k.a))
	hNext = Add(Mul(decay, h), Mul(overS(Mul(delta, v)), overE(bm)))
	y = Reshape(MatMul(Reshape(Mul(hNext, overE(cm)), n*e, s), k.onesCol), n, e)
	return y, hNext
}

// ssmConsts are the SSM's per-graph constants for a batch of n: A = −exp(A_log) broadcast to
// [N, E, S], the rows of ones [1, S] and [S, 1], and the spreading matrix R [S, E·S].
type ssmConsts struct{ a, onesRow, onesCol, spread *Node }

func newSSMConsts(g *Graph, aLog *Node, n int) ssmConsts {
	dims := aLog.Shape().Dimensions
	e, s := dims[0], dims[1]
	dt := aLog.DType()
	eye := ConvertDType(Equal(Iota(g, shapes.Make(dt, s, s), 0), Iota(g, shapes.Make(dt, s, s), 1)), dt) // I_S
	return ssmConsts{
		a:       BroadcastPrefix(Neg(Exp(aLog)), n),
		onesRow: Ones(g, shapes.Make(dt, 1, s)),
		onesCol: Ones(g, shapes.Make(dt, s, 1)),
		spread:  Reshape(BroadcastToDims(InsertAxes(eye, 1), s, e, s), s, e*s), // R[s, (e, s')] = I[s, s']
	}
}

package model

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// bindMambaBroadcast is the Mamba block step as it was before issue 10 (implicit broadcasts of
// the parameter vectors at every step, the SSM update as broadcast multiplies and a
// broadcast-reduce), kept so the benchmarks can measure the lean step against it in one run.
func bindMambaBroadcast(b *mambaBlock, g *Graph, _ int) blockFn {
	return func(x *Node, h []*Node) (*Node, []*Node) {
		n := b.norm.apply(x)
		u, z := b.inX.apply(n), b.inZ.apply(n)
		window := append(append([]*Node(nil), h[1:]...), u)
		c := InsertAxes(b.convB.NodeValue(g), 0)
		for j, uj := range window {
			c = Add(c, Mul(uj, InsertAxes(b.convW[j].NodeValue(g), 0)))
		}
		v := silu(c)
		delta := softplus(b.dt2.apply(b.dt1.apply(v)))                  // [N, E]
		bm, cm := b.projB.apply(v), b.projC.apply(v)                    // [N, S]
		a := Neg(Exp(b.aLog.NodeValue(g)))                              // [E, S]
		decay := Exp(Mul(InsertAxes(delta, -1), InsertAxes(a, 0)))      // [N, E, S]
		inject := Mul(InsertAxes(Mul(delta, v), -1), InsertAxes(bm, 1)) // [N, E, S]
		hNext := Add(Mul(decay, h[0]), inject)
		y := Add(ReduceSum(Mul(hNext, InsertAxes(cm, 1)), -1), Mul(v, InsertAxes(b.d.NodeValue(g), 0)))
		out := b.out.apply(Mul(y, silu(z)))
		return out, append([]*Node{hNext}, window[1:]...)
	}
}

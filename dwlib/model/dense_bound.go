package model

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// boundDense is a dense layer bound to a graph and a batch size n, for layers applied at every
// rollout step: its bias is broadcast to [n, out] once per graph (see mambaBound for why).
type boundDense struct{ w, b *Node }

func (d dense) bind(g *Graph, n int) boundDense {
	bd := boundDense{w: d.w.NodeValue(g)}
	if d.b != nil {
		bd.b = BroadcastPrefix(d.b.NodeValue(g), n)
	}
	return bd
}

// apply is x·W + b for x [n, in].
func (d boundDense) apply(x *Node) *Node {
	y := MatMul(x, d.w)
	if d.b != nil {
		y = Add(y, d.b)
	}
	return y
}

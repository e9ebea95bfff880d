package model

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// block is one residual block's F together with its recurrent state.
type block interface {
	// initState returns the state before the first step for a batch of n (nil entries if stateless).
	initState(g *Graph, n int) []*Node
	// apply computes F(x, h) and the next state; x is [N, Hidden].
	apply(x *Node, h []*Node) (out *Node, hNext []*Node)
}

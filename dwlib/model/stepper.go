package model

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// block is one residual block's F together with its recurrent state.
type block interface {
	// initState returns the state before the first step for a batch of n (nil entries if stateless).
	initState(g *Graph, n int) []*Node
	// bind returns F for batches of n in graph g. A rollout binds once and applies F at every
	// step, so what does not change between steps (parameters broadcast to the batch) is built
	// once per graph instead of once per step.
	bind(g *Graph, n int) blockFn
}

// blockFn computes F(x, h) and the next state; x is [N, Hidden].
type blockFn = func(x *Node, h []*Node) (out *Node, hNext []*Node)

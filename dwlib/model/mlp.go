package model

import (
	. "github.com/gomlx/gomlx/core/graph"
)

// mlpBlock is F(x) = W₂ tanh(W₁ RMSNorm(x) + b₁): the residual MLP stepper's block, stateless.
type mlpBlock struct {
	norm    norm
	up, out dense
}

func newMLPBlock(p *paramInit, layer, hidden, layers int) *mlpBlock {
	return &mlpBlock{
		norm: newNorm(p, scopeOf(layer, "norm"), NormRMS, hidden),
		up:   newDense(p, scopeOf(layer, "up"), hidden, 2*hidden, fanIn(hidden), true),
		out:  newDense(p, scopeOf(layer, "out"), 2*hidden, hidden, fanIn(2*hidden)/float64(layers), false),
	}
}

func (b *mlpBlock) initState(*Graph, int) []*Node { return nil }

func (b *mlpBlock) bind(*Graph, int) blockFn { return b.apply }

func (b *mlpBlock) apply(x *Node, _ []*Node) (*Node, []*Node) {
	return b.out.apply(Tanh(b.up.apply(b.norm.apply(x)))), nil
}

package model

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// mambaBlock is one Mamba block (Gu & Dao, 2023) in recurrent form. With E = Expand·Hidden
// channels, S = SSMState and conv width W, one step on input x [N, Hidden] is
//
//	n = Norm(x);  u = n·W_x;  z = n·W_z                            (in-projection, two matrices)
//	c = Σ_{j<W} w_j ⊙ u_{t-W+1+j} + b_c;  v = silu(c)              (causal depthwise convolution)
//	Δ = softplus(v·W_Δ1·W_Δ2 + b_Δ);  B = v·W_B;  C = v·W_C         (selective parameters)
//	h' = exp(Δ ⊗ A) ⊙ h + (Δ ⊙ v) ⊗ B,  A = −exp(A_log)           (SSM state [N, E, S])
//	y = (h'·C) + D ⊙ v;  F = (y ⊙ silu(z))·W_out
//
// The state carried between steps is [h, u_{t-W+2}, …, u_t]: the SSM state and the convolution's
// buffer of the last W−1 in-projections.
type mambaBlock struct {
	norm         norm
	inX, inZ     dense
	convW        []*mlmodel.Variable // W taps of [E]: separate variables, so no Slice is differentiated
	convB        *mlmodel.Variable   // [E]
	dt1, dt2     dense               // low-rank Δ projection E → R → E, with bias on the second
	projB, projC dense
	aLog, d      *mlmodel.Variable // [E, S], [E]
	out          dense
	e, s, width  int
}

func newMambaBlock(p *paramInit, layer int, c Config) *mambaBlock {
	e, s, w := c.Expand*c.Hidden, c.SSMState, c.ConvWidth
	rank := int(math.Ceil(float64(c.Hidden) / 16))
	lin := func(part string, in, out int, std float64, bias bool) dense {
		return linearInit(p, c.Init, scopeOf(layer, part), in, out, std, bias)
	}
	outStd := fanIn(e) / math.Sqrt(float64(c.Layers)) // InitNormal only
	b := &mambaBlock{
		norm: newNorm(p, scopeOf(layer, "norm"), c.Norm, c.Hidden),
		inX:  lin("in_x", c.Hidden, e, fanIn(c.Hidden), false),
		inZ:  lin("in_z", c.Hidden, e, fanIn(c.Hidden), false),
	}
	// The convolution bias: PyTorch's depthwise Conv1d has fan_in = width, so U(±1/√width).
	if c.Init == InitTorch {
		b.convB = p.uniform(scopeOf(layer, "conv"), "b", fanIn(w), e)
	} else {
		b.convB = p.constant(scopeOf(layer, "conv"), "b", 0, e)
	}
	*b = mambaBlock{norm: b.norm, inX: b.inX, inZ: b.inZ, convB: b.convB,
		dt1:   lin("dt1", e, rank, fanIn(e), false),
		dt2:   lin("dt2", rank, e, fanIn(rank), false),
		projB: lin("B", e, s, fanIn(e), false),
		projC: lin("C", e, s, fanIn(e), false),
		out:   lin("out", e, c.Hidden, outStd, false),
		e:     e, s: s, width: w,
	}
	for j := range w {
		if c.Init == InitTorch {
			b.convW = append(b.convW, p.uniform(scopeOf(layer, "conv"), fmt.Sprintf("w%d", j), fanIn(w), e))
		} else {
			b.convW = append(b.convW, p.normal(scopeOf(layer, "conv"), fmt.Sprintf("w%d", j), fanIn(w), e))
		}
	}
	// Δ's bias: softplus⁻¹ of a log-uniform step in [1e-3, 1e-1], Mamba's standard initialisation.
	dtBias := make([]float64, e)
	for i := range dtBias {
		dt := math.Exp(math.Log(1e-3) + p.rng.Float64()*(math.Log(1e-1)-math.Log(1e-3)))
		dtBias[i] = dt + math.Log(-math.Expm1(-dt))
	}
	b.dt2.b = p.variable(scopeOf(layer, "dt2"), "b", dtBias, e)
	// A = −(1, 2, …, S) per channel (S4D-real initialisation), stored as log.
	aLog := make([]float64, e*s)
	for i := range e {
		for j := range s {
			aLog[i*s+j] = math.Log(float64(j + 1))
		}
	}
	b.aLog = p.variable(scopeOf(layer, "ssm"), "A_log", aLog, e, s)
	b.d = p.constant(scopeOf(layer, "ssm"), "D", 1, e)
	return b
}

func (b *mambaBlock) initState(g *Graph, n int) []*Node {
	dtype := b.aLog.DType()
	state := []*Node{Zeros(g, shapes.Make(dtype, n, b.e, b.s))}
	for range b.width - 1 {
		state = append(state, Zeros(g, shapes.Make(dtype, n, b.e)))
	}
	return state
}

// mambaBound is a block bound to a graph and a batch size: its parameter vectors are broadcast to
// [N, …] once, so that every step multiplies tensors of equal shapes. The pure-Go backend runs an
// implicit broadcast (a [N, E] tensor times a [1, E] one) through a generic index iterator,
// several times slower than an equal-shape product, and GoMLX differentiates it into such a
// product followed by a generic reduction, at every step. A broadcast made once per graph (to a
// higher rank, which the backend does not fuse back into the products) is a plain copy, and it is
// differentiated once, after the steps' equal-shape contributions are summed.
type mambaBound struct {
	norm                                  norm
	inX, inZ, dt1, dt2, projB, projC, out boundDense
	convW                                 []*Node // W × [N, E]
	convB, d                              *Node   // [N, E]
	ssm                                   ssmConsts
}

func (b *mambaBlock) bind(g *Graph, n int) blockFn { return bindMamba(b, g, n) }

// bindMamba is the block's bind; the benchmarks swap it for the original formulation
// (mamba_legacy_test.go) to measure both in one run.
var bindMamba = bindMambaLean

func bindMambaLean(b *mambaBlock, g *Graph, n int) blockFn {
	bb := &mambaBound{norm: b.norm,
		inX: b.inX.bind(g, n), inZ: b.inZ.bind(g, n), dt1: b.dt1.bind(g, n), dt2: b.dt2.bind(g, n),
		projB: b.projB.bind(g, n), projC: b.projC.bind(g, n), out: b.out.bind(g, n),
		convB: BroadcastPrefix(b.convB.NodeValue(g), n),
		d:     BroadcastPrefix(b.d.NodeValue(g), n),
		ssm:   newSSMConsts(g, b.aLog.NodeValue(g), n),
	}
	for _, w := range b.convW {
		bb.convW = append(bb.convW, BroadcastPrefix(w.NodeValue(g), n))
	}
	return bb.apply
}

func (b *mambaBound) apply(x *Node, h []*Node) (*Node, []*Node) {
	n := b.norm.apply(x)
	u, z := b.inX.apply(n), b.inZ.apply(n)

	// Causal depthwise convolution over [u_{t-W+1}, …, u_t]: the buffer h[1:] holds the past W−1.
	window := append(append([]*Node(nil), h[1:]...), u)
	c := b.convB
	for j, uj := range window {
		c = Add(c, Mul(uj, b.convW[j]))
	}
	v := silu(c)

	delta := softplus(b.dt2.apply(b.dt1.apply(v))) // [N, E]
	bm, cm := b.projB.apply(v), b.projC.apply(v)   // [N, S]
	ssmY, hNext := ssmStep(delta, v, bm, cm, b.ssm, h[0])
	y := Add(ssmY, Mul(v, b.d))
	out := b.out.apply(Mul(y, silu(z)))
	return out, append([]*Node{hNext}, window[1:]...)
}

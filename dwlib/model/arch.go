package model

import (
	"math"

	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// Architecture variants. The paper's text says "a linear read-in", "a two-layer read-out" and
// "residual Mamba blocks"; the authors' released code (docs/paper-vs-code.md, section 3) runs a
// LayerNorm → Linear → GELU read-in, a LayerNorm → Linear → GELU → Linear read-out, LayerNorm
// blocks and PyTorch's default initialisation. Each difference is its own switch, so each can be
// measured alone; AuthorsArchitecture sets all four.
const (
	NormRMS   = "rms"   // RMSNorm with a gain (the project's reading)
	NormLayer = "layer" // LayerNorm with gain and bias, ε = 1e-5 (the authors' code)

	StemLinear        = "linear"         // Linear(D+J → H)
	StemLayerNormGELU = "layernorm-gelu" // LayerNorm(D+J) → Linear → GELU

	HeadSiLU          = "silu"           // Linear(H → H) → SiLU → Linear(H → D), tiny last layer
	HeadLayerNormGELU = "layernorm-gelu" // LayerNorm(H) → Linear(H → H) → GELU → Linear(H → D)

	// InitNormal draws weights N(0, 1/fan_in), scales each block's output projection by 1/√L,
	// starts the convolution bias at 0 and the last read-out layer at 1e-3/√H (persistence).
	InitNormal = "normal"
	// InitTorch is PyTorch's default: weights and biases U(±1/√fan_in) (convolution: fan_in = its
	// width), norms at gain 1 and bias 0; Mamba's own Δ-bias, A and D initialisations are kept.
	InitTorch = "torch"
)

// AuthorsArchitecture returns c with the architecture of the authors' released code.
func AuthorsArchitecture(c Config) Config {
	c.Norm, c.Stem, c.Head, c.Init = NormLayer, StemLayerNormGELU, HeadLayerNormGELU, InitTorch
	return c
}

// norm is a block's or the stem's/head's normalisation over the last axis.
type norm struct {
	kind       string
	gain, bias *mlmodel.Variable // bias: LayerNorm only
}

func newNorm(p *paramInit, scope, kind string, dim int) norm {
	n := norm{kind: kind, gain: p.constant(scope, "g", 1, dim)}
	if kind == NormLayer {
		n.bias = p.constant(scope, "b", 0, dim)
	}
	return n
}

func (n norm) apply(x *Node) *Node {
	if n.kind == NormLayer {
		return layerNorm(x, n.gain, n.bias)
	}
	return rmsNorm(x, n.gain)
}

// layerNorm is (x − mean)/√(var + 1e-5)·g + b over the last axis (biased variance, as PyTorch).
func layerNorm(x *Node, gain, bias *mlmodel.Variable) *Node {
	g := x.Graph()
	c := Sub(x, ReduceAndKeep(x, ReduceMean, -1))
	v := ReduceAndKeep(Mul(c, c), ReduceMean, -1)
	y := Div(c, Sqrt(Add(v, Scalar(g, x.DType(), 1e-5))))
	return Add(Mul(y, InsertAxes(gain.NodeValue(g), 0)), InsertAxes(bias.NodeValue(g), 0))
}

// gelu is the exact GELU, x·Φ(x) = ½x(1 + erf(x/√2)), as PyTorch's default.
func gelu(x *Node) *Node {
	return Mul(MulScalar(x, 0.5), OnePlus(erf(MulScalar(x, 1/math.Sqrt2))))
}

// linearInit creates a dense layer under the configured initialisation: N(0, std²) weights and zero
// bias for InitNormal, U(±1/√in) weights and bias for InitTorch.
func linearInit(p *paramInit, init, scope string, in, out int, std float64, bias bool) dense {
	if init != InitTorch {
		return newDense(p, scope, in, out, std, bias)
	}
	bound := 1 / math.Sqrt(float64(in))
	d := dense{w: p.uniform(scope, "w", bound, in, out)}
	if bias {
		d.b = p.uniform(scope, "b", bound, out)
	}
	return d
}

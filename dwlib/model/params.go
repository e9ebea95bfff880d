package model

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// paramInit creates the model's variables with values drawn in Go from one seeded generator, so the
// same Config.Seed gives the same parameters on every backend.
type paramInit struct {
	store *mlmodel.Store
	rng   *rand.Rand
	dtype dtypes.DType
}

func (p *paramInit) tensor(data []float64, dims ...int) *tensors.Tensor {
	if p.dtype == dtypes.Float64 {
		return tensors.FromFlatDataAndDimensions(data, dims...)
	}
	f := make([]float32, len(data))
	for i, v := range data {
		f[i] = float32(v)
	}
	return tensors.FromFlatDataAndDimensions(f, dims...)
}

// variable creates scope/name with the given values.
func (p *paramInit) variable(scope, name string, data []float64, dims ...int) *mlmodel.Variable {
	return p.store.VariableWithValue(ModelScope+"/"+scope+"/"+name, p.tensor(data, dims...))
}

// normal creates a variable with N(0, std²) entries.
func (p *paramInit) normal(scope, name string, std float64, dims ...int) *mlmodel.Variable {
	data := make([]float64, prod(dims))
	for i := range data {
		data[i] = std * p.rng.NormFloat64()
	}
	return p.variable(scope, name, data, dims...)
}

// uniform creates a variable with U(−bound, bound) entries.
func (p *paramInit) uniform(scope, name string, bound float64, dims ...int) *mlmodel.Variable {
	data := make([]float64, prod(dims))
	for i := range data {
		data[i] = bound * (2*p.rng.Float64() - 1)
	}
	return p.variable(scope, name, data, dims...)
}

// constant creates a variable filled with v.
func (p *paramInit) constant(scope, name string, v float64, dims ...int) *mlmodel.Variable {
	data := make([]float64, prod(dims))
	for i := range data {
		data[i] = v
	}
	return p.variable(scope, name, data, dims...)
}

func prod(dims []int) int {
	n := 1
	for _, d := range dims {
		n *= d
	}
	return n
}

// dense is a weight [in, out] and bias [out] applied as x·W + b on the last axis of x as a matrix product on a
// rank-2 view, whose gradient GoMLX builds from matrix products too.
type dense struct{ w, b *mlmodel.Variable }

func newDense(p *paramInit, scope string, in, out int, std float64, bias bool) dense {
	d := dense{w: p.normal(scope, "w", std, in, out)}
	if bias {
		d.b = p.constant(scope, "b", 0, out)
	}
	return d
}

func (d dense) apply(x *Node) *Node {
	return linear(x, d.w.NodeValue(x.Graph()), d.b)
}

func linear(x, w *Node, b *mlmodel.Variable) *Node {
	dims := x.Shape().Dimensions
	out := w.Shape().Dimensions[1]
	flat := x
	if x.Rank() != 2 {
		flat = Reshape(x, -1, dims[len(dims)-1])
	}
	y := MatMul(flat, w)
	if b != nil {
		y = Add(y, InsertAxes(b.NodeValue(x.Graph()), 0))
	}
	if x.Rank() != 2 {
		outDims := append(append([]int(nil), dims[:len(dims)-1]...), out)
		y = Reshape(y, outDims...)
	}
	return y
}

// rmsNorm normalises the last axis to unit root-mean-square and scales by a learned gain.
func rmsNorm(x *Node, gain *mlmodel.Variable) *Node {
	ms := ReduceAndKeep(Mul(x, x), ReduceMean, -1)
	eps := Scalar(x.Graph(), x.DType(), 1e-6)
	return Mul(Div(x, Sqrt(Add(ms, eps))), InsertAxes(gain.NodeValue(x.Graph()), 0))
}

func silu(x *Node) *Node { return Mul(x, Logistic(x)) }

// softplus is log(1+eˣ) written as max(x,0) + log1p(e^{-|x|}), which never overflows.
func softplus(x *Node) *Node {
	return Add(Max(x, ZerosLike(x)), Log1p(Exp(Neg(Abs(x)))))
}

func fanIn(n int) float64 { return 1 / math.Sqrt(float64(n)) }

func scopeOf(layer int, part string) string { return fmt.Sprintf("block%d/%s", layer, part) }

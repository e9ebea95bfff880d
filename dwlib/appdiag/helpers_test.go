package appdiag

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
)

func testBackend(t testing.TB) compute.Backend {
	t.Helper()
	bk, err := backend.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return bk
}

// linearAR is the scalar model x_{k+1} = a·x_k + c rolled out from the last history state, in
// float64, whose per-step gradients follow from the recurrences s_k = ∂x_k/∂a = x_{k−1} + a·s_{k−1},
// t_k = ∂x_k/∂c = 1 + a·t_{k−1} (s_0 = t_0 = 0).
type linearAR struct {
	store *mlmodel.Store
	a, c  float64
}

func newLinearAR(a, c float64) *linearAR {
	m := &linearAR{store: mlmodel.NewStore(), a: a, c: c}
	m.store.VariableWithValue(model.ModelScope+"/a", tensors.FromScalar(a)).SetTrainable(true)
	m.store.VariableWithValue(model.ModelScope+"/c", tensors.FromScalar(c)).SetTrainable(true)
	return m
}

func (m *linearAR) Store() *mlmodel.Store { return m.store }

func (m *linearAR) Predictions(in model.Inputs, K int) []*Node {
	g := in.History.Graph()
	a := m.store.GetVariable(model.ModelScope + "/a").NodeValue(g)
	c := m.store.GetVariable(model.ModelScope + "/c").NodeValue(g)
	w := in.History.Shape().Dimensions[1]
	x := Reshape(Slice(in.History, AxisRange(), AxisElem(w-1), AxisRange()), in.History.Shape().Dimensions[0], 1)
	var out []*Node
	for range K {
		x = Add(Mul(a, x), c)
		out = append(out, x)
	}
	return out
}

// grads returns the closed-form per-step MSE gradients (∂L_k/∂a, ∂L_k/∂c) from start x0 against
// targets y_1..y_K, L_k = (x_k − y_k)².
func (m *linearAR) grads(x0 float64, y []float64) [][]float64 {
	x, s, tt := x0, 0.0, 0.0
	out := make([][]float64, len(y))
	for k := range y {
		s, tt = x+m.a*s, 1+m.a*tt
		x = m.a*x + m.c
		e := x - y[k]
		out[k] = []float64{2 * e * s, 2 * e * tt}
	}
	return out
}

// scalarUnits returns n univariate units of length T with random values.
func scalarUnits(rng *rand.Rand, n, T int) []data.Series {
	out := make([]data.Series, n)
	for i := range out {
		x := make([][]float64, T)
		v := rng.NormFloat64()
		for t := range x {
			v = 0.8*v + 0.5*rng.NormFloat64()
			x[t] = []float64{v}
		}
		out[i] = data.Series{X: x}
	}
	return out
}

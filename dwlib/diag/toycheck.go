package diag

import (
	"fmt"
	"math"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
)

// Vec is a vector printed with four signed decimals, "[+0.4520 -1.0000]", for tables and text.
type Vec []float64

// String formats v.
func (v Vec) String() string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%+.4f", x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// RowTensor returns x as a [1, len(x)] float64 tensor, one row vector (a copy of x).
func RowTensor(x []float64) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(append([]float64(nil), x...), 1, len(x))
}

// Output returns x + F(x), the block's forward value, in plain Go.
func (b ToyBlock) Output(x []float64) []float64 {
	f := b.FValue(x)
	out := make([]float64, len(x))
	for i := range x {
		out[i] = x[i] + f[i]
	}
	return out
}

// RouteCheck compares one routed forward and backward of the block (as computed by GoMLX with
// route.Block) with the plain-Go values: the forward must be x + F(x) whatever the gains, and the
// backward message α·v + m·J_Fᵀv (paper, Eq. 2). The struct tags are read by kernelext.TableOf.
type RouteCheck struct {
	Gains string  `table:"(alpha, m)"`
	Y     Vec     `table:"forward y (GoMLX)"`
	DX    Vec     `table:"backward dx (GoMLX)"`
	Want  Vec     `table:"alpha v + m J_F^T v (by hand)"`
	ErrY  float64 `table:"max |y - (x+F(x))|,%.1e"`
	ErrDX float64 `table:"max |dx - by hand|,%.1e"`
}

// Check compares y and dx, the forward value and the input gradient of vᵀy that a routed graph
// returned for input x and gains (α, m), with x + F(x) and α·v + m·J_Fᵀv computed by hand.
func (b ToyBlock) Check(x, v []float64, gains [2]float64, y, dx []float64) RouteCheck {
	b.check(y)
	b.check(dx)
	plain, jft := b.Output(x), b.JFT(x, v)
	c := RouteCheck{Gains: fmt.Sprintf("(%g, %g)", gains[0], gains[1]), Y: y, DX: dx, Want: make(Vec, len(v))}
	for i := range v {
		c.Want[i] = gains[0]*v[i] + gains[1]*jft[i]
		c.ErrY = math.Max(c.ErrY, math.Abs(y[i]-plain[i]))
		c.ErrDX = math.Max(c.ErrDX, math.Abs(dx[i]-c.Want[i]))
	}
	return c
}

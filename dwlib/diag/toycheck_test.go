package diag_test

import (
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/diag"
)

func TestVec(t *testing.T) {
	if got, want := (diag.Vec{0.452, -1, 0}).String(), "[+0.4520 -1.0000 +0.0000]"; got != want {
		t.Errorf("Vec = %q, want %q", got, want)
	}
	if x := diag.RowTensor([]float64{1, 2, 3}); x.Shape().Dimensions[0] != 1 || x.Shape().Dimensions[1] != 3 {
		t.Errorf("RowTensor shape %v, want [1 3]", x.Shape())
	}
}

// TestToyCheck: the routed graph's outputs pass Check with errors at rounding level, and a wrong
// backward message is caught.
func TestToyCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	b := diag.NewToyBlock(3, 4, 0.8, 1)
	x, v := randVec(rng, 3), randVec(rng, 3)
	gains := [][2]float64{{1, 1}, {0.3, 0.8}, {0, 0.5}}
	ys, dxs := routedToy(t, b, x, v, gains)
	out, f := b.Output(x), b.FValue(x)
	for k := range x {
		if out[k] != x[k]+f[k] {
			t.Fatalf("Output[%d] = %v, want x + F(x) = %v", k, out[k], x[k]+f[k])
		}
	}
	for n, g := range gains {
		c := b.Check(x, v, g, ys[n], dxs[n])
		if c.ErrY > 1e-14 || c.ErrDX > 1e-12 {
			t.Errorf("gains %v: errors %v, %v; want rounding only", g, c.ErrY, c.ErrDX)
		}
		if c.Gains == "" || len(c.Want) != 3 || c.Y[0] != ys[n][0] || c.DX[2] != dxs[n][2] {
			t.Errorf("gains %v: check %+v does not hold the values", g, c)
		}
	}
	wrong := append([]float64(nil), dxs[1]...)
	wrong[1] += 0.01
	if c := b.Check(x, v, gains[1], ys[1], wrong); c.ErrDX < 0.009 {
		t.Errorf("a backward message off by 0.01 gives error %v", c.ErrDX)
	}
	if c := b.Check(x, v, [2]float64{1, 1}, ys[0], dxs[1]); c.ErrDX < 1e-3 {
		t.Errorf("the message of other gains gives error %v", c.ErrDX)
	}
}

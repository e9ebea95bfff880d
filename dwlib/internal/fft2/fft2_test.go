package fft2

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// TestAgainstTheDefinition: Forward equals the double sum of its definition, and Inverse undoes it.
func TestAgainstTheDefinition(t *testing.T) {
	const nx, ny = 6, 4
	rng := rand.New(rand.NewPCG(1, 2))
	f := make([]float64, nx*ny)
	for i := range f {
		f[i] = rng.NormFloat64()
	}
	p := New(nx, ny)
	got := make([]complex128, nx*ny)
	p.Forward(got, f)
	for ky := range ny {
		for kx := range nx {
			var want complex128
			for y := range ny {
				for x := range nx {
					ph := -2 * math.Pi * (float64(kx*x)/nx + float64(ky*y)/ny)
					want += complex(f[y*nx+x], 0) * cmplx.Exp(complex(0, ph))
				}
			}
			if d := cmplx.Abs(got[ky*nx+kx] - want); d > 1e-12 {
				t.Errorf("(%d, %d): %v, want %v", kx, ky, got[ky*nx+kx], want)
			}
		}
	}
	back := make([]float64, nx*ny)
	p.Inverse(back, got)
	for i := range f {
		if math.Abs(back[i]-f[i]) > 1e-13 {
			t.Fatalf("Inverse(Forward(f))[%d] = %v, want %v", i, back[i], f[i])
		}
	}
}

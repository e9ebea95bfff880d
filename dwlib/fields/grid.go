package fields

import (
	"math"

	"github.com/internal-dw/dwgo/dwlib/internal/fft2"
)

// grid is a periodic NX × NY grid on [0, LX) × [0, LY) with its spectral operators. A field is a
// []float64 of NY rows of NX values (x is the fast index); its spectrum a []complex128 of the same
// layout.
type grid struct {
	nx, ny int
	kx, ky []float64 // angular wavenumbers of each column and row index
	keep   []bool    // the 2/3 de-aliasing mask, per spectral index
	k2     []float64 // |k|², per spectral index
	plan   *fft2.Plan
}

func newGrid(nx, ny int, lx, ly float64) *grid {
	g := &grid{nx: nx, ny: ny, plan: fft2.New(nx, ny)}
	g.kx, g.ky = wavenumbers(nx, lx), wavenumbers(ny, ly)
	g.keep = make([]bool, nx*ny)
	g.k2 = make([]float64, nx*ny)
	for iy := range ny {
		for ix := range nx {
			i := iy*nx + ix
			g.k2[i] = g.kx[ix]*g.kx[ix] + g.ky[iy]*g.ky[iy]
			g.keep[i] = 3*absIndex(ix, nx) < nx && 3*absIndex(iy, ny) < ny
		}
	}
	return g
}

// wavenumbers returns 2π/L · (0, 1, …, n/2−1, −n/2, …, −1); the Nyquist mode gets −n/2 (it is
// removed by de-aliasing anyway).
func wavenumbers(n int, l float64) []float64 {
	k := make([]float64, n)
	for i := range n {
		m := i
		if i >= n/2 {
			m = i - n
		}
		k[i] = 2 * math.Pi * float64(m) / l
	}
	return k
}

// absIndex is |m| of the wavenumber index i of an n-point transform.
func absIndex(i, n int) int {
	if i >= n/2 {
		return n - i
	}
	return i
}

// forward returns the (unnormalised) spectrum of the real field f in dst.
func (g *grid) forward(dst []complex128, f []float64) { g.plan.Forward(dst, f) }

// inverse returns the real field of the spectrum fh in dst (normalised: inverse(forward(f)) = f).
// fh is left unchanged.
func (g *grid) inverse(dst []float64, fh []complex128) { g.plan.Inverse(dst, fh) }

// dx and dy return the spectra of ∂/∂x and ∂/∂y of fh in dst.
func (g *grid) dx(dst, fh []complex128) {
	for iy := range g.ny {
		for ix := range g.nx {
			i := iy*g.nx + ix
			dst[i] = complex(0, g.kx[ix]) * fh[i]
		}
	}
}

func (g *grid) dy(dst, fh []complex128) {
	for iy := range g.ny {
		for ix := range g.nx {
			i := iy*g.nx + ix
			dst[i] = complex(0, g.ky[iy]) * fh[i]
		}
	}
}

// dealias zeroes the modes outside the 2/3 mask.
func (g *grid) dealias(fh []complex128) {
	for i, k := range g.keep {
		if !k {
			fh[i] = 0
		}
	}
}

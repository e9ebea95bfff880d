// Package fft2 is the two-dimensional discrete Fourier transform of fields stored as rows
// (y, the slow index) of columns (x, the fast index), built from gonum's one-dimensional FFT.
// dwlib/fields (the shear-flow simulator) and dwlib/noise (the spectral prior sampler) share it.
package fft2

import "gonum.org/v1/gonum/dsp/fourier"

// Plan transforms NY × NX fields. It keeps work buffers: not safe for concurrent use.
type Plan struct {
	NX, NY  int
	fx, fy  *fourier.CmplxFFT
	col     []complex128
	scratch []complex128
}

// New returns a plan for NY rows of NX values.
func New(nx, ny int) *Plan {
	return &Plan{NX: nx, NY: ny, fx: fourier.NewCmplxFFT(nx), fy: fourier.NewCmplxFFT(ny),
		col: make([]complex128, ny), scratch: make([]complex128, nx*ny)}
}

// Forward returns the unnormalised spectrum Σ f(x, y) e^{−2πi(kx·x/NX + ky·y/NY)} of the real
// field f in dst (same layout).
func (p *Plan) Forward(dst []complex128, f []float64) {
	for i, v := range f {
		dst[i] = complex(v, 0)
	}
	p.Transform(dst, false)
}

// Inverse returns the real part of the normalised inverse transform of fh in dst, so that
// Inverse(Forward(f)) = f; fh is unchanged.
func (p *Plan) Inverse(dst []float64, fh []complex128) {
	copy(p.scratch, fh)
	p.Transform(p.scratch, true)
	s := 1 / float64(p.NX*p.NY)
	for i, v := range p.scratch {
		dst[i] = real(v) * s
	}
}

// Transform applies the unnormalised forward (or backward) 2-D transform in place.
func (p *Plan) Transform(a []complex128, inverse bool) {
	for iy := range p.NY {
		r := a[iy*p.NX : (iy+1)*p.NX]
		if inverse {
			p.fx.Sequence(r, r)
		} else {
			p.fx.Coefficients(r, r)
		}
	}
	for ix := range p.NX {
		for iy := range p.NY {
			p.col[iy] = a[iy*p.NX+ix]
		}
		if inverse {
			p.fy.Sequence(p.col, p.col)
		} else {
			p.fy.Coefficients(p.col, p.col)
		}
		for iy := range p.NY {
			a[iy*p.NX+ix] = p.col[iy]
		}
	}
}

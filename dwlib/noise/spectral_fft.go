package noise

import (
	"math"
	"math/cmplx"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/internal/fft2"
)

// fftPlan holds the 2-D transforms of one field shape for the spectral sampler.
type fftPlan struct {
	w, h int
	plan *fft2.Plan
	buf  []complex128
}

func newFFTPlan(width, height int) *fftPlan {
	return &fftPlan{w: width, h: height, plan: fft2.New(width, height), buf: make([]complex128, width*height)}
}

// addPower adds |F z|² of the orthonormal transform (|FFT z|²/(H·W)) on the stored half-plane,
// Height rows of Width/2+1 columns, to dst.
func (p *fftPlan) addPower(dst, z []float64) {
	p.plan.Forward(p.buf, z)
	wh := p.w/2 + 1
	s := 1 / float64(p.w*p.h)
	for ky := range p.h {
		for kx := range wh {
			a := cmplx.Abs(p.buf[ky*p.w+kx])
			dst[ky*wh+kx] += a * a * s
		}
	}
}

// filter returns F⁻¹[√S ⊙ F white] in dst for the half-plane spectrum spec (the orthonormal
// transform's scale cancels: (1/N)·IFFT(√S·FFT(white))).
func (p *fftPlan) filter(dst, white, spec []float64) {
	p.plan.Forward(p.buf, white)
	wh := p.w/2 + 1
	for ky := range p.h {
		for kx := range p.w {
			var s float64
			if kx < wh {
				s = spec[ky*wh+kx]
			} else { // S(−k) = S(k): the conjugate column of the stored half-plane
				s = spec[((p.h-ky)%p.h)*wh+(p.w-kx)]
			}
			p.buf[ky*p.w+kx] *= complex(math.Sqrt(s), 0)
		}
	}
	p.plan.Inverse(dst, p.buf)
}

// Sample implements [Sampler] (eq. field-prior-sampler): at each ready horizon and channel a
// white Gaussian field shaped by √S and scaled by √(v + δ), from the COMMITTED state. Exactly
// n·K·D normal draws are consumed whatever the state, so the stream does not depend on it.
func (s *Spectral) Sample(rng *rand.Rand, n, K, D int) ([]float64, error) {
	if err := checkSample(rng, n, K, D, s.dim()); err != nil {
		return nil, err
	}
	ready := s.Ready(K)
	scales := make([][]float64, K)
	for k, r := range ready {
		if r {
			scales[k] = s.scale(k)
		}
	}
	HW, h := s.cfg.Height*s.cfg.Width, s.half()
	out := make([]float64, n*K*D)
	white, shaped := make([]float64, HW), make([]float64, HW)
	for i := range n {
		for k := range K {
			for c := range s.cfg.Channels {
				for j := range white {
					white[j] = rng.NormFloat64()
				}
				if !ready[k] {
					continue
				}
				s.plan.filter(shaped, white, s.cur.spec[k][c*h:(c+1)*h])
				dst := out[(i*K+k)*D+c*HW : (i*K+k)*D+(c+1)*HW]
				sc := scales[k][c*HW : (c+1)*HW]
				for j, v := range shaped {
					dst[j] = sc[j] * v
				}
			}
		}
	}
	return out, nil
}

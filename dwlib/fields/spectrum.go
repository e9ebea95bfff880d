package fields

import (
	"fmt"
	"math"
	"math/cmplx"

	"github.com/internal-dw/dwgo/dwlib/internal/fft2"
)

// RadialSpectrum returns the isotropic power spectrum of a periodic H×W field z (rows of W
// values): the orthonormal 2-D DFT power |ẑ(k)|²/(H·W) summed over the wavevectors whose
// magnitude |k| = √(kx² + ky²) (signed integer frequencies, in cycles per domain) rounds to each
// shell 0, 1, …, the last shell holding the corners. By Parseval the shells sum to Σ z², so
// spectra of fields of one shape compare directly: it is how a notebook holds a sampler's draws
// against real forecast residuals, shell by shell.
func RadialSpectrum(z []float64, H, W int) ([]float64, error) {
	if H < 1 || W < 1 || len(z) != H*W {
		return nil, fmt.Errorf("fields: RadialSpectrum: %d values for a %d×%d field", len(z), H, W)
	}
	plan := fft2.New(W, H)
	buf := make([]complex128, H*W)
	plan.Forward(buf, z)
	signed := func(k, n int) float64 {
		if k > n/2 {
			return float64(k - n)
		}
		return float64(k)
	}
	shells := int(math.Round(math.Hypot(float64(H/2), float64(W/2)))) + 1
	out := make([]float64, shells)
	s := 1 / float64(H*W)
	for ky := range H {
		for kx := range W {
			a := cmplx.Abs(buf[ky*W+kx])
			out[int(math.Round(math.Hypot(signed(ky, H), signed(kx, W))))] += a * a * s
		}
	}
	return out, nil
}

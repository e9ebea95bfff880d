package prior

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// DefaultRidge is the paper's relative ridge lambda = 1e-3 (eqs.
// ieeg-factor-ar and fmri-deviation-ar).
const DefaultRidge = 1e-3

// DefaultRadiusCap is the paper's root-radius cap 0.995.
const DefaultRadiusCap = 0.995

// FitScalarAR fits one scalar AR(p) without intercept, pooled over
// segments (eqs. ieeg-factor-ar and fmri-deviation-ar):
//
//	phi = argmin Σ_seg Σ_t (y_t - Σ_l phi_l y_{t-l})² + ridge·s·||phi||²,
//
// where t runs over the targets whose complete lag window y_{t-p..t-1} lies
// in the same segment, and s is the mean diagonal entry of the lag Gram
// matrix G = Σ z zᵀ, so ridge is relative to the data's own scale. p = 0
// returns an empty slice. Segments shorter than p+1 contribute nothing.
//
// The solve uses a Cholesky factorisation (gonum); ridge = 0 is ordinary
// least squares and fails with an error when the lags are collinear.
// Errors: p < 0, ridge < 0 or not finite, no complete lag window, a
// singular system, a non-finite value in a used window.
func FitScalarAR(segments [][]float64, p int, ridge float64) ([]float64, error) {
	if p < 0 {
		return nil, fmt.Errorf("prior: FitScalarAR: order p=%d must be >= 0", p)
	}
	if !(ridge >= 0) || math.IsInf(ridge, 0) {
		return nil, fmt.Errorf("prior: FitScalarAR: ridge=%v must be finite and >= 0", ridge)
	}
	if p == 0 {
		return []float64{}, nil
	}
	// The lag Gram of one segment, G[i][j] = Σ_{t=p}^{L-1} y[t-1-i] y[t-1-j], is Toeplitz up to
	// end corrections: its first row costs O(L p) and each later entry follows from its
	// up-left neighbour, G[i][j] = G[i-1][j-1] + y[p-1-i] y[p-1-j] - y[L-1-i] y[L-1-j], so a
	// segment costs O(L p + p²) instead of O(L p²).
	gs := make([]float64, p*p) // row-major, symmetric
	cs := make([]float64, p)
	seg := make([]float64, p*p)
	n := 0
	for _, y := range segments {
		L := len(y)
		if L <= p {
			continue
		}
		for j := range p {
			a, b := 0.0, 0.0
			for t := p; t < L; t++ {
				a += y[t-1] * y[t-1-j]
				b += y[t-1-j] * y[t]
			}
			seg[j], cs[j] = a, cs[j]+b
		}
		for i := 1; i < p; i++ {
			for j := i; j < p; j++ {
				seg[i*p+j] = seg[(i-1)*p+j-1] + y[p-1-i]*y[p-1-j] - y[L-1-i]*y[L-1-j]
			}
		}
		for i := range p {
			for j := i; j < p; j++ {
				gs[i*p+j] += seg[i*p+j]
			}
		}
		n += L - p
	}
	for i := range p {
		for j := range i {
			gs[i*p+j] = gs[j*p+i]
		}
	}
	g := mat.NewSymDense(p, gs)
	c := mat.NewVecDense(p, cs)
	if n == 0 {
		return nil, fmt.Errorf("prior: FitScalarAR: no segment is longer than p=%d (no complete lag window)", p)
	}
	s := 0.0
	for i := range p {
		s += g.At(i, i)
	}
	s /= float64(p)
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return nil, errors.New("prior: FitScalarAR: non-finite values in the lag windows")
	}
	for i := range p {
		g.SetSym(i, i, g.At(i, i)+ridge*s)
	}
	var ch mat.Cholesky
	if !ch.Factorize(g) {
		return nil, fmt.Errorf("prior: FitScalarAR: the lag Gram matrix is singular for p=%d, ridge=%g (use ridge > 0)", p, ridge)
	}
	var phi mat.VecDense
	if err := ch.SolveVecTo(&phi, c); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) {
			return nil, fmt.Errorf("prior: FitScalarAR: p=%d: %w", p, err)
		}
	}
	out := make([]float64, p)
	for i := range p {
		out[i] = phi.AtVec(i)
		if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
			return nil, fmt.Errorf("prior: FitScalarAR: non-finite coefficient for p=%d", p)
		}
	}
	return out, nil
}

// arForecast continues the scalar AR recursion K steps from hist (oldest
// first, at least len(phi) values): out[k] = Σ_l phi_l â_{k-l}, with
// observed values before the origin and forecasts after it (eq.
// ieeg-factor-forecast).
func arForecast(phi, hist []float64, K int) []float64 {
	p := len(phi)
	buf := make([]float64, p+K)
	copy(buf, hist[len(hist)-p:])
	for k := range K {
		v := 0.0
		for l := 1; l <= p; l++ {
			v += phi[l-1] * buf[p+k-l]
		}
		buf[p+k] = v
	}
	return buf[p:]
}

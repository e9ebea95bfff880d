package prior

import (
	"fmt"
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/mat"
)

// RootRadius is the spectral radius of the companion matrix of the scalar
// AR(p) y_t = Σ_l phi_l y_{t-l}, i.e. the largest modulus of the roots of
// z^p - phi_1 z^{p-1} - ... - phi_p. It is 0 for p = 0. The eigenvalues are
// computed with gonum's general eigen-decomposition.
func RootRadius(phi []float64) (float64, error) {
	p := len(phi)
	if p == 0 {
		return 0, nil
	}
	if p == 1 {
		return math.Abs(phi[0]), nil
	}
	a := mat.NewDense(p, p, nil)
	for j, v := range phi {
		a.Set(0, j, v)
	}
	for i := 1; i < p; i++ {
		a.Set(i, i-1, 1)
	}
	var eig mat.Eigen
	if !eig.Factorize(a, mat.EigenNone) {
		return 0, fmt.Errorf("prior: RootRadius: eigen-decomposition of the AR(%d) companion matrix failed", p)
	}
	r := 0.0
	for _, v := range eig.Values(nil) {
		r = max(r, cmplx.Abs(v))
	}
	return r, nil
}

// capScanSteps is the number of kappa grid cells scanned before bisection.
const capScanSteps = 64

// CapRadius returns kappa·phi for the largest kappa in [0, 1] whose
// companion matrix has spectral radius at most limit, and that kappa (App.
// "iEEG": "its coefficient vector is multiplied by the largest kappa in
// [0,1] whose companion matrix has spectral radius at most 0.995"). A phi
// already within the limit is returned unchanged (a copy) with kappa = 1.
//
// The radius is 0 at kappa = 0 and need not be monotone in kappa, so kappa
// is found by scanning the grid j/64 downwards from 1 for the largest feasible
// point and then bisecting to machine precision between it and the next grid
// point, which holds the last crossing unless the radius crosses the limit
// several times within one grid cell. (The authors' code bisects on [0, 1]
// for 24 steps and keeps the feasible end: kappa to about 6e-8.)
func CapRadius(phi []float64, limit float64) ([]float64, float64, error) {
	if !(limit > 0) || math.IsInf(limit, 0) {
		return nil, 0, fmt.Errorf("prior: CapRadius: limit=%v must be finite and > 0", limit)
	}
	out := append([]float64(nil), phi...)
	r, err := RootRadius(phi)
	if err != nil {
		return nil, 0, err
	}
	if r <= limit {
		return out, 1, nil
	}
	radius := func(k float64) (float64, error) {
		s := make([]float64, len(phi))
		for i, v := range phi {
			s[i] = k * v
		}
		return RootRadius(s)
	}
	lo, hi := 0.0, 1.0
	for j := capScanSteps - 1; j >= 1; j-- {
		k := float64(j) / capScanSteps
		rk, err := radius(k)
		if err != nil {
			return nil, 0, err
		}
		if rk <= limit {
			lo = k
			break
		}
		hi = k
	}
	for range 200 {
		mid := 0.5 * (lo + hi)
		if mid <= lo || mid >= hi {
			break
		}
		rm, err := radius(mid)
		if err != nil {
			return nil, 0, err
		}
		if rm <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	for i := range out {
		out[i] *= lo
	}
	return out, lo, nil
}

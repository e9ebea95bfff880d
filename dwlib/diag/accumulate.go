package diag

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// This file follows Appendix B, "Why delayed gradients accumulate": under a stationary local
// linearisation, one direction of the shared-parameter sensitivity obeys the forced recurrence
//
//	z_{k+1} = J z_k + μ + ε_k,   z_0 = 0,   E ε_k = 0,   E ε_k ε_jᵀ = 1{k = j} Q,
//
// so contraction of old paths does not remove the contribution injected at every new step.

// ForcedMoments returns the mean E[z_k] and covariance Cov(z_k) of the forced recurrence for
// k = 1..K, by the moment recursions mean_{k+1} = J mean_k + μ and cov_{k+1} = J cov_k Jᵀ + Q.
// They equal the closed forms of eq. forced-direction-moments, Σ_{h<k} J^h μ and the finite
// controllability Gramian Σ_{h<k} J^h Q (J^h)ᵀ. J is n×n, μ has n entries, Q is n×n symmetric
// positive semidefinite.
func ForcedMoments(J *mat.Dense, mu []float64, Q *mat.SymDense, K int) (means []*mat.VecDense, covs []*mat.SymDense, err error) {
	n, c := J.Dims()
	switch {
	case n != c:
		return nil, nil, fmt.Errorf("diag.ForcedMoments: J is %d×%d, want square", n, c)
	case len(mu) != n:
		return nil, nil, fmt.Errorf("diag.ForcedMoments: μ has %d entries, J is %d×%d", len(mu), n, n)
	case Q.SymmetricDim() != n:
		return nil, nil, fmt.Errorf("diag.ForcedMoments: Q is %d×%d, J is %d×%d", Q.SymmetricDim(), Q.SymmetricDim(), n, n)
	case K < 1:
		return nil, nil, fmt.Errorf("diag.ForcedMoments: K = %d, want ≥ 1", K)
	}
	var eig mat.EigenSym
	if !eig.Factorize(Q, false) {
		return nil, nil, fmt.Errorf("diag.ForcedMoments: Q's eigendecomposition failed")
	}
	if v := eig.Values(nil); v[0] < -1e-12*math.Max(1, math.Abs(v[len(v)-1])) {
		return nil, nil, fmt.Errorf("diag.ForcedMoments: Q is not positive semidefinite (eigenvalue %g)", v[0])
	}
	muV := mat.NewVecDense(n, append([]float64(nil), mu...))
	mean := mat.NewVecDense(n, nil)
	cov := mat.NewDense(n, n, nil)
	var jc, jcj mat.Dense
	for range K {
		next := mat.NewVecDense(n, nil)
		next.MulVec(J, mean)
		next.AddVec(next, muV)
		mean = next
		jc.Mul(J, cov)
		jcj.Mul(&jc, J.T())
		cov.Add(&jcj, Q)
		s := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				s.SetSym(i, j, 0.5*(cov.At(i, j)+cov.At(j, i))) // symmetric up to rounding
			}
		}
		means, covs = append(means, mean), append(covs, s)
	}
	return means, covs, nil
}

// ScalarForcedRMS is eq. scalar-forced-rms-regimes for a scalar gain a ≥ 0, coherent injection
// μ and innovation standard deviation σ: for k = 1..K, the coherent part |μ| Σ_{h<k} a^h, the
// innovation part σ (Σ_{h<k} a^{2h})^{1/2} and the RMS sensitivity (E z_k²)^{1/2}, the root of
// their squares' sum. The geometric sums take their limit k at a = 1. So a < 1 saturates, a = 1
// grows linearly in the coherent part and like √k in the innovation part, and a > 1 grows
// exponentially.
func ScalarForcedRMS(a, mu, sigma float64, K int) (coherent, innovation, rms []float64, err error) {
	if !(a >= 0) || math.IsInf(a, 0) || math.IsNaN(mu) || math.IsInf(mu, 0) || !(sigma >= 0) || math.IsInf(sigma, 0) {
		return nil, nil, nil, fmt.Errorf("diag.ScalarForcedRMS: a = %v, μ = %v, σ = %v; want finite a ≥ 0, μ and σ ≥ 0", a, mu, sigma)
	}
	if K < 1 {
		return nil, nil, nil, fmt.Errorf("diag.ScalarForcedRMS: K = %d, want ≥ 1", K)
	}
	coherent, innovation, rms = make([]float64, K), make([]float64, K), make([]float64, K)
	for i := range K {
		k := float64(i + 1)
		s1, s2 := geometricSum(a, k), geometricSum(a*a, k)
		coherent[i], innovation[i] = math.Abs(mu)*s1, sigma*math.Sqrt(s2)
		rms[i] = math.Hypot(coherent[i], innovation[i])
	}
	return coherent, innovation, rms, nil
}

// geometricSum is Σ_{h<k} r^h = (1 − r^k)/(1 − r), and k at r = 1 (where the quotient is 0/0;
// near 1 it is written with Expm1 and Log1p so that it stays accurate).
func geometricSum(r, k float64) float64 {
	if r == 1 {
		return k
	}
	if r > 0 {
		return math.Expm1(k*math.Log(r)) / (r - 1)
	}
	return (1 - math.Pow(r, k)) / (1 - r)
}

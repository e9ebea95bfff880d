package diag_test

import (
	"math"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// close reports whether |a-b| ≤ tol·max(1, |b|).
func close(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

func close2(a, b [2]float64, tol float64) bool {
	return close(a[0], b[0], tol) && close(a[1], b[1], tol)
}

// randomPSD returns AAᵀ for a random 2×2 A scaled by s: positive definite almost surely.
func randomPSD(rng *rand.Rand, s float64) wiener.Sym2 {
	a, b, c, d := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
	return wiener.Sym2{II: a*a + c*c, IJ: a*b + c*d, JJ: b*b + d*d}.Scale(s)
}

// minEig returns the smaller eigenvalue of m.
func minEig(m wiener.Sym2) float64 {
	_, l2 := m.Eigen()
	return l2
}

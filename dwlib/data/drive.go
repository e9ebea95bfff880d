package data

import (
	"math"
	"math/rand/v2"
)

// ar1Drive draws a stationary unit-variance AR(1) sequence of length n,
//
//	u_0 ~ N(0,1),  u_{j+1} = coef u_j + sqrt(1 - coef^2) eps_{j+1},
//
// the observed Mackey–Glass drive of the probe-validation appendix
// (Eq. probe-mg-drive). Starting from the stationary law means no drive
// burn-in is needed.
func ar1Drive(n int, coef float64, rng *rand.Rand) []float64 {
	u := make([]float64, n)
	s := math.Sqrt(1 - coef*coef)
	for j := range u {
		if j == 0 {
			u[j] = rng.NormFloat64()
			continue
		}
		u[j] = coef*u[j-1] + s*rng.NormFloat64()
	}
	return u
}

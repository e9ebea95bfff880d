package baseline

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// FitDamped fits the damping factor φ of [Damped] on training units.
//
// Criterion: φ minimises the summed squared multi-step error of the rollout
// that will be scored,
//
//	J(φ) = Σ_units Σ_o Σ_{h=1..H} ||X[o+h-1] - φ^h X[o-1]||²,
//
// over every valid origin o in [history, len-H] of every unit (all of them,
// not the MaxOrigins subsample: the fit wants data, the cap only bounds
// evaluation cost) and over φ in [-1, 1], the range where the forecast stays
// bounded. It is a squared-error criterion rather than eq. (8) itself because
// it reduces to H+1 sufficient statistics, S = Σ_o ||X[o-1]||² and
// C_h = Σ_o <X[o+h-1], X[o-1]>, giving the polynomial
//
//	J(φ) = const + Σ_h (S φ^{2h} - 2 C_h φ^h).
//
// It is minimised by a grid over [-1, 1] (step 1e-3) followed by bisection
// on J'(φ) in the best grid cell, so φ is found to machine precision: a
// noiseless AR(1) x_{t+1} = a x_t with |a| <= 1 gives φ = a exactly.
//
// Errors: H < 1, history < 1, no units, a unit shorter than history+H, or
// only zero origin states (φ is then undetermined).
func FitDamped(units []eval.Unit, history, H int) (Damped, error) {
	if H < 1 {
		return Damped{}, fmt.Errorf("baseline: FitDamped: H=%d must be >= 1", H)
	}
	if history < 1 {
		return Damped{}, fmt.Errorf("baseline: FitDamped: history=%d must be >= 1", history)
	}
	if _, _, err := checkUnits("FitDamped", units, history+H); err != nil {
		return Damped{}, err
	}
	var S float64
	C := make([]float64, H)
	for _, u := range units {
		for o := history; o <= len(u.X)-H; o++ {
			x0 := u.X[o-1]
			S += dot(x0, x0)
			for h := range H {
				C[h] += dot(u.X[o+h], x0)
			}
		}
	}
	if S == 0 {
		return Damped{}, fmt.Errorf("baseline: FitDamped: every origin state is zero, phi is undetermined")
	}
	return Damped{Phi: minimizeDamped(S, C)}, nil
}

// dampedLoss is J(φ) - const and its derivative J'(φ).
func dampedLoss(phi, S float64, C []float64) (j, dj float64) {
	p := 1.0 // φ^(h-1)
	for i, c := range C {
		h := float64(i + 1)
		ph := p * phi // φ^h
		j += S*ph*ph - 2*c*ph
		dj += 2 * h * (S*ph*p - c*p)
		p = ph
	}
	return j, dj
}

// minimizeDamped minimises dampedLoss over [-1, 1]: grid, then bisection
// of the derivative inside the best cell.
func minimizeDamped(S float64, C []float64) float64 {
	const n = 2000
	step := 2.0 / n
	best, bestJ := -1.0, 0.0
	for i := 0; i <= n; i++ {
		phi := -1 + float64(i)*step
		j, _ := dampedLoss(phi, S, C)
		if i == 0 || j < bestJ {
			best, bestJ = phi, j
		}
	}
	lo, hi := max(-1, best-step), min(1, best+step)
	_, dlo := dampedLoss(lo, S, C)
	_, dhi := dampedLoss(hi, S, C)
	if !(dlo < 0 && dhi > 0) {
		// No interior stationary point in the cell: the minimum is the
		// grid point itself (a boundary, or a derivative too flat to sign).
		return best
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if dampedDeriv(mid, S, C) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

func dampedDeriv(phi, S float64, C []float64) float64 {
	_, dj := dampedLoss(phi, S, C)
	return dj
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

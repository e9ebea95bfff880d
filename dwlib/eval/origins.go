package eval

import "fmt"

// MaxOrigins is the paper's cap on forecast origins per test unit
// (Appendix "How Forecasting Error Is Evaluated": "at most 64 deterministic
// evenly spaced origins per test unit").
const MaxOrigins = 64

// Origins returns the forecast origins used for one test unit of length
// unitLen (number of model steps).
//
// Origin convention. An origin o is an absolute time index inside the unit.
// At origin o the model observes the history steps [o-history, o) (plus any
// drive it is given, see Window) and forecasts steps o, o+1, ..., o+horizon-1;
// forecast step h (1-based, as in eq. (8)) targets X[o+h-1]. Hence o is valid
// exactly when
//
//	o-history >= 0  and  o+horizon <= unitLen,
//
// i.e. the valid origins are the integers in [history, unitLen-horizon].
//
// Spreading. Following the appendix ("at most 64 deterministic evenly spaced
// origins per test unit, remove duplicate absolute origins"), maxOrigins
// points are placed evenly from the first valid origin to the last one
// inclusive (like NumPy's linspace(first, last, maxOrigins)), each is rounded
// to the nearest integer, and duplicates are removed. Rounding is exact
// (integer arithmetic, no floating point) with ties to even, which is what
// NumPy's round/rint does, so the lists agree with a NumPy reference. When
// the unit has no more valid origins than maxOrigins, this yields every valid
// origin exactly once; with maxOrigins == 1 it yields the first valid origin.
// The result is sorted ascending and is a deterministic function of its
// arguments.
//
// Errors: history < 1, horizon < 1 or maxOrigins < 1, and the case where no
// origin is valid (history+horizon > unitLen: the rollout horizon does not
// fit in the data); the message names all the values involved.
func Origins(unitLen, history, horizon, maxOrigins int) ([]int, error) {
	if history < 1 {
		return nil, fmt.Errorf("eval.Origins: history=%d must be >= 1", history)
	}
	if horizon < 1 {
		return nil, fmt.Errorf("eval.Origins: horizon=%d must be >= 1", horizon)
	}
	if maxOrigins < 1 {
		return nil, fmt.Errorf("eval.Origins: maxOrigins=%d must be >= 1", maxOrigins)
	}
	first, last := history, unitLen-horizon
	if last < first {
		return nil, fmt.Errorf("eval.Origins: no valid origin: unitLen=%d < history=%d + horizon=%d "+
			"(the forecast horizon does not fit in the unit)", unitLen, history, horizon)
	}
	if maxOrigins == 1 || first == last {
		return []int{first}, nil
	}
	span, den := last-first, maxOrigins-1
	out := make([]int, 0, min(maxOrigins, span+1))
	for i := range maxOrigins {
		// Round the absolute position first + i*span/den (not the offset),
		// so ties go to the even absolute origin as in NumPy.
		o := roundDivHalfEven(first*den+i*span, den)
		// Values are nondecreasing in i, so duplicates are adjacent.
		if len(out) == 0 || out[len(out)-1] != o {
			out = append(out, o)
		}
	}
	return out, nil
}

// roundDivHalfEven returns num/den rounded to the nearest integer, ties to
// even, for num >= 0 and den > 0.
func roundDivHalfEven(num, den int) int {
	q, r := num/den, num%den
	switch {
	case 2*r > den:
		q++
	case 2*r == den && q%2 == 1:
		q++
	}
	return q
}

package eval

import (
	"errors"
	"fmt"
	"math"
)

// TargetNormFloor is the denominator floor of eq. (8): each step's error is
// divided by max(||x*||_2, TargetNormFloor), so a (near-)zero target state
// does not produce a division by zero. Below the floor the step error is an
// absolute error scaled by 1e8.
const TargetNormFloor = 1e-8

// HEval returns the evaluation horizon H_eval = ceil(1.5 K) used for a model
// trained with horizon K (Section "Evaluation and model selection"): every
// origin is rolled out half again as far as the training window, e.g.
// K = 32 gives 48. Computed in integers (ceil(3K/2) = (3K+1)/2), so there is
// no floating-point rounding. K < 1 is not a valid training horizon and
// returns 0, which Evaluate and RelL2 reject.
func HEval(K int) int {
	if K < 1 {
		return 0
	}
	return (3*K + 1) / 2
}

// Result is the dense multi-start relative L2 of eq. (8) together with the
// intermediate averages it is built from.
//
// Averaging order (eq. (8) and Appendix "How Forecasting Error Is
// Evaluated"): step errors are averaged over origins within a unit, and
// units are then weighted equally, however many origins each contributed.
// Because every origin is rolled out through the same H, the mean over h
// commutes with the other two means, so RelL2 equals the mean of PerHorizon
// and also the mean of PerUnit.
type Result struct {
	// RelL2 is eq. (8): mean over units of mean over origins of mean over
	// h = 1..H of ||pred-target||_2 / max(||target||_2, 1e-8).
	RelL2 float64
	// PerHorizon[h-1] is the same average without the mean over h: the error
	// curve as a function of forecast step h = 1..H.
	PerHorizon []float64
	// PerUnit[u] is unit u's score (mean over its origins and over h). For
	// example, iEEG seed-level errors first average participants equally
	// (Appendix "Matched-seed uncertainty"); per-unit scores make such
	// re-weightings possible without re-running the rollouts.
	PerUnit []float64
	// NumOrigins[u] is |O_u|, the number of origins averaged in unit u.
	NumOrigins []int
	// Origins[u] lists unit u's absolute origins (see Origins). Filled by
	// Evaluate; nil from RelL2, whose inputs carry no absolute times.
	Origins [][]int
}

// RelL2 computes eq. (8) from precomputed predictions and targets laid out as
// [unit][origin][h][d]: pred[u][i][h-1] is the forecast of step h from the
// i-th origin of unit u and target[u][i][h-1] its ground truth. Units may
// have different numbers of origins and different state dimensions d, but
// every origin must cover the same number of steps H >= 1 and each
// prediction row must have the length of its target row.
//
// Non-finite values are errors, not scores: a NaN or Inf in a prediction (a
// diverged rollout) or a target reports the unit, the origin index and the
// 1-based step h. Evaluate is the streaming alternative that never
// materialises these arrays.
func RelL2(pred, target [][][][]float64) (Result, error) {
	if len(pred) != len(target) {
		return Result{}, fmt.Errorf("eval.RelL2: %d prediction units but %d target units", len(pred), len(target))
	}
	if len(pred) == 0 {
		return Result{}, errors.New("eval.RelL2: no units")
	}
	if len(pred[0]) == 0 {
		return Result{}, errors.New("eval.RelL2: unit 0 has no origins")
	}
	H := len(pred[0][0])
	if H < 1 {
		return Result{}, errors.New("eval.RelL2: unit 0, origin 0 has no forecast steps (H=0)")
	}
	acc := newAccumulator(H, len(pred))
	errs := make([]float64, H)
	for u := range pred {
		if len(pred[u]) != len(target[u]) {
			return Result{}, fmt.Errorf("eval.RelL2: unit %d: %d prediction origins but %d target origins",
				u, len(pred[u]), len(target[u]))
		}
		for i := range pred[u] {
			p, t := pred[u][i], target[u][i]
			if len(p) != H || len(t) != H {
				return Result{}, fmt.Errorf("eval.RelL2: unit %d, origin %d: prediction has %d steps and target %d, want H=%d",
					u, i, len(p), len(t), H)
			}
			for h := range H {
				e, err := stepRelErr(p[h], t[h])
				if err != nil {
					return Result{}, fmt.Errorf("eval.RelL2: unit %d, origin %d, step h=%d: %w", u, i, h+1, err)
				}
				errs[h] = e
			}
			acc.addOrigin(errs)
		}
		if err := acc.endUnit(); err != nil {
			return Result{}, fmt.Errorf("eval.RelL2: unit %d: %w", u, err)
		}
	}
	return acc.result(), nil
}

// NonFinitePredictionError is returned (wrapped) when a forecast holds a NaN or an infinity: what
// a diverged model produces, which a trainer reports as a divergence.
type NonFinitePredictionError struct {
	Value      float64
	Coordinate int
}

func (e *NonFinitePredictionError) Error() string {
	return fmt.Sprintf("non-finite prediction %v at coordinate %d", e.Value, e.Coordinate)
}

// stepRelErr is the summand of eq. (8) for one step:
// ||pred-target||_2 / max(||target||_2, TargetNormFloor).
func stepRelErr(pred, target []float64) (float64, error) {
	if len(pred) != len(target) {
		return 0, fmt.Errorf("prediction has dimension %d, target %d", len(pred), len(target))
	}
	if len(target) == 0 {
		return 0, errors.New("empty state vector")
	}
	var sd, st float64
	for j, p := range pred {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return 0, &NonFinitePredictionError{Value: p, Coordinate: j}
		}
		t := target[j]
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return 0, fmt.Errorf("non-finite target %v at coordinate %d", t, j)
		}
		sd += (p - t) * (p - t)
		st += t * t
	}
	if math.IsInf(sd, 0) || math.IsInf(st, 0) {
		// Finite but huge values: recompute with scaling to avoid overflow.
		return scaledNormRatio(pred, target), nil
	}
	return math.Sqrt(sd) / math.Max(math.Sqrt(st), TargetNormFloor), nil
}

// scaledNormRatio recomputes stepRelErr's ratio with the inputs scaled by
// their largest magnitude, so squares do not overflow. The differences
// p-t are themselves scaled (p/m - t/m), so they stay finite too.
func scaledNormRatio(pred, target []float64) float64 {
	m := 0.0
	for j := range pred {
		m = math.Max(m, math.Max(math.Abs(pred[j]), math.Abs(target[j])))
	}
	var sd, st float64
	for j := range pred {
		d := pred[j]/m - target[j]/m
		t := target[j] / m
		sd += d * d
		st += t * t
	}
	return math.Sqrt(sd) * m / math.Max(math.Sqrt(st)*m, TargetNormFloor)
}

// accumulator streams eq. (8): origins are folded into the current unit's
// per-step sums, and a finished unit contributes its per-step means with
// equal weight. Memory is O(H) regardless of the number of origins.
type accumulator struct {
	H          int
	unitSum    []float64 // current unit: per-step sums over its origins
	unitN      int       // current unit: origins so far
	perHorizon []float64 // sum over finished units of per-unit per-step means
	perUnit    []float64
	numOrigins []int
}

func newAccumulator(H, numUnitsHint int) *accumulator {
	return &accumulator{
		H:          H,
		unitSum:    make([]float64, H),
		perHorizon: make([]float64, H),
		perUnit:    make([]float64, 0, numUnitsHint),
		numOrigins: make([]int, 0, numUnitsHint),
	}
}

// addOrigin adds one origin's step errors (len H) to the current unit.
func (a *accumulator) addOrigin(stepErrs []float64) {
	for h, e := range stepErrs {
		a.unitSum[h] += e
	}
	a.unitN++
}

// endUnit closes the current unit; a unit without origins is an error
// because its mean over origins in eq. (8) is undefined.
func (a *accumulator) endUnit() error {
	if a.unitN == 0 {
		return errors.New("no origins")
	}
	score := 0.0
	for h := range a.unitSum {
		m := a.unitSum[h] / float64(a.unitN)
		a.perHorizon[h] += m
		score += m
		a.unitSum[h] = 0
	}
	a.perUnit = append(a.perUnit, score/float64(a.H))
	a.numOrigins = append(a.numOrigins, a.unitN)
	a.unitN = 0
	return nil
}

// result finalises the averages over units.
func (a *accumulator) result() Result {
	nu := float64(len(a.perUnit))
	r := Result{
		PerHorizon: make([]float64, a.H),
		PerUnit:    a.perUnit,
		NumOrigins: a.numOrigins,
	}
	for h, s := range a.perHorizon {
		r.PerHorizon[h] = s / nu
	}
	for _, s := range a.perUnit {
		r.RelL2 += s
	}
	r.RelL2 /= nu
	return r
}

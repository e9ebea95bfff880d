package eval

import (
	"errors"
	"fmt"
)

// Evaluate runs the paper's forecasting-evaluation protocol (Section
// "Evaluation and model selection" and Appendix "How Forecasting Error Is
// Evaluated") and returns eq. (8):
//
//  1. for each unit, Origins(len(X), history, H, maxOrigins) selects at most
//     maxOrigins (the paper uses MaxOrigins = 64) deterministic, evenly
//     spaced, deduplicated origins;
//  2. from each origin the forecaster rolls out H steps (the paper uses
//     H = HEval(K) = ceil(1.5 K) for training horizon K) once, without
//     resets, from the history window;
//  3. step errors ||x̂-x*||_2 / max(||x*||_2, 1e-8) are averaged over h and
//     over the unit's origins, and units are weighted equally.
//
// If f also implements BatchForecaster, ForecastBatch is called with the
// windows of one unit at a time or, if f implements BatchSizer, with calls of
// MaxBatch() windows packed across consecutive units (the last call may be
// shorter); otherwise Forecast is called once per origin. Forecasts are scored
// in unit and origin order whatever the calls, so the result does not depend
// on MaxBatch. Each forecast is scored as soon as it is returned and then
// dropped, so memory is bounded by one call's output, whatever the number of
// units.
//
// Errors name the unit index, the absolute origin and, for numerical
// failures, the 1-based step h: NaN or Inf predictions, a forecast of the
// wrong length or dimension, a forecaster error (wrapped, so errors.Is
// works), a unit too short for history+H, or a Drive whose length differs
// from X.
func Evaluate(f Forecaster, units []Unit, history, H, maxOrigins int) (Result, error) {
	if f == nil {
		return Result{}, errors.New("eval.Evaluate: nil Forecaster")
	}
	if bf, ok := f.(BatchForecaster); ok {
		return evaluate(nil, bf, units, history, H, maxOrigins)
	}
	return evaluate(f, nil, units, history, H, maxOrigins)
}

// EvaluateBatch is Evaluate for models that implement only BatchForecaster.
func EvaluateBatch(f BatchForecaster, units []Unit, history, H, maxOrigins int) (Result, error) {
	if f == nil {
		return Result{}, errors.New("eval.EvaluateBatch: nil BatchForecaster")
	}
	return evaluate(nil, f, units, history, H, maxOrigins)
}

// evaluate implements Evaluate with exactly one of f, bf non-nil.
func evaluate(f Forecaster, bf BatchForecaster, units []Unit, history, H, maxOrigins int) (Result, error) {
	if len(units) == 0 {
		return Result{}, errors.New("eval.Evaluate: no units")
	}
	if H < 1 {
		return Result{}, fmt.Errorf("eval.Evaluate: H=%d must be >= 1", H)
	}
	acc := newAccumulator(H, len(units))
	allOrigins := make([][]int, len(units))
	errs := make([]float64, H)

	// score adds one origin's forecast to the current unit.
	score := func(u, o int, pred [][]float64, X [][]float64) error {
		if len(pred) != H {
			return fmt.Errorf("eval.Evaluate: unit %d, origin %d: forecast has %d steps, want H=%d", u, o, len(pred), H)
		}
		for h := range H {
			e, err := stepRelErr(pred[h], X[o+h])
			if err != nil {
				return fmt.Errorf("eval.Evaluate: unit %d, origin %d, step h=%d: %w", u, o, h+1, err)
			}
			errs[h] = e
		}
		acc.addOrigin(errs)
		return nil
	}

	chunk := 0 // 0: whole unit per ForecastBatch call
	if bs, ok := bf.(BatchSizer); ok && bs.MaxBatch() > 0 {
		chunk = bs.MaxBatch()
	}
	// With a bound, windows of consecutive units share calls (packed): every call but the last
	// is full. A forecaster that pads each call to its bound (train.Predictor compiles one graph
	// per size) would otherwise compute MaxBatch windows for a unit of fewer origins.
	var pk *packer
	if bf != nil && chunk > 0 {
		pk = &packer{bf: bf, H: H, size: chunk, units: units, score: score, acc: acc}
	}

	for u, unit := range units {
		if unit.Drive != nil && len(unit.Drive) != len(unit.X) {
			return Result{}, fmt.Errorf("eval.Evaluate: unit %d: Drive has %d steps but X has %d",
				u, len(unit.Drive), len(unit.X))
		}
		origins, err := Origins(len(unit.X), history, H, maxOrigins)
		if err != nil {
			return Result{}, fmt.Errorf("eval.Evaluate: unit %d: %w", u, err)
		}
		allOrigins[u] = origins
		ws := make([]Window, len(origins))
		for i, o := range origins {
			ws[i] = Window{History: unit.X[o-history : o]}
			if unit.Drive != nil {
				ws[i].HistoryDrive = unit.Drive[o-history : o]
				ws[i].FutureDrive = unit.Drive[o : o+H]
			}
		}

		switch {
		case pk != nil:
			for i, o := range origins {
				if err := pk.add(ws[i], u, o, i == len(origins)-1); err != nil {
					return Result{}, err
				}
			}
			continue // the packer closes the unit once its last origin is scored
		case bf == nil:
			for i, o := range origins {
				pred, err := f.Forecast(ws[i], H)
				if err != nil {
					return Result{}, fmt.Errorf("eval.Evaluate: unit %d, origin %d: forecaster: %w", u, o, err)
				}
				if err := score(u, o, pred, unit.X); err != nil {
					return Result{}, err
				}
			}
		default:
			preds, err := bf.ForecastBatch(ws, H)
			if err != nil {
				return Result{}, fmt.Errorf("eval.Evaluate: unit %d, origins %v: forecaster: %w", u, origins, err)
			}
			if len(preds) != len(ws) {
				return Result{}, fmt.Errorf("eval.Evaluate: unit %d: forecaster returned %d forecasts for %d origins",
					u, len(preds), len(ws))
			}
			for i, pred := range preds {
				if err := score(u, origins[i], pred, unit.X); err != nil {
					return Result{}, err
				}
			}
		}
		if err := acc.endUnit(); err != nil { // unreachable: Origins returns >= 1 origin
			return Result{}, fmt.Errorf("eval.Evaluate: unit %d: %w", u, err)
		}
	}
	if pk != nil {
		if err := pk.flush(); err != nil {
			return Result{}, err
		}
	}
	r := acc.result()
	r.Origins = allOrigins
	return r, nil
}

package baseline

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// DefaultWindows are the candidate lag orders W of the ridge baseline;
// those longer than the history window are dropped, since a forecaster
// sees only History states.
var DefaultWindows = []int{1, 2, 4, 8, 16, 32}

// DefaultLambdas is the candidate ridge grid, 1e-8 .. 10 by decades (on the
// mean-squared-error scale of RidgeSpec.Lambda).
func DefaultLambdas() []float64 {
	out := make([]float64, 0, 10)
	for e := -8; e <= 1; e++ {
		out = append(out, math.Pow(10, float64(e)))
	}
	return out
}

// Grid is the ridge hyper-parameter search. The zero value means
// DefaultWindows × DefaultLambdas() with drive features when the units have
// a drive.
type Grid struct {
	Windows []int
	Lambdas []float64
	NoDrive bool
}

func (g Grid) withDefaults() Grid {
	if len(g.Windows) == 0 {
		g.Windows = DefaultWindows
	}
	if len(g.Lambdas) == 0 {
		g.Lambdas = DefaultLambdas()
	}
	return g
}

// Candidate is one evaluated grid point.
type Candidate struct {
	W      int
	Lambda float64
	// ValRelL2 is eq. (8) on the validation units; +Inf when the fit was
	// singular or the rollout diverged (Reason says which).
	ValRelL2 float64
	Reason   string
}

// Selection is the outcome of SelectRidge.
type Selection struct {
	Model *Ridge      // the model of the best grid point, fitted on train
	Val   eval.Result // its validation eq. (8) result
	// Candidates lists every grid point in the order tried: W ascending,
	// λ descending.
	Candidates []Candidate
}

// SelectRidge fits a Ridge on the training units for every (W, λ) of the
// grid (W <= history) and keeps the one with the lowest eq. (8) rel-L2 on
// the validation units, evaluated with eval.Evaluate(model, val, history, H,
// maxOrigins): the criterion the method comparison reports, applied to
// held-out units, so neither W nor λ is tuned on test. Grid points are tried
// with W ascending and λ descending and a later one must be strictly better,
// so ties go to the shorter, more regularised model. A singular fit or a
// diverged rollout disqualifies its grid point (recorded in Candidates);
// any other error is returned.
func SelectRidge(train, val []eval.Unit, history, H, maxOrigins int, g Grid) (Selection, error) {
	if H < 1 {
		return Selection{}, fmt.Errorf("baseline: SelectRidge: H=%d must be >= 1", H)
	}
	if history < 1 {
		return Selection{}, fmt.Errorf("baseline: SelectRidge: history=%d must be >= 1", history)
	}
	if len(train) == 0 {
		return Selection{}, errors.New("baseline: SelectRidge: no training units")
	}
	if len(val) == 0 {
		return Selection{}, errors.New("baseline: SelectRidge: no validation units")
	}
	g = g.withDefaults()
	var ws []int
	for _, w := range g.Windows {
		if w < 1 {
			return Selection{}, fmt.Errorf("baseline: SelectRidge: candidate W=%d must be >= 1", w)
		}
		if w <= history && !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return Selection{}, fmt.Errorf("baseline: SelectRidge: no candidate window in %v fits history=%d", g.Windows, history)
	}
	slices.Sort(ws)
	for _, lam := range g.Lambdas {
		if !(lam >= 0) || math.IsInf(lam, 0) {
			return Selection{}, fmt.Errorf("baseline: SelectRidge: candidate lambda=%v must be finite and >= 0", lam)
		}
	}
	lambdas := slices.Clone(g.Lambdas)
	slices.SortFunc(lambdas, func(a, b float64) int { return -cmpFloat(a, b) })

	var sel Selection
	best := math.Inf(1)
	for _, W := range ws {
		sys, err := newRidgeSystem(train, W, !g.NoDrive)
		if err != nil {
			return Selection{}, err
		}
		for _, lam := range lambdas {
			c := Candidate{W: W, Lambda: lam, ValRelL2: math.Inf(1)}
			m, err := sys.solve(lam)
			if err != nil { // singular normal equations
				c.Reason = err.Error()
				sel.Candidates = append(sel.Candidates, c)
				continue
			}
			res, err := eval.Evaluate(m, val, history, H, maxOrigins)
			switch {
			case errors.Is(err, ErrDiverged):
				c.Reason = err.Error()
			case err != nil:
				return Selection{}, fmt.Errorf("baseline: SelectRidge: validation of W=%d, lambda=%g: %w", W, lam, err)
			default:
				c.ValRelL2 = res.RelL2
				if res.RelL2 < best {
					best, sel.Model, sel.Val = res.RelL2, m, res
				}
			}
			sel.Candidates = append(sel.Candidates, c)
		}
	}
	if sel.Model == nil {
		return sel, fmt.Errorf("baseline: SelectRidge: every grid point failed (first: W=%d, lambda=%g: %s)",
			sel.Candidates[0].W, sel.Candidates[0].Lambda, sel.Candidates[0].Reason)
	}
	return sel, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

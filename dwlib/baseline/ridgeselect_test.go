package baseline

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Hand-made cases whose exact linear recurrence needs a known number of
// lags: validation must pick that W.
//
//   - A sinusoid satisfies an AR(2) but no AR(1): W = 2.
//   - The period-4 pattern 3, 1, 2, 5 has all four Fourier modes; with the
//     intercept absorbing the mean it satisfies x_{t+1} = -x_t - x_{t-1} -
//     x_{t-2} + 11 and no shorter recurrence, so among {1, 2, 4} only W = 4
//     is exact.
//   - With history 2 the same sinusoid grid may not use W > 2 even though
//     it lists 4 and 8.
//   - Training on the noiseless relaxation x_{t+1} = .9 x_t + 1 (to 10)
//     makes the lags collinear: W = 1 recovers (.9, 1), but W = 2 gets the
//     ridge's minimum-norm split of the weight over x_t and x_{t-1}, equally
//     exact on training. Validating on a noisy AR(1) around 10 with the same
//     coefficient, where x_{t-1} carries no information beyond x_t, the split
//     model extrapolates wrongly: only W = 1 is right, more lags must lose.
func TestSelectRidgePicksRequiredW(t *testing.T) {
	pattern := []float64{3, 1, 2, 5}
	noisy := drivenAR1(.9, 400, 11)
	noisy.Drive = nil // the innovations are unobserved
	for _, row := range noisy.X {
		row[0] += 10
	}
	relax := func(x0 float64) [][]float64 {
		xs := []float64{x0}
		for len(xs) < 100 {
			xs = append(xs, .9*xs[len(xs)-1]+1)
		}
		return scalar(xs...)
	}
	tests := []struct {
		name       string
		train, val []eval.Unit
		history    int
		windows    []int
		lambdas    []float64
		wantW      int
		wantTried  int
		maxVal     float64
	}{
		{
			name:  "sinusoid needs 2",
			train: units(sinusoid(0, 1, .5, 0, 200)), val: units(sinusoid(0, 2, .5, 1, 150)),
			history: 16, windows: []int{1, 2}, wantW: 2, wantTried: 2,
		},
		{
			name:  "period 4 needs 4",
			train: units(periodic(pattern, 0, 100), periodic(pattern, 1, 90)), val: units(periodic(pattern, 2, 120)),
			history: 16, windows: []int{4, 1, 2}, wantW: 4, wantTried: 3,
		},
		{
			name:  "history caps W",
			train: units(sinusoid(0, 1, .5, 0, 200)), val: units(sinusoid(0, 2, .5, 1, 150)),
			history: 2, windows: []int{1, 2, 4, 8}, wantW: 2, wantTried: 2,
		},
		{
			name:  "uninformative lags lose",
			train: units(relax(0), relax(20)), val: []eval.Unit{noisy},
			history: 16, windows: []int{1, 2, 4}, lambdas: []float64{1e-4}, wantW: 1, wantTried: 3, maxVal: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lambdas := tc.lambdas
			if lambdas == nil {
				lambdas = []float64{1e-2, 1e-6, 1e-10}
			}
			sel, err := SelectRidge(tc.train, tc.val, tc.history, 12, eval.MaxOrigins, Grid{Windows: tc.windows, Lambdas: lambdas})
			if err != nil {
				t.Fatal(err)
			}
			if sel.Model.W != tc.wantW {
				t.Errorf("W = %d, want %d (candidates %+v)", sel.Model.W, tc.wantW, sel.Candidates)
			}
			if maxVal := max(tc.maxVal, 1e-5); sel.Val.RelL2 > maxVal {
				t.Errorf("validation rel-L2 = %g, want <= %g", sel.Val.RelL2, maxVal)
			}
			if got, want := len(sel.Candidates), tc.wantTried*len(lambdas); got != want {
				t.Fatalf("%d candidates, want %d", got, want)
			}
			for i, c := range sel.Candidates {
				if c.W > tc.history {
					t.Errorf("candidate %d has W=%d > history %d", i, c.W, tc.history)
				}
				if i > 0 { // W ascending, λ descending
					p := sel.Candidates[i-1]
					if c.W < p.W || (c.W == p.W && c.Lambda >= p.Lambda) {
						t.Errorf("candidate %d (W=%d, lambda=%g) out of order after (W=%d, lambda=%g)", i, c.W, c.Lambda, p.W, p.Lambda)
					}
				}
				if c.W != tc.wantW && !(c.ValRelL2 > sel.Val.RelL2+1e-3) {
					t.Errorf("W=%d, lambda=%g scores %g, not clearly worse than W=%d (%g)", c.W, c.Lambda, c.ValRelL2, tc.wantW, sel.Val.RelL2)
				}
			}
		})
	}
}

// Validation, not training fit, decides λ: on the period-4 case with W=4
// the lags are collinear with the intercept, λ = 0 is singular and is
// recorded as such rather than aborting the search.
func TestSelectRidgeRecordsSingular(t *testing.T) {
	pattern := []float64{3, 1, 2, 5}
	sel, err := SelectRidge(units(periodic(pattern, 0, 100)), units(periodic(pattern, 3, 80)), 8, 6, eval.MaxOrigins,
		Grid{Windows: []int{4}, Lambdas: []float64{0, 1e-9}})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Candidates) != 2 || sel.Candidates[1].Lambda != 0 {
		t.Fatalf("candidates %+v, want lambda 1e-9 then 0", sel.Candidates)
	}
	c := sel.Candidates[1]
	if !math.IsInf(c.ValRelL2, 1) || c.Reason == "" {
		t.Errorf("lambda=0 candidate %+v, want +Inf with a reason", c)
	}
	if sel.Model.Lambda != 1e-9 {
		t.Errorf("selected lambda %g, want 1e-9", sel.Model.Lambda)
	}
}

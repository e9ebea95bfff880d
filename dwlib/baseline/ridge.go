package baseline

import (
	"errors"
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/eval"
	"gonum.org/v1/gonum/mat"
)

// ErrDiverged is wrapped by Ridge.Forecast when the closed-loop rollout
// leaves the finite numbers; eval.Evaluate keeps the wrap, so a caller can
// tell a diverged candidate (errors.Is) from a malformed input.
var ErrDiverged = errors.New("baseline: ridge rollout diverged")

// Ridge is a linear autoregression of order W with optional drive
// features and an intercept:
//
//	x_{t+1} = A_1 x_t + ... + A_W x_{t-W+1} + B u_t + c,
//
// for D-dimensional states (each A_k is D×D, so every channel is predicted
// from the W·D lagged values of all channels) and a J-dimensional observed
// drive u_t (J = 0: no drive term). It is fitted by [FitRidge] and forecasts
// closed loop: each predicted state is fed back as the newest lag, with no
// ground truth after the origin, as the trained models are rolled out.
type Ridge struct {
	// W is the number of lagged states; Lambda the ridge strength it was
	// fitted with (see FitRidge).
	W      int
	Lambda float64
	// D is the state dimension and J the drive dimension (0 when fitted
	// without drive features).
	D, J int

	// coef is the F×D coefficient matrix, row-major, F = W·D + J + 1; see
	// Coef for the row layout.
	coef []float64
}

var (
	_ eval.Forecaster      = (*Ridge)(nil)
	_ eval.BatchForecaster = (*Ridge)(nil)
)

// Features is F = W·D + J + 1, the length of the regressor vector.
func (r *Ridge) Features() int { return r.W*r.D + r.J + 1 }

// Coef returns a copy of the F×D coefficient matrix. Row k·D+i (k = 0..W-1)
// multiplies coordinate i of x_{t-k}; rows W·D .. W·D+J-1 multiply the drive
// u_t; the last row is the intercept c. Column j predicts coordinate j of
// x_{t+1}.
func (r *Ridge) Coef() *mat.Dense {
	return mat.NewDense(r.Features(), r.D, append([]float64(nil), r.coef...))
}

// Forecast implements eval.Forecaster. The window must hold at least W
// history rows of dimension D and, when J > 0, the history drive (its last
// row is u_{o-1}, which drives the forecast of X[o]) and at least H-1 rows
// of future drive (FutureDrive[k-1] drives the forecast of X[o+k]).
func (r *Ridge) Forecast(w eval.Window, H int) ([][]float64, error) {
	if H < 1 {
		return nil, fmt.Errorf("baseline: Ridge: H=%d must be >= 1", H)
	}
	W, D, J, F := r.W, r.D, r.J, r.Features()
	if len(r.coef) != F*D {
		return nil, errors.New("baseline: Ridge: not fitted (use FitRidge)")
	}
	if len(w.History) < W {
		return nil, fmt.Errorf("baseline: Ridge: %d history rows, the model reads W=%d", len(w.History), W)
	}
	if J > 0 {
		if len(w.HistoryDrive) == 0 || len(w.FutureDrive) < H-1 {
			return nil, fmt.Errorf("baseline: Ridge: the model uses a %d-dimensional drive; window has %d history and %d future drive rows, want >= 1 and >= H-1=%d",
				J, len(w.HistoryDrive), len(w.FutureDrive), H-1)
		}
	}
	z := make([]float64, F)
	z[F-1] = 1
	for k := range W {
		row := w.History[len(w.History)-1-k]
		if len(row) != D {
			return nil, fmt.Errorf("baseline: Ridge: history row has dimension %d, the model forecasts D=%d", len(row), D)
		}
		copy(z[k*D:], row)
	}
	flat := make([]float64, H*D)
	out := make([][]float64, H)
	for k := range H {
		if J > 0 {
			u := w.HistoryDrive[len(w.HistoryDrive)-1]
			if k > 0 {
				u = w.FutureDrive[k-1]
			}
			if len(u) != J {
				return nil, fmt.Errorf("baseline: Ridge: drive row has dimension %d, the model uses J=%d", len(u), J)
			}
			copy(z[W*D:], u)
		}
		next := flat[k*D : (k+1)*D : (k+1)*D]
		for f, zf := range z {
			if zf == 0 {
				continue
			}
			a := r.coef[f*D : (f+1)*D]
			for j := range next {
				next[j] += zf * a[j]
			}
		}
		for j, v := range next {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: step h=%d coordinate %d is %v (W=%d, lambda=%g)", ErrDiverged, k+1, j, v, W, r.Lambda)
			}
		}
		out[k] = next
		// Shift the lags: the prediction becomes x_t of the next step.
		copy(z[D:W*D], z[:(W-1)*D])
		copy(z[:D], next)
	}
	return out, nil
}

// ForecastBatch implements eval.BatchForecaster.
func (r *Ridge) ForecastBatch(ws []eval.Window, H int) ([][][]float64, error) {
	return forecastEach(r, ws, H)
}

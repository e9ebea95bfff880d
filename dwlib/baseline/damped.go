package baseline

import (
	"errors"
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Damped is damped persistence: from the last observed state x_o (the last
// history row) it forecasts step h as φ^h x_o, decaying geometrically to the
// training mean (0 in standardised units). φ = 1 is plain persistence and
// φ = 0 the Zero forecast, so with φ fitted it is at least as good as both on
// the training criterion. One φ is shared by all state coordinates.
type Damped struct {
	Phi float64
}

var (
	_ eval.Forecaster      = Damped{}
	_ eval.BatchForecaster = Damped{}
)

// Forecast implements eval.Forecaster.
func (d Damped) Forecast(w eval.Window, H int) ([][]float64, error) {
	if H < 1 {
		return nil, fmt.Errorf("baseline: Damped: H=%d must be >= 1", H)
	}
	if math.IsNaN(d.Phi) || math.IsInf(d.Phi, 0) {
		return nil, fmt.Errorf("baseline: Damped: phi=%v is not finite", d.Phi)
	}
	if len(w.History) == 0 {
		return nil, errors.New("baseline: Damped: empty history")
	}
	last := w.History[len(w.History)-1]
	D := len(last)
	flat := make([]float64, H*D)
	out := make([][]float64, H)
	g := 1.0
	for h := range out {
		g *= d.Phi
		row := flat[h*D : (h+1)*D : (h+1)*D]
		for j, v := range last {
			row[j] = g * v
		}
		out[h] = row
	}
	return out, nil
}

// ForecastBatch implements eval.BatchForecaster.
func (d Damped) ForecastBatch(ws []eval.Window, H int) ([][][]float64, error) {
	return forecastEach(d, ws, H)
}

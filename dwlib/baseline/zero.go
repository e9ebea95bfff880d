package baseline

import (
	"errors"
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Zero forecasts the training mean, which is 0 in the standardised
// coordinates of a data.Dataset, at every step. Under eq. (8) every step
// error is ||0 - x*|| / ||x*|| = 1 (unless the target norm is below
// eval.TargetNormFloor), so its rel-L2 is 1 up to such near-zero targets: the
// level a forecaster must beat to show any skill.
type Zero struct{}

var (
	_ eval.Forecaster      = Zero{}
	_ eval.BatchForecaster = Zero{}
)

// Forecast implements eval.Forecaster: H zero rows of the history's state
// dimension.
func (Zero) Forecast(w eval.Window, H int) ([][]float64, error) {
	if H < 1 {
		return nil, fmt.Errorf("baseline: Zero: H=%d must be >= 1", H)
	}
	if len(w.History) == 0 {
		return nil, errors.New("baseline: Zero: empty history (the state dimension is unknown)")
	}
	D := len(w.History[len(w.History)-1])
	flat := make([]float64, H*D)
	out := make([][]float64, H)
	for h := range out {
		out[h] = flat[h*D : (h+1)*D : (h+1)*D]
	}
	return out, nil
}

// ForecastBatch implements eval.BatchForecaster.
func (z Zero) ForecastBatch(ws []eval.Window, H int) ([][][]float64, error) {
	return forecastEach(z, ws, H)
}

// forecastEach is the BatchForecaster of a model whose rollouts are cheap
// enough to run one window at a time.
func forecastEach(f eval.Forecaster, ws []eval.Window, H int) ([][][]float64, error) {
	out := make([][][]float64, len(ws))
	for i, w := range ws {
		p, err := f.Forecast(w, H)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

package experiment

import (
	"fmt"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// FieldForecast is one test window of a field run: the unit and origin, and per horizon h = 1..H
// the true state and the best checkpoint's forecast (channel-major fields, data.Field).
type FieldForecast struct {
	Unit, Origin    int
	Truth, Forecast [][]float64
}

// Residual returns forecast − truth at horizon h (1-based), the residual e the samplers model.
func (f FieldForecast) Residual(h int) []float64 {
	out := make([]float64, len(f.Truth[h-1]))
	for d := range out {
		out[d] = f.Forecast[h-1][d] - f.Truth[h-1][d]
	}
	return out
}

// FieldForecasts forecasts the test split of a finished field run (shear) from its best
// checkpoint, H steps ahead at most perUnit origins per test unit (0: the run's EvalOrigins, those
// of its test score), with the run's own evaluation geometry (the origins of eq. (8)), and returns the field layout with truth and forecast per
// window. It is what a notebook draws as truth | forecast | error.
func FieldForecasts(cfg RunConfig, opt Options, H, perUnit int) (data.Field, []FieldForecast, error) {
	if !data.IsField(cfg.Testbed) {
		return data.Field{}, nil, fmt.Errorf("experiment: FieldForecasts: %s is not a field testbed", cfg.Testbed)
	}
	ds, m, err := LoadBestModel(cfg, opt)
	if err != nil {
		return data.Field{}, nil, err
	}
	f, _ := data.FieldShape(ds)
	bk, err := opt.backend()
	if err != nil {
		return f, nil, err
	}
	p, err := train.NewPredictor(bk, m, cfg.Fit.EvalBatch)
	if err != nil {
		return f, nil, err
	}
	if perUnit <= 0 {
		perUnit = cfg.EvalOrigins
	}
	units := train.Units(ds.Test, cfg.EvalBurnIn)
	var out []FieldForecast
	var ws []eval.Window
	for u, unit := range units {
		origins, err := eval.Origins(len(unit.X), cfg.EvalWindow, H, perUnit)
		if err != nil {
			return f, nil, fmt.Errorf("experiment: FieldForecasts: test unit %d: %w", u, err)
		}
		for _, o := range origins {
			ws = append(ws, eval.Window{History: unit.X[o-cfg.EvalWindow : o]})
			out = append(out, FieldForecast{Unit: u, Origin: o, Truth: unit.X[o : o+H]})
		}
	}
	for lo := 0; lo < len(ws); lo += p.MaxBatch() { // the predictor takes at most MaxBatch windows a call
		hi := min(lo+p.MaxBatch(), len(ws))
		preds, err := p.ForecastBatch(ws[lo:hi], H)
		if err != nil {
			return f, nil, err
		}
		for i, pr := range preds {
			out[lo+i].Forecast = pr
		}
	}
	return f, out, nil
}

// FitSpectral fits the spectral prior sampler (noise.Spectral) to a set of residual trajectories,
// res [n][K][D] flat as a calibration stages them, the way training would after two calibrations
// on them: the first commit initialises the moments, the second standardises by them and sets the
// colour spectrum (a minibatch never standardises itself). It is how a notebook puts the
// sampler's draws beside the residuals they imitate.
func FitSpectral(f data.Field, res []float64, n, K int) (*noise.Spectral, error) {
	s, err := noise.NewSpectral(noise.SpectralConfig{Channels: f.Channels, Height: f.Height, Width: f.Width})
	if err != nil {
		return nil, err
	}
	for range 2 {
		if err := s.Stage(res, n, K, f.Dim()); err != nil {
			return nil, err
		}
		s.Commit()
	}
	return s, nil
}

// SpectralDraws returns n draws [n][K][D] flat of a fitted spectral sampler from an explicit seed.
func SpectralDraws(s *noise.Spectral, n, K, D int, seed uint64) ([]float64, error) {
	return s.Sample(rand.New(rand.NewPCG(seed, 0x5eed)), n, K, D)
}

package regime

import "math"

// WindowScore is one candidate history width's validation result: for each horizon the linear
// probe's validation MSE with drive and history relative to its MSE with drive only, and the mean
// of those ratios over all horizons (short ones included).
type WindowScore struct {
	W         int
	Ratios    []float64
	MeanRatio float64
}

// selectWindow chooses W on validation examples. Only the linear probe is used, and only its
// nested comparison (D+H against D), so the choice measures what history adds and not how well
// the drive is modelled; the nonlinear probe reuses the chosen W rather than getting its own
// (a kNN selection would be noisier and far more expensive). The smallest mean ratio wins; a
// tie goes to the smaller width.
func selectWindow(fit, val []series, oFit, oVal []Origin, c Config) (int, []WindowScore, error) {
	type split struct {
		d, y [][]float64
	}
	// The drive-only fit does not depend on W: compute it once per horizon.
	fitK := make([]split, len(c.Horizons))
	valK := make([]split, len(c.Horizons))
	driveMSE := make([]float64, len(c.Horizons))
	for i, k := range c.Horizons {
		fitK[i] = split{driveFeatures(fit, oFit, k, c.DriveShift), targets(fit, oFit, k)}
		valK[i] = split{driveFeatures(val, oVal, k, c.DriveShift), targets(val, oVal, k)}
		r, err := FitRidge(fitK[i].d, fitK[i].y, c.Ridge)
		if err != nil {
			return 0, nil, err
		}
		driveMSE[i] = pooledMSE(r.Predict(valK[i].d), valK[i].y)
	}
	best, bestRatio := 0, math.Inf(1)
	var table []WindowScore
	for _, W := range c.Windows {
		hFit := historyFeatures(scoresOf(fit), oFit, W)
		hVal := historyFeatures(scoresOf(val), oVal, W)
		ws := WindowScore{W: W}
		for i := range c.Horizons {
			r, err := FitRidge(concat(fitK[i].d, hFit), fitK[i].y, c.Ridge)
			if err != nil {
				return 0, nil, err
			}
			mse := pooledMSE(r.Predict(concat(valK[i].d, hVal)), valK[i].y)
			ws.Ratios = append(ws.Ratios, mse/math.Max(driveMSE[i], 1e-30))
		}
		ws.MeanRatio = sum(ws.Ratios) / float64(len(ws.Ratios))
		table = append(table, ws)
		if ws.MeanRatio < bestRatio {
			best, bestRatio = W, ws.MeanRatio
		}
	}
	return best, table, nil
}

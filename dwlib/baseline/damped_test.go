package baseline

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

func TestDampedForecastHandWorked(t *testing.T) {
	w := eval.Window{History: [][]float64{{100, 100}, {2, -4}}}
	got, err := Damped{Phi: .5}.Forecast(w, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, "forecast", got, [][]float64{{1, -2}, {.5, -1}, {.25, -.5}}, 0)
}

// On a noiseless AR(1) x_{t+1} = a x_t with |a| <= 1 the criterion is
// S Σ_h (φ^h - a^h)² + const, minimised exactly at φ = a.
func TestFitDampedRecoversAR1(t *testing.T) {
	tests := []struct {
		name       string
		a          float64
		units      []eval.Unit
		history, H int
	}{
		{"a=.8 scalar", .8, units(ar1(.8, []float64{1}, 80)), 16, 48},
		{"a=.8 two 3-D units", .8, units(ar1(.8, []float64{1, -2, .5}, 40), ar1(.8, []float64{-3, 0, 1}, 30)), 4, 12},
		{"a=.5", .5, units(ar1(.5, []float64{2}, 30)), 1, 5},
		{"a=-.6 (oscillating)", -.6, units(ar1(-.6, []float64{1}, 40)), 2, 8},
		{"a=1 (boundary: persistence)", 1, units(ar1(1, []float64{.7}, 30)), 3, 10},
		{"a=0 (zero forecast)", 0, units(scalar(1, 0, 0, 0, 0, 0, 0, 0)), 1, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := FitDamped(tc.units, tc.history, tc.H)
			if err != nil {
				t.Fatal(err)
			}
			checkClose(t, "phi", d.Phi, tc.a, 1e-12)
		})
	}
}

// With H = 1 the criterion is S φ² - 2 C φ, so φ = C/S. Unit [2, 1, 1],
// history 1: origins 1 and 2 have origin states 2, 1 and targets 1, 1:
// S = 4 + 1 = 5, C = 2 + 1 = 3, φ = .6.
func TestFitDampedClosedFormH1(t *testing.T) {
	d, err := FitDamped(units(scalar(2, 1, 1)), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "phi", d.Phi, .6, 1e-12)
}

// The fitted damped persistence forecasts a held-out AR(1) unit perfectly.
func TestDampedEvaluatesAR1Exactly(t *testing.T) {
	d, err := FitDamped(units(ar1(.8, []float64{1}, 100)), 16, 48)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eval.Evaluate(d, units(ar1(.8, []float64{-5}, 100)), 16, 48, eval.MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "RelL2", r.RelL2, 0, 1e-10)
}

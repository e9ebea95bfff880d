package baseline

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Under eq. (8) the zero forecast scores 1 on every step whose target is
// non-zero and 0 on an exactly-zero target (0 / max(0, 1e-8) = 0).
func TestZeroRelL2HandWorked(t *testing.T) {
	tests := []struct {
		name           string
		units          []eval.Unit
		history, H     int
		want           float64
		wantPerHorizon []float64
	}{
		{
			// Origins [1, 3]; targets (h=1, h=2): o=1 (2, 0), o=2 (0, 0),
			// o=3 (0, 3): step errors (1,0), (0,0), (0,1), mean 1/3;
			// per horizon h=1: (1+0+0)/3, h=2: (0+0+1)/3.
			name: "zeros in the targets", units: units(scalar(1, 2, 0, 0, 3)),
			history: 1, H: 2, want: 1.0 / 3, wantPerHorizon: []float64{1.0 / 3, 1.0 / 3},
		},
		{
			name: "non-zero 2-D states", units: units([][]float64{{3, 4}, {1, 1}, {-2, 0}, {0, 5}, {7, -1}}),
			history: 2, H: 2, want: 1, wantPerHorizon: []float64{1, 1},
		},
		{
			// Unit 0: origins 1, 2 with targets 0 then 4 (h=1): 0 and 1,
			// mean .5. Unit 1: every target non-zero, 1. Units count
			// equally: (.5 + 1) / 2.
			name: "units weighted equally", units: units(scalar(5, 0, 4), scalar(1, 2, 3, 4, 5, 6)),
			history: 1, H: 1, want: .75, wantPerHorizon: []float64{.75},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := eval.Evaluate(Zero{}, tc.units, tc.history, tc.H, eval.MaxOrigins)
			if err != nil {
				t.Fatal(err)
			}
			checkClose(t, "RelL2", r.RelL2, tc.want, 1e-15)
			for h, w := range tc.wantPerHorizon {
				checkClose(t, "PerHorizon", r.PerHorizon[h], w, 1e-15)
			}
		})
	}
}

func TestZeroForecastShape(t *testing.T) {
	got, err := Zero{}.Forecast(eval.Window{History: [][]float64{{9, 9, 9}, {1, 2, 3}}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, "forecast", got, [][]float64{{0, 0, 0}, {0, 0, 0}}, 0)
}

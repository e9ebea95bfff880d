package baseline

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Hand-set coefficients check the rollout: lag order, feedback and which
// drive row drives which step.
func TestRidgeForecastHandWorked(t *testing.T) {
	tests := []struct {
		name string
		r    *Ridge
		w    eval.Window
		H    int
		want [][]float64
	}{
		{
			// Fibonacci: x_{t+1} = x_t + x_{t-1}; only the last W=2 rows
			// of the history matter.
			name: "W=2 Fibonacci",
			r:    &Ridge{W: 2, D: 1, coef: []float64{1, 1, 0}},
			w:    eval.Window{History: scalar(100, 1, 1)},
			H:    4, want: scalar(2, 3, 5, 8),
		},
		{
			// x_{t+1} = .5 x_t + u_t + 1. X[o] uses the last history drive
			// (3): .5·2 + 3 + 1 = 5; X[o+1] uses FutureDrive[0] (-1):
			// 2.5 - 1 + 1 = 2.5; X[o+2] uses FutureDrive[1] (0): 2.25.
			// FutureDrive[2] is never read (it drives X[o+3]).
			name: "W=1 with drive",
			r:    &Ridge{W: 1, D: 1, J: 1, coef: []float64{.5, 1, 1}},
			w:    eval.Window{History: scalar(7, 2), HistoryDrive: scalar(50, 3), FutureDrive: scalar(-1, 0, 99)},
			H:    3, want: scalar(5, 2.5, 2.25),
		},
		{
			// D=2 with cross-channel coupling: next = (x1 + x0·0, 2 x0 + 1).
			// Coef rows: x0, x1, intercept; columns: next0, next1.
			name: "W=1 D=2 coupled",
			r:    &Ridge{W: 1, D: 2, coef: []float64{0, 2, 1, 0, 0, 1}},
			w:    eval.Window{History: [][]float64{{1, 3}}},
			H:    3, want: [][]float64{{3, 3}, {3, 7}, {7, 7}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.r.Forecast(tc.w, tc.H)
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, "forecast", got, tc.want, 0)
		})
	}
}

// With λ -> 0 the ridge recovers the exact coefficients of a noiseless
// AR(2) (a sinusoid with an offset) and forecasts held-out units perfectly.
func TestFitRidgeRecoversAR2(t *testing.T) {
	for _, lam := range []float64{0, 1e-12} {
		const omega, m = .3, 1.5
		train := units(sinusoid(m, 2, omega, 0, 200), sinusoid(m, 1, omega, 1, 150))
		r, err := FitRidge(train, RidgeSpec{W: 2, Lambda: lam})
		if err != nil {
			t.Fatal(err)
		}
		c := r.Coef()
		want := []float64{2 * math.Cos(omega), -1, 2 * m * (1 - math.Cos(omega))}
		for i, w := range want {
			checkClose(t, "coef", c.At(i, 0), w, 1e-8)
		}
		res, err := eval.Evaluate(r, units(sinusoid(m, 3, omega, 2, 120)), 16, 48, eval.MaxOrigins)
		if err != nil {
			t.Fatal(err)
		}
		if res.RelL2 > 1e-8 {
			t.Errorf("lambda=%g: held-out rel-L2 = %g, want ~0", lam, res.RelL2)
		}
	}
}

// A 2-D rotation needs both channels to predict each one: the fitted map is
// the rotation (coefficient column j predicts channel j, so Coef = Rᵀ).
func TestFitRidgeMultiDimensional(t *testing.T) {
	th := .4
	R := [2][2]float64{{math.Cos(th), -math.Sin(th)}, {math.Sin(th), math.Cos(th)}}
	rot := func(x0 []float64, n int) [][]float64 {
		out := [][]float64{x0}
		for len(out) < n {
			p := out[len(out)-1]
			out = append(out, []float64{R[0][0]*p[0] + R[0][1]*p[1], R[1][0]*p[0] + R[1][1]*p[1]})
		}
		return out
	}
	r, err := FitRidge(units(rot([]float64{1, 0}, 100)), RidgeSpec{W: 1, Lambda: 0})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Coef()
	for i := range 2 {
		for j := range 2 {
			checkClose(t, "coef", c.At(i, j), R[j][i], 1e-9)
		}
	}
	res, err := eval.Evaluate(r, units(rot([]float64{-2, 3}, 100)), 4, 48, eval.MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	if res.RelL2 > 1e-8 {
		t.Errorf("held-out rel-L2 = %g, want ~0", res.RelL2)
	}
}

// x_{t+1} = .5 x_t + u_t is forecast exactly from the observed drive and
// not at all well without it (the innovations are the whole signal).
func TestFitRidgeUsesDrive(t *testing.T) {
	train := []eval.Unit{drivenAR1(.5, 300, 1), drivenAR1(.5, 300, 2)}
	test := []eval.Unit{drivenAR1(.5, 200, 3)}
	tests := []struct {
		name     string
		noDrive  bool
		wantJ    int
		min, max float64
	}{
		{"with drive", false, 1, 0, 1e-9},
		{"without drive", true, 0, .5, math.Inf(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := FitRidge(train, RidgeSpec{W: 1, Lambda: 0, NoDrive: tc.noDrive})
			if err != nil {
				t.Fatal(err)
			}
			if r.J != tc.wantJ {
				t.Fatalf("J = %d, want %d", r.J, tc.wantJ)
			}
			res, err := eval.Evaluate(r, test, 8, 12, eval.MaxOrigins)
			if err != nil {
				t.Fatal(err)
			}
			if res.RelL2 < tc.min || res.RelL2 > tc.max {
				t.Errorf("rel-L2 = %g, want in [%g, %g]", res.RelL2, tc.min, tc.max)
			}
			if !tc.noDrive {
				c := r.Coef() // rows: x_t, u_t, intercept
				for i, w := range []float64{.5, 1, 0} {
					checkClose(t, "coef", c.At(i, 0), w, 1e-9)
				}
			}
		})
	}
}

// A constant series makes the lag collinear with the intercept: ordinary
// least squares (λ = 0) is refused, any λ > 0 is solvable and forecasts the
// constant (the intercept is not shrunk).
func TestFitRidgeSingular(t *testing.T) {
	train := units(scalar(1, 1, 1, 1, 1, 1))
	_, err := FitRidge(train, RidgeSpec{W: 1, Lambda: 0})
	checkErrContains(t, err, "singular", "W=1", "lambda=0")
	r, err := FitRidge(train, RidgeSpec{W: 1, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Forecast(eval.Window{History: scalar(1)}, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, "forecast", got, scalar(1, 1, 1), 1e-12)
}

// A rollout that overflows reports ErrDiverged with the step.
func TestRidgeDiverges(t *testing.T) {
	r := &Ridge{W: 1, D: 1, coef: []float64{1e200, 0}}
	_, err := r.Forecast(eval.Window{History: scalar(1)}, 3)
	checkErrContains(t, err, "diverged", "h=2")
}

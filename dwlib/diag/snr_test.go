package diag_test

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestGainsVsSNRLimits checks the two limits of the Wiener gain: fully open (1,1) as the noise
// vanishes and closed (0,0) as it dominates, for correlated and uncorrelated moments.
func TestGainsVsSNRLimits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		P, R0 wiener.Sym2
	}{
		{"correlated", wiener.Sym2{II: 1, IJ: 0.3, JJ: 0.4}, wiener.Sym2{II: 0.2, IJ: 0.05, JJ: 0.6}},
		{"negatively correlated", wiener.Sym2{II: 1, IJ: -0.6, JJ: 0.5}, wiener.Sym2{II: 0.1, IJ: 0.1, JJ: 1}},
		{"noise on one route", wiener.Sym2{II: 1, IJ: 0.2, JJ: 1}, wiener.Sym2{JJ: 1}},
	} {
		pts, err := diag.GainsVsSNR(tc.P, tc.R0, []float64{1e-9, 1, 1e9})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		lo, hi := pts[0], pts[2]
		if !close2([2]float64{lo.Alpha, lo.M}, [2]float64{1, 1}, 1e-6) {
			t.Errorf("%s: noise → 0 gives (%v, %v), want (1, 1)", tc.name, lo.Alpha, lo.M)
		}
		if tc.R0.II > 0 && !close2([2]float64{hi.Alpha, hi.M}, [2]float64{0, 0}, 1e-6) {
			t.Errorf("%s: noise → ∞ gives (%v, %v), want (0, 0)", tc.name, hi.Alpha, hi.M)
		}
		for _, p := range pts {
			if want := tc.P.Trace() / (p.Scale * tc.R0.Trace()); !close(p.SNR, want, 1e-14) {
				t.Errorf("%s: SNR at s=%v is %v, want %v", tc.name, p.Scale, p.SNR, want)
			}
			if !(p.Alpha >= 0 && p.Alpha <= 1 && p.M >= 0 && p.M <= 1) {
				t.Errorf("%s: gains (%v, %v) outside the box", tc.name, p.Alpha, p.M)
			}
		}
	}
	// Noise on the nonlinear route only: the identity route carries no innovation, so it must not
	// close as s → ∞. With T = P + diag(0, s), w_unc = (1.2(0.8+s)/(0.96+s), 1.2·0.8/(0.96+s))
	// → (1.2, 0), whose constrained counterpart is (1, 0).
	pts, _ := diag.GainsVsSNR(wiener.Sym2{II: 1, IJ: 0.2, JJ: 1}, wiener.Sym2{JJ: 1}, []float64{1e9})
	if !close2([2]float64{pts[0].Alpha, pts[0].M}, [2]float64{1, 0}, 1e-6) {
		t.Errorf("noise on the nonlinear route only, s → ∞: gains (%v, %v), want (1, 0)", pts[0].Alpha, pts[0].M)
	}
}

// TestGainsVsSNRScalar checks the uncorrelated case against the scalar Wiener gain P/(P+sR) of
// each route, at every scale.
func TestGainsVsSNRScalar(t *testing.T) {
	P, R0 := wiener.Sym2{II: 2, JJ: 0.5}, wiener.Sym2{II: 1, JJ: 3}
	scales := diag.LogSpace(1e-3, 1e3, 25)
	pts, err := diag.GainsVsSNR(P, R0, scales)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != len(scales) {
		t.Fatalf("%d points for %d scales", len(pts), len(scales))
	}
	for i, p := range pts {
		s := scales[i]
		want := [2]float64{P.II / (P.II + s*R0.II), P.JJ / (P.JJ + s*R0.JJ)}
		if p.Scale != s || !close2([2]float64{p.Alpha, p.M}, want, 1e-5) || !close2(p.Unconstrained, want, 1e-13) {
			t.Errorf("s=%v: gains (%v, %v), unconstrained %v, want %v", s, p.Alpha, p.M, p.Unconstrained, want)
		}
		if i > 0 && (p.Alpha > pts[i-1].Alpha || p.M > pts[i-1].M) {
			t.Errorf("s=%v: gains rose with noise: (%v, %v) after (%v, %v)", s, p.Alpha, p.M, pts[i-1].Alpha, pts[i-1].M)
		}
	}
}

func TestGainsVsSNRErrors(t *testing.T) {
	P := wiener.Sym2{II: 1, JJ: 1}
	for _, tc := range []struct {
		name   string
		R0     wiener.Sym2
		scales []float64
	}{
		{"zero noise shape", wiener.Sym2{}, []float64{1}},
		{"zero scale", wiener.Sym2{II: 1}, []float64{0}},
		{"negative scale", wiener.Sym2{II: 1}, []float64{-1}},
		{"infinite scale", wiener.Sym2{II: 1}, []float64{math.Inf(1)}},
		{"NaN scale", wiener.Sym2{II: 1}, []float64{math.NaN()}},
	} {
		if _, err := diag.GainsVsSNR(P, tc.R0, tc.scales); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestLogSpace(t *testing.T) {
	xs := diag.LogSpace(1e-3, 1e3, 7)
	for i, want := range []float64{1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3} {
		if math.Abs(xs[i]-want) > 1e-12*want {
			t.Errorf("LogSpace[%d] = %v, want %v", i, xs[i], want)
		}
	}
	if xs[0] != 1e-3 || xs[6] != 1e3 {
		t.Errorf("end points %v, %v not exact", xs[0], xs[6])
	}
	defer func() {
		if recover() == nil {
			t.Error("LogSpace(0, 1, 3) did not panic")
		}
	}()
	diag.LogSpace(0, 1, 3)
}

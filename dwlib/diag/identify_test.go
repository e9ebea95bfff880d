package diag_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestNoiseInHand checks each noise shape at its largest admissible size against values worked
// out by hand for T = [[2 1] [1 2]] (det 3): there T - R must be singular.
func TestNoiseInHand(t *testing.T) {
	T := wiener.Sym2{II: 2, IJ: 1, JJ: 2}
	for _, tc := range []struct {
		shape diag.NoiseShape
		f     float64
		want  wiener.Sym2
	}{
		{diag.Proportional, 0.5, wiener.Sym2{II: 1, IJ: 0.5, JJ: 1}},
		{diag.Proportional, 1, T},
		{diag.IdentityRoute, 1, wiener.Sym2{II: 1.5}},                     // det/T.JJ = 3/2
		{diag.NonlinearRoute, 1, wiener.Sym2{JJ: 1.5}},                    // det/T.II = 3/2
		{diag.NonlinearRoute, 0.4, wiener.Sym2{JJ: 0.6}},                  // 0.4·3/2
		{diag.AntiCorrelated, 1, wiener.Sym2{II: 0.5, IJ: -0.5, JJ: 0.5}}, // c = 2·3/6 = 1
		{diag.IdentityRoute, 0, wiener.Sym2{}},
	} {
		R, err := diag.NoiseIn(T, tc.shape, tc.f)
		if err != nil || !closeSym(R, tc.want, 1e-15) {
			t.Errorf("%v, f=%v: R = %+v (err %v), want %+v", tc.shape, tc.f, R, err, tc.want)
		}
		if tc.f == 1 && math.Abs(T.Sub(R).Det()) > 1e-15 {
			t.Errorf("%v at f=1: det(T-R) = %v, want 0 (the largest admissible noise)", tc.shape, T.Sub(R).Det())
		}
	}
	for _, bad := range []struct {
		T wiener.Sym2
		f float64
	}{{T, -0.1}, {T, 1.1}, {T, math.NaN()}, {wiener.Sym2{II: 1, IJ: 1, JJ: 1}, 0.5}, {wiener.Sym2{II: -1, JJ: -1}, 0.5}} {
		if _, err := diag.NoiseIn(bad.T, diag.Proportional, bad.f); err == nil {
			t.Errorf("NoiseIn(%+v, f=%v) accepted", bad.T, bad.f)
		}
	}
	if _, err := diag.NoiseIn(T, diag.NoiseShape(99), 0.5); err == nil {
		t.Error("unknown shape accepted")
	}
}

// TestNoiseInAdmissible checks 0 ⪯ R ⪯ T on random T, every shape and fraction.
func TestNoiseInAdmissible(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		T := randomPSD(rng, math.Pow(10, 4*rng.Float64()-2))
		for _, shape := range diag.NoiseShapes {
			f := rng.Float64()
			R, err := diag.NoiseIn(T, shape, f)
			if err != nil {
				t.Fatalf("case %d %v: %v", i, shape, err)
			}
			scale := T.Trace()
			if minEig(R) < -1e-12*scale || minEig(T.Sub(R)) < -1e-12*scale {
				t.Fatalf("case %d %v f=%v: R = %+v, T-R = %+v not both PSD", i, shape, f, R, T.Sub(R))
			}
		}
	}
}

// TestNonIdentifiable checks the proposition of Section 3.3: every decomposition has the same
// observed covariance T, while w_unc = T⁻¹(T-R)1 moves with R.
func TestNonIdentifiable(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	fractions := []float64{0.2, 0.5, 0.9}
	ds, err := diag.NonIdentifiable(T, fractions)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != len(diag.NoiseShapes)*len(fractions) {
		t.Fatalf("%d decompositions, want %d", len(ds), len(diag.NoiseShapes)*len(fractions))
	}
	tol := 4 * (math.Nextafter(1, 2) - 1) // a few roundings of T - R + R, relative to max(1, |T|)
	for k, d := range ds {
		if d.Shape != diag.NoiseShapes[k/len(fractions)] || d.Fraction != fractions[k%len(fractions)] {
			t.Errorf("row %d is (%v, %v), want shapes outer and fractions inner", k, d.Shape, d.Fraction)
		}
		if !closeSym(d.Law, T, tol) {
			t.Errorf("%v f=%v: observed covariance P+R = %+v, want T = %+v", d.Shape, d.Fraction, d.Law, T)
		}
		if d.P != T.Sub(d.R) {
			t.Errorf("%v f=%v: P = %+v, want T - R = %+v", d.Shape, d.Fraction, d.P, T.Sub(d.R))
		}
		// w_unc by a second route: T⁻¹P1 via Unconstrained, against NonIdentifiable's 1 - T⁻¹R1.
		if w, ok := diag.Unconstrained(d.P, d.R); !ok || !close2(d.Unconstrained, w, 1e-12) {
			t.Errorf("%v f=%v: w_unc = %v, T⁻¹P1 = %v", d.Shape, d.Fraction, d.Unconstrained, w)
		}
		if sol := wiener.SolveDetailed(T, d.R); sol.W != d.Constrained {
			t.Errorf("%v f=%v: constrained %v, solver %v", d.Shape, d.Fraction, d.Constrained, sol.W)
		}
		switch d.Shape {
		case diag.Proportional: // P = (1-f)T, so w_unc = (1-f)·1.
			if want := 1 - d.Fraction; !close2(d.Unconstrained, [2]float64{want, want}, 1e-14) {
				t.Errorf("proportional f=%v: w_unc = %v, want (%v, %v)", d.Fraction, d.Unconstrained, want, want)
			}
		case diag.AntiCorrelated: // R1 = 0, so w_unc = 1 whatever the amount of noise.
			if !close2(d.Unconstrained, [2]float64{1, 1}, 1e-14) {
				t.Errorf("anti-correlated f=%v: w_unc = %v, want (1, 1)", d.Fraction, d.Unconstrained)
			}
		}
	}
	// Same law, different gains: any two decompositions with (R_i - R_j)1 ≠ 0 differ in w_unc by
	// exactly T⁻¹(R_j - R_i)1.
	differ := 0
	for i := range ds {
		for j := range i {
			dr := ds[j].R.Sub(ds[i].R)
			v0, v1 := dr.II+dr.IJ, dr.IJ+dr.JJ
			want := [2]float64{(T.JJ*v0 - T.IJ*v1) / T.Det(), (T.II*v1 - T.IJ*v0) / T.Det()}
			got := [2]float64{ds[i].Unconstrained[0] - ds[j].Unconstrained[0], ds[i].Unconstrained[1] - ds[j].Unconstrained[1]}
			if !close2(got, want, 1e-12) {
				t.Errorf("rows %d, %d: w_i - w_j = %v, want T⁻¹(R_j-R_i)1 = %v", i, j, got, want)
			}
			if math.Hypot(v0, v1) > 1e-9 {
				if math.Hypot(got[0], got[1]) < 1e-6 {
					t.Errorf("rows %d, %d: (R_i-R_j)1 ≠ 0 but w_unc equal", i, j)
				}
				differ++
			}
		}
	}
	if differ < 50 {
		t.Errorf("only %d pairs with (R_i-R_j)1 ≠ 0: the example does not show non-identifiability", differ)
	}
	if _, err := diag.NonIdentifiable(T, []float64{1.5}); err == nil {
		t.Error("fraction 1.5 accepted")
	}
}

// TestCrossRisk checks that each decomposition's own gains are best under its own truth, and that
// assuming the wrong split of the same T costs risk somewhere.
func TestCrossRisk(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	ds, err := diag.NonIdentifiable(T, []float64{0.5})
	if err != nil {
		t.Fatal(err)
	}
	cross := diag.CrossRisk(ds)
	worst := 0.0
	for j := range ds {
		for i := range ds {
			want := wiener.Risk(ds[i].Constrained, ds[j].P, ds[j].R)
			if cross[i][j] != want {
				t.Errorf("cross[%d][%d] = %v, want gains of %d under truth %d = %v", i, j, cross[i][j], i, j, want)
			}
			if cross[i][j] < cross[j][j]-1e-12 {
				t.Errorf("truth %v: gains of %v (risk %v) beat its own gains (risk %v)", ds[j].Shape, ds[i].Shape, cross[i][j], cross[j][j])
			}
			worst = math.Max(worst, cross[i][j]-cross[j][j])
		}
	}
	if worst < 0.05 {
		t.Errorf("largest excess risk %v: the wrong split should cost something", worst)
	}
}

// TestSampleCov checks that samples of every split of T have second moment T up to sampling
// error, that the check can fail (a different law is detected), and that the seed fixes the draws.
func TestSampleCov(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	ds, err := diag.NonIdentifiable(T, []float64{0, 0.5, 1})
	if err != nil {
		t.Fatal(err)
	}
	const n = 200_000
	tol := 6 * math.Sqrt(2.0/n) // six standard errors of a second moment of unit scale
	for _, d := range ds {
		S, err := diag.SampleCov(d.P, d.R, n, 1)
		if err != nil {
			t.Fatalf("%v f=%v: %v", d.Shape, d.Fraction, err)
		}
		if !closeSym(S, T, tol) {
			t.Errorf("%v f=%v: sample second moment %+v, want T = %+v ± %.3f", d.Shape, d.Fraction, S, T, tol)
		}
	}
	other, _ := diag.SampleCov(T.Scale(1.2), wiener.Sym2{}, n, 1)
	if closeSym(other, T, tol) {
		t.Errorf("law N(0, 1.2T) passed as N(0, T): %+v", other)
	}
	a, _ := diag.SampleCov(ds[1].P, ds[1].R, 1000, 7)
	b, _ := diag.SampleCov(ds[1].P, ds[1].R, 1000, 7)
	c, _ := diag.SampleCov(ds[1].P, ds[1].R, 1000, 8)
	if a != b || a == c {
		t.Errorf("seed: same seed %+v vs %+v, other seed %+v", a, b, c)
	}
	for _, bad := range []wiener.Sym2{{II: 1, IJ: 2, JJ: 1}, {II: -1}, {II: math.NaN()}} {
		if _, err := diag.SampleCov(bad, wiener.Sym2{}, 10, 1); err == nil {
			t.Errorf("non-PSD P = %+v accepted", bad)
		}
	}
	if _, err := diag.SampleCov(T, wiener.Sym2{}, 0, 1); err == nil {
		t.Error("n = 0 accepted")
	}
}

func closeSym(a, b wiener.Sym2, tol float64) bool {
	return close(a.II, b.II, tol) && close(a.IJ, b.IJ, tol) && close(a.JJ, b.JJ, tol)
}

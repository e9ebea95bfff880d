package diag

import (
	"math"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// exactGainChange is w_unc(T+dT, R+dR) − w_unc(T, R), with w_unc = T⁻¹(T−R)1 from Unconstrained.
func exactGainChange(t *testing.T, T, R, dT, dR wiener.Sym2) [2]float64 {
	t.Helper()
	w0, ok0 := Unconstrained(T.Sub(R), R)
	T1, R1 := T.Add(dT), R.Add(dR)
	w1, ok1 := Unconstrained(T1.Sub(R1), R1)
	if !ok0 || !ok1 {
		t.Fatalf("T or T+dT not positive definite")
	}
	return [2]float64{w1[0] - w0[0], w1[1] - w0[1]}
}

func TestFirstOrderGainError(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	R := wiener.Sym2{II: 0.5, IJ: 0.1, JJ: 0.3}
	for _, tc := range []struct {
		name   string
		T, R   wiener.Sym2
		dT, dR wiener.Sym2
		want   [2]float64 // NaN: compare with the exact change instead
	}{
		// T = I, R = I/2: w_unc = (1/2, 1/2); T + δI gives w = 1 − (1/2)/(1+δ) ≈ 1/2 + δ/2.
		{"hand: T = I, dT = δI", wiener.Sym2{II: 1, JJ: 1}, wiener.Sym2{II: 0.5, JJ: 0.5}, wiener.Sym2{II: 0.2, JJ: 0.2}, wiener.Sym2{}, [2]float64{0.1, 0.1}},
		// w_unc is linear in R: with dT = 0 the first-order term is the whole change.
		{"only R moves", T, R, wiener.Sym2{}, wiener.Sym2{II: 0.2, IJ: -0.05, JJ: 0.1}, [2]float64{math.NaN(), math.NaN()}},
		{"sampler finds half the noise", T, R, wiener.Sym2{}, R.Scale(-0.5), [2]float64{math.NaN(), math.NaN()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FirstOrderGainError(tc.T, tc.R, tc.dT, tc.dR)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if math.IsNaN(want[0]) {
				want = exactGainChange(t, tc.T, tc.R, tc.dT, tc.dR)
			}
			for i := range 2 {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Errorf("component %d: %.15g, want %.15g", i, got[i], want[i])
				}
			}
		})
	}
	if _, err := FirstOrderGainError(wiener.Sym2{II: 1, IJ: 1, JJ: 1}, R, wiener.Sym2{}, wiener.Sym2{}); err == nil || !strings.Contains(err.Error(), "positive definite") {
		t.Errorf("singular T: err = %v, want a 'not positive definite' error", err)
	}
}

// TestFirstOrderGainErrorRemainderIsSecondOrder moves T and R together along fixed directions
// scaled by ε: the remainder after the first-order term must shrink like ε² (about 100× per
// decade), which a wrong sign or a missing term would break.
func TestFirstOrderGainErrorRemainderIsSecondOrder(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	R := wiener.Sym2{II: 0.5, IJ: 0.1, JJ: 0.3}
	dTdir := wiener.Sym2{II: 0.3, IJ: -0.2, JJ: 0.5}
	dRdir := wiener.Sym2{II: -0.1, IJ: 0.15, JJ: 0.2}
	remainder := func(eps float64) float64 {
		dT, dR := dTdir.Scale(eps), dRdir.Scale(eps)
		lin, err := FirstOrderGainError(T, R, dT, dR)
		if err != nil {
			t.Fatal(err)
		}
		ex := exactGainChange(t, T, R, dT, dR)
		return math.Hypot(ex[0]-lin[0], ex[1]-lin[1])
	}
	r1, r2 := remainder(1e-2), remainder(1e-3)
	if ratio := r1 / r2; ratio < 80 || ratio > 125 {
		t.Errorf("remainder %.3g at ε = 1e-2, %.3g at 1e-3: ratio %.1f, want ≈ 100 (second order)", r1, r2, ratio)
	}
}

func TestDecomposeGainError(t *testing.T) {
	half := wiener.Sym2{II: 0.5, JJ: 0.5} // P = R = I/2: T = I, w_unc = (1/2, 1/2)
	for _, tc := range []struct {
		name                  string
		gains                 [][2]float64
		bias                  [2]float64
		biasRisk, varianceRsk float64
	}{
		{"spread, no bias", [][2]float64{{0, 0}, {1, 1}}, [2]float64{0, 0}, 0, 0.5},
		{"bias, no spread", [][2]float64{{1, 1}, {1, 1}}, [2]float64{0.5, 0.5}, 0.5, 0},
		{"both", [][2]float64{{1, 0.5}, {0.5, 0.5}}, [2]float64{0.25, 0}, 0.0625, 0.0625},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecomposeGainError(half, half, tc.gains)
			if err != nil {
				t.Fatal(err)
			}
			if got.Bias != tc.bias || math.Abs(got.BiasRisk-tc.biasRisk) > 1e-15 || math.Abs(got.VarianceRisk-tc.varianceRsk) > 1e-15 {
				t.Errorf("got %+v, want bias %v, bias risk %v, variance risk %v", got, tc.bias, tc.biasRisk, tc.varianceRsk)
			}
		})
	}

	// Correlated moments and scattered gains (some on the box's edges): the split must add up to
	// the mean excess of wiener.Risk over the optimum.
	P := wiener.Sym2{II: 0.6, IJ: 0.25, JJ: 0.45}
	R := wiener.Sym2{II: 0.35, IJ: -0.05, JJ: 0.4}
	w, _ := Unconstrained(P, R)
	gains := [][2]float64{{0.2, 0.9}, {1, 1}, {0, 0.4}, {0.55, 0.1}, {0.7, 0.7}}
	var want float64
	for _, g := range gains {
		want += (wiener.Risk(g, P, R) - wiener.Risk(w, P, R)) / float64(len(gains))
	}
	got, err := DecomposeGainError(P, R, gains)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.Excess-want) > 1e-12 || math.Abs(got.BiasRisk+got.VarianceRisk-got.Excess) > 1e-15 {
		t.Errorf("excess %.15g (bias %.6g + variance %.6g), want the mean risk excess %.15g", got.Excess, got.BiasRisk, got.VarianceRisk, want)
	}

	for _, bad := range []struct {
		name  string
		P, R  wiener.Sym2
		gains [][2]float64
		want  string
	}{
		{"no gains", P, R, nil, "no gains"},
		{"w_unc outside the box", wiener.Sym2{II: 1.1, IJ: 0.7, JJ: 0.3}, wiener.Sym2{II: 0.05, JJ: 0.5}, gains, "outside"},
		{"T singular", wiener.Sym2{}, wiener.Sym2{}, gains, "positive definite"},
		{"NaN gain", P, R, [][2]float64{{math.NaN(), 0}}, "gains[0]"},
	} {
		if _, err := DecomposeGainError(bad.P, bad.R, bad.gains); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: err = %v, want one containing %q", bad.name, err, bad.want)
		}
	}
}

func TestSampledGains(t *testing.T) {
	P := wiener.Sym2{II: 0.6, IJ: 0.25, JJ: 0.45}
	R := wiener.Sym2{II: 0.35, IJ: -0.05, JJ: 0.4}

	a, err := SampledGains(P, R, 1, 50, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SampledGains(P, R, 1, 50, 5, 7)
	c, _ := SampledGains(P, R, 1, 50, 5, 8)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("repeat %d: %v then %v with the same seed", i, a[i], b[i])
		}
	}
	if a[1] == c[1] {
		t.Errorf("seeds 7 and 8 gave the same gains %v", a[1])
	}

	// Many probes: a correct sampler's gains centre on w_unc; a sampler that finds half the noise
	// centres on the solve under half the noise, its bias that more probes do not remove.
	for _, tc := range []struct {
		scale float64
	}{{1}, {0.5}} {
		want, _ := wiener.Solve(P.Add(R), R.Scale(tc.scale))
		g, err := SampledGains(P, R, tc.scale, 20000, 20, 1)
		if err != nil {
			t.Fatal(err)
		}
		d, err := DecomposeGainError(P, R, g)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(d.Mean[0]-want[0]) > 0.02 || math.Abs(d.Mean[1]-want[1]) > 0.02 {
			t.Errorf("sampler scale %v: mean gains %v, want ≈ %v", tc.scale, d.Mean, want)
		}
	}

	// The variance part falls like 1/n: 16× the probes, about a sixteenth of it.
	var vr [2]float64
	for i, n := range []int{25, 400} {
		g, err := SampledGains(P, R, 1, n, 400, 3)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := DecomposeGainError(P, R, g)
		vr[i] = d.VarianceRisk
	}
	if ratio := vr[0] / vr[1]; ratio < 8 || ratio > 32 {
		t.Errorf("variance risk %.3g at n = 25, %.3g at n = 400: ratio %.1f, want ≈ 16", vr[0], vr[1], ratio)
	}

	for _, bad := range []struct {
		scale     float64
		n, reps   int
		wantInErr string
	}{{-1, 10, 1, "samplerScale"}, {math.NaN(), 10, 1, "samplerScale"}, {1, 10, 0, "reps"}, {1, 0, 1, "n = 0"}} {
		if _, err := SampledGains(P, R, bad.scale, bad.n, bad.reps, 0); err == nil || !strings.Contains(err.Error(), bad.wantInErr) {
			t.Errorf("scale %v, n %d, reps %d: err = %v, want one containing %q", bad.scale, bad.n, bad.reps, err, bad.wantInErr)
		}
	}
}

package data

import (
	"math"
	"testing"
)

// TestAR1Residuals checks the defining equation: r = x_{t+1} - A x_t has
// zero mean and variance 1 - a_j^2 per coordinate, and is uncorrelated with
// x_t.
func TestAR1Residuals(t *testing.T) {
	c := AR1Config{NumTraj: 4, Length: 25000, Seed: 7}
	raw, err := GenerateAR1(c)
	if err != nil {
		t.Fatal(err)
	}
	for j, a := range KnownSNRCoef {
		var s1, s2, sx, n float64
		for _, s := range raw {
			for k := 1; k < s.Len(); k++ {
				r := s.X[k][j] - a*s.X[k-1][j]
				s1 += r
				s2 += r * r
				sx += r * s.X[k-1][j]
				n++
			}
		}
		want := 1 - a*a
		mean, vari, cov := s1/n, s2/n, sx/n
		// 5-sigma bounds for Gaussian sample moments.
		if math.Abs(mean) > 5*math.Sqrt(want/n) {
			t.Errorf("coord %d: residual mean %g, want 0 (+- %g)", j, mean, 5*math.Sqrt(want/n))
		}
		if math.Abs(vari/want-1) > 5*math.Sqrt(2/n) {
			t.Errorf("coord %d: residual variance %g, want %g", j, vari, want)
		}
		if math.Abs(cov) > 5*math.Sqrt(want/n) {
			t.Errorf("coord %d: residual correlates with the state: %g", j, cov)
		}
	}
}

// TestAR1StationaryStart checks x_0 ~ N(0, 1): the trajectories start at
// stationarity, so no burn-in is needed.
func TestAR1StationaryStart(t *testing.T) {
	raw, err := GenerateAR1(AR1Config{NumTraj: 4000, Length: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for j := range KnownSNRCoef {
		var s1, s2 float64
		for _, s := range raw {
			s1 += s.X[0][j]
			s2 += s.X[0][j] * s.X[0][j]
		}
		n := float64(len(raw))
		if m, v := s1/n, s2/n; math.Abs(m) > 5/math.Sqrt(n) || math.Abs(v-1) > 5*math.Sqrt(2/n) {
			t.Errorf("coord %d: x_0 mean %g variance %g, want 0 and 1", j, m, v)
		}
	}
}

func TestConditionalMean(t *testing.T) {
	x := []float64{1, -2, .5, 3, -1, 2, .25, -4}
	for _, k := range []int{0, 1, 2, 7, 32} {
		want := append([]float64(nil), x...)
		for range k {
			for j, a := range KnownSNRCoef {
				want[j] *= a
			}
		}
		got := ConditionalMean(x, k)
		for j := range x {
			if math.Abs(got[j]-want[j]) > 1e-13 {
				t.Errorf("k=%d coord %d: A^k x = %v, want %v", k, j, got[j], want[j])
			}
		}
	}
}

// TestContinuations checks the known-SNR oracle: continuations start from
// the fixed state, their Monte Carlo mean is A^k x and their variance is
// 1 - a^{2k} (the variance of the accumulated innovations).
func TestContinuations(t *testing.T) {
	x := []float64{2, -1, 1, .5, -2, 1, -1, .5}
	const B, K = 4000, 6
	paths := Continuations(x, B, K, 11)
	if len(paths) != B || len(paths[0]) != K || len(paths[0][0]) != 8 {
		t.Fatalf("shape %dx%dx%d, want %dx%dx8", len(paths), len(paths[0]), len(paths[0][0]), B, K)
	}
	for _, k := range []int{1, 3, K} {
		mean := ConditionalMean(x, k)
		for j, a := range KnownSNRCoef {
			var s1, s2 float64
			for b := range paths {
				d := paths[b][k-1][j] - mean[j]
				s1 += d
				s2 += d * d
			}
			wantVar := 1 - math.Pow(a, 2*float64(k))
			m, v := s1/B, s2/B
			if math.Abs(m) > 5*math.Sqrt(wantVar/B) || math.Abs(v/wantVar-1) > 5*math.Sqrt(2.0/B) {
				t.Errorf("k=%d coord %d: deviation mean %g variance %g, want 0 and %g", k, j, m, v, wantVar)
			}
		}
	}
	// Reproducible, prefix-stable in B, and seed-dependent.
	again := Continuations(x, 10, K, 11)
	other := Continuations(x, 10, K, 12)
	for b := range again {
		if !rowsEqual(again[b], paths[b]) {
			t.Fatalf("draw %d changes with B or between calls", b)
		}
	}
	if rowsEqual(other[0], paths[0]) {
		t.Error("different seeds give the same continuation")
	}
}

func TestGenerateAR1Determinism(t *testing.T) {
	c := AR1Config{NumTraj: 5, Length: 50, Seed: 1}
	a, _ := GenerateAR1(c)
	b, _ := GenerateAR1(c)
	c.Seed = 2
	d, _ := GenerateAR1(c)
	for i := range a {
		if !rowsEqual(a[i].X, b[i].X) {
			t.Fatalf("trajectory %d differs between identical calls", i)
		}
		if rowsEqual(a[i].X, d[i].X) {
			t.Fatalf("trajectory %d identical under different seeds", i)
		}
	}
	if _, err := GenerateAR1(AR1Config{NumTraj: 1, Length: 5, Coef: []float64{1}}); err == nil {
		t.Error("non-stationary coefficient accepted")
	}
}

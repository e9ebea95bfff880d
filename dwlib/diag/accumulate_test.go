package diag

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// The scalar closed form against the moment recursion of a 1×1 system, across the three regimes
// and on both sides of a = 1, where the closed form switches to its limit.
func TestScalarForcedRMSMatchesRecursion(t *testing.T) {
	const K = 80
	mu, sigma := -0.3, 0.7
	for _, a := range []float64{0, 0.5, 0.95, 1 - 1e-9, 1, 1 + 1e-9, 1.05} {
		coh, inn, rms, err := ScalarForcedRMS(a, mu, sigma, K)
		if err != nil {
			t.Fatal(err)
		}
		means, covs, err := ForcedMoments(mat.NewDense(1, 1, []float64{a}), []float64{mu}, mat.NewSymDense(1, []float64{sigma * sigma}), K)
		if err != nil {
			t.Fatal(err)
		}
		for i := range K {
			m, v := means[i].AtVec(0), covs[i].At(0, 0)
			if !near(coh[i], math.Abs(m), 1e-9) || !near(inn[i], math.Sqrt(v), 1e-9) || !near(rms[i], math.Sqrt(m*m+v), 1e-9) {
				t.Fatalf("a = %v, k = %d: closed form (%.12g, %.12g, %.12g), recursion (%.12g, %.12g, %.12g)",
					a, i+1, coh[i], inn[i], rms[i], math.Abs(m), math.Sqrt(v), math.Sqrt(m*m+v))
			}
		}
	}
}

func TestScalarForcedRMSRegimes(t *testing.T) {
	const K = 400
	mu, sigma := 0.5, 2.0
	for _, tc := range []struct {
		name     string
		a        float64
		coh, inn func(k float64) float64 // the hand-worked value at step k
	}{
		{"a = 0: only the newest injection", 0, func(float64) float64 { return mu }, func(float64) float64 { return sigma }},
		{"a = 1: linear and √k", 1, func(k float64) float64 { return mu * k }, func(k float64) float64 { return sigma * math.Sqrt(k) }},
		{"a = 0.5: the plateau |μ|/(1−a), σ/√(1−a²)", 0.5, func(float64) float64 { return mu / 0.5 }, func(float64) float64 { return sigma / math.Sqrt(0.75) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			coh, inn, _, err := ScalarForcedRMS(tc.a, mu, sigma, K)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1, 2, 10, K} {
				if tc.a == 0.5 && k < K {
					continue // the plateau holds in the limit only
				}
				if !near(coh[k-1], tc.coh(float64(k)), 1e-12) || !near(inn[k-1], tc.inn(float64(k)), 1e-12) {
					t.Errorf("k = %d: (%.12g, %.12g), want (%.12g, %.12g)", k, coh[k-1], inn[k-1], tc.coh(float64(k)), tc.inn(float64(k)))
				}
			}
		})
	}
	// a > 1: exponential; the ratio of successive coherent parts tends to a.
	coh, _, _, _ := ScalarForcedRMS(1.05, mu, sigma, K)
	if r := coh[K-1] / coh[K-2]; !near(r, 1.05, 1e-6) {
		t.Errorf("a = 1.05: ratio of the last two coherent parts %.9g, want → 1.05", r)
	}
	for _, bad := range [][3]float64{{-0.1, 1, 1}, {math.NaN(), 1, 1}, {1, math.Inf(1), 1}, {1, 1, -1}} {
		if _, _, _, err := ScalarForcedRMS(bad[0], bad[1], bad[2], 5); err == nil {
			t.Errorf("a, μ, σ = %v: no error", bad)
		}
	}
	if _, _, _, err := ScalarForcedRMS(1, 1, 1, 0); err == nil || !strings.Contains(err.Error(), "K = 0") {
		t.Errorf("K = 0: err = %v", err)
	}
}

// The matrix recursion against the closed forms of eq. forced-direction-moments computed by
// brute force (J^h by repeated products), on a random system.
func TestForcedMomentsMatchesClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, K = 3, 7
	J := mat.NewDense(n, n, nil)
	L := mat.NewDense(n, n, nil)
	mu := make([]float64, n)
	for i := range n {
		mu[i] = rng.NormFloat64()
		for j := range n {
			J.Set(i, j, 0.6*rng.NormFloat64())
			L.Set(i, j, rng.NormFloat64())
		}
	}
	var LLt mat.Dense
	LLt.Mul(L, L.T())
	Q := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			Q.SetSym(i, j, LLt.At(i, j))
		}
	}
	means, covs, err := ForcedMoments(J, mu, Q, K)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= K; k++ {
		wantMean := mat.NewVecDense(n, nil)
		wantCov := mat.NewDense(n, n, nil)
		Jh := mat.NewDense(n, n, nil)
		for i := range n {
			Jh.Set(i, i, 1)
		}
		for h := 0; h < k; h++ {
			var v mat.VecDense
			v.MulVec(Jh, mat.NewVecDense(n, mu))
			wantMean.AddVec(wantMean, &v)
			var a, b mat.Dense
			a.Mul(Jh, Q)
			b.Mul(&a, Jh.T())
			wantCov.Add(wantCov, &b)
			var next mat.Dense
			next.Mul(J, Jh)
			Jh = &next
		}
		for i := range n {
			if !near(means[k-1].AtVec(i), wantMean.AtVec(i), 1e-12) {
				t.Errorf("k = %d: mean[%d] %.15g, closed form %.15g", k, i, means[k-1].AtVec(i), wantMean.AtVec(i))
			}
			for j := range n {
				if !near(covs[k-1].At(i, j), wantCov.At(i, j), 1e-12) {
					t.Errorf("k = %d: cov[%d][%d] %.15g, closed form %.15g", k, i, j, covs[k-1].At(i, j), wantCov.At(i, j))
				}
			}
		}
	}
}

// Two hand-worked modes on the unit circle: a rotation (semisimple, unit modulus) accumulates
// Q in the variance, Cov(z_k) = k I for Q = I; a Jordan block grows polynomially in the mean,
// E z_k = (k(k−1)/2, k) for μ = (0, 1).
func TestForcedMomentsUnitCircleModes(t *testing.T) {
	th := 0.7
	rot := mat.NewDense(2, 2, []float64{math.Cos(th), -math.Sin(th), math.Sin(th), math.Cos(th)})
	_, covs, err := ForcedMoments(rot, []float64{0, 0}, mat.NewSymDense(2, []float64{1, 0, 0, 1}), 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 7, 50} {
		c := covs[k-1]
		if !near(c.At(0, 0), float64(k), 1e-12) || !near(c.At(1, 1), float64(k), 1e-12) || math.Abs(c.At(0, 1)) > 1e-12*float64(k) {
			t.Errorf("rotation, k = %d: Cov = %v, want %d·I", k, mat.Formatted(c), k)
		}
	}
	jordan := mat.NewDense(2, 2, []float64{1, 1, 0, 1})
	means, _, err := ForcedMoments(jordan, []float64{0, 1}, mat.NewSymDense(2, nil), 30)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2, 30} {
		kf := float64(k)
		if m := means[k-1]; m.AtVec(0) != kf*(kf-1)/2 || m.AtVec(1) != kf {
			t.Errorf("Jordan block, k = %d: E z = (%v, %v), want (%v, %v)", k, m.AtVec(0), m.AtVec(1), kf*(kf-1)/2, kf)
		}
	}
}

func TestForcedMomentsRejectsBadInput(t *testing.T) {
	I2 := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	Q2 := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	for _, tc := range []struct {
		name string
		J    *mat.Dense
		mu   []float64
		Q    *mat.SymDense
		K    int
		want string
	}{
		{"non-square J", mat.NewDense(2, 3, nil), []float64{0, 0}, Q2, 3, "square"},
		{"μ length", I2, []float64{0}, Q2, 3, "μ has 1"},
		{"Q size", I2, []float64{0, 0}, mat.NewSymDense(3, nil), 3, "Q is 3×3"},
		{"K", I2, []float64{0, 0}, Q2, 0, "K = 0"},
		{"Q indefinite", I2, []float64{0, 0}, mat.NewSymDense(2, []float64{1, 2, 2, 1}), 3, "semidefinite"},
	} {
		if _, _, err := ForcedMoments(tc.J, tc.mu, tc.Q, tc.K); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

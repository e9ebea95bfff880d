package wiener_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// randomMoments returns plug-in style moments (T̂, R̂): T̂ = P + R for random PSD P and R with
// routes of unequal energy, sometimes rank one, sometimes perturbed so that T̂ - R̂ is not PSD,
// at a random overall scale between 1e-6 and 1e6.
func randomMoments(rng *rand.Rand) (T, R wiener.Sym2) {
	route := func() wiener.Sym2 {
		m := randomPSD(rng, 1)
		g := math.Exp(rng.NormFloat64()) // energy ratio of the nonlinear route
		return wiener.Sym2{II: m.II, IJ: g * m.IJ, JJ: g * g * m.JJ}
	}
	P, R := route(), route()
	if rng.IntN(4) == 0 {
		R = R.Scale(math.Exp(2 * rng.NormFloat64())) // noise much larger or smaller than signal
	}
	T = P.Add(R)
	if rng.IntN(4) == 0 {
		e := 0.3 * T.Trace()
		T = T.Add(wiener.Sym2{II: e * rng.NormFloat64(), IJ: e * rng.NormFloat64(), JJ: e * rng.NormFloat64()})
	}
	s := math.Pow(10, 12*rng.Float64()-6)
	return T.Scale(s), R.Scale(s)
}

// TestSolveAgainstGrid compares the solver with a 401×401 brute-force grid over [0,1]² (edges and
// corners included) on random moments. The solver's risk must not exceed the grid minimum, and
// where the risk is curved enough for the grid argmin to pin the optimum down, the gains must be
// near the grid argmin. Every kind of winner (interior, edge, corner) must occur.
func TestSolveAgainstGrid(t *testing.T) {
	const n = 400
	const h = 1.0 / n
	rng := rand.New(rand.NewPCG(3, 4))
	kinds := map[string]int{}
	gainChecks := 0
	const cases = 400
	for i := range cases {
		That, Rhat := randomMoments(rng)
		sol := wiener.SolveDetailed(That, Rhat)
		if sol.Fallback != "" {
			t.Fatalf("case %d: unexpected fallback %q", i, sol.Fallback)
		}
		kinds[strings.Fields(sol.Candidate)[0]]++
		w, P, R := sol.W, sol.P, sol.R
		if !(w[0] >= 0 && w[0] <= 1 && w[1] >= 0 && w[1] <= 1) {
			t.Fatalf("case %d: gains %v outside [0,1]²", i, w)
		}
		best, bw := math.Inf(1), [2]float64{}
		for a := 0; a <= n; a++ {
			for m := 0; m <= n; m++ {
				g := [2]float64{float64(a) * h, float64(m) * h}
				if r := wiener.Risk(g, P, R); r < best {
					best, bw = r, g
				}
			}
		}
		tr := sol.T.Trace()
		got := wiener.Risk(w, P, R)
		// Slack: the tie tolerance (1e-12·tr) plus the ridge's pull on the interior candidate.
		if got > best+1e-9*tr {
			t.Fatalf("case %d (%s): risk %.17g at %v exceeds grid minimum %.17g at %v (tr %g)",
				i, sol.Candidate, got, w, best, bw, tr)
		}
		// For a convex quadratic on the box, Risk(g) - Risk(w*) ≥ (g-w*)ᵀT(g-w*) ≥ λ2|g-w*|², and
		// the grid point nearest w* along its face costs at most λ1·h²/2, so the grid argmin is
		// within h·sqrt(λ1/(2λ2)) of w*.
		l1, l2 := sol.T.Eigen()
		if l2 <= 0 {
			continue
		}
		bound := h*math.Sqrt(l1/(2*l2)) + 1e-5*tr/l2
		if bound > 0.02 {
			continue
		}
		gainChecks++
		if d := math.Hypot(w[0]-bw[0], w[1]-bw[1]); d > bound {
			t.Errorf("case %d (%s): gains %v are %.3g from grid argmin %v, bound %.3g",
				i, sol.Candidate, w, d, bw, bound)
		}
	}
	t.Logf("winners: %v; gain checks: %d of %d", kinds, gainChecks, cases)
	for _, k := range []string{"interior", "edge", "corner"} {
		if kinds[k] == 0 {
			t.Errorf("no random case was won by a %s candidate: the test does not cover it", k)
		}
	}
	if gainChecks < cases/4 {
		t.Errorf("only %d of %d cases were well-conditioned enough to check gains", gainChecks, cases)
	}
}

// TestSolveNeverWorseThanBPTT checks Theorem 1's guarantee Risk(w*) ≤ Risk(1,1) = 1ᵀR1 (paper,
// Eq. internal-dw-vs-bptt-risk) exactly, on many random moments, and that gains are finite and in
// the box.
func TestSolveNeverWorseThanBPTT(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		That, Rhat := randomMoments(rng)
		sol := wiener.SolveDetailed(That, Rhat)
		w := sol.W
		if !(w[0] >= 0 && w[0] <= 1 && w[1] >= 0 && w[1] <= 1) {
			t.Fatalf("case %d: gains %v not in [0,1]²", i, w)
		}
		if r, r1 := wiener.Risk(w, sol.P, sol.R), wiener.Risk([2]float64{1, 1}, sol.P, sol.R); r > r1 {
			t.Fatalf("case %d: Risk(w*=%v) = %.17g > Risk(1,1) = %.17g", i, w, r, r1)
		}
	}
}

// TestSolveReportsMoments checks the moments SolveDetailed reports: R = Π(R̂),
// P = Π(Π(T̂) - R), T = P + R, and that Solve agrees with SolveDetailed.
func TestSolveReportsMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 500 {
		That, Rhat := randomMoments(rng)
		sol := wiener.SolveDetailed(That, Rhat)
		R := wiener.ProjectPSD(Rhat)
		P := wiener.ProjectPSD(wiener.ProjectPSD(That).Sub(R))
		tol := 1e-12 * (That.Trace() + Rhat.Trace())
		if !closeSym(sol.R, R, tol) || !closeSym(sol.P, P, tol) || !closeSym(sol.T, P.Add(R), tol) {
			t.Fatalf("case %d: reported P=%+v R=%+v T=%+v, want P=%+v R=%+v", i, sol.P, sol.R, sol.T, P, R)
		}
		if w, P := wiener.Solve(That, Rhat); w != sol.W || P != sol.P {
			t.Fatalf("case %d: Solve = %v, %+v; SolveDetailed = %v, %+v", i, w, P, sol.W, sol.P)
		}
	}
}

// TestSolveScaleInvariance checks that multiplying both moments by any positive factor, including
// ones that would overflow a naive determinant, leaves the gains unchanged.
func TestSolveScaleInvariance(t *testing.T) {
	T := wiener.Sym2{II: 1, IJ: 0.3, JJ: 0.8}
	R := wiener.Sym2{II: 0.2, IJ: 0.05, JJ: 0.5}
	want, _ := wiener.Solve(T, R)
	for _, s := range []float64{1e-300, 1e-150, 1e-3, 3, 1e150, 1e300} {
		w, _ := wiener.Solve(T.Scale(s), R.Scale(s))
		if !close(w[0], want[0], 1e-12) || !close(w[1], want[1], 1e-12) {
			t.Errorf("scale %g: gains %v, want %v", s, w, want)
		}
	}
}

// TestSolveNoNoise checks that R = 0 (also after projection) gives the fully open gains (1,1).
func TestSolveNoNoise(t *testing.T) {
	for _, tc := range []struct {
		name string
		T, R wiener.Sym2
	}{
		{"identity", wiener.Sym2{II: 1, JJ: 1}, wiener.Sym2{}},
		{"correlated", wiener.Sym2{II: 1, IJ: 0.9, JJ: 1}, wiener.Sym2{}},
		{"anti-correlated", wiener.Sym2{II: 2, IJ: -1.9, JJ: 2}, wiener.Sym2{}},
		{"rank one", wiener.Sym2{II: 1, IJ: -2, JJ: 4}, wiener.Sym2{}},
		{"nonlinear route silent", wiener.Sym2{II: 3}, wiener.Sym2{}},
		{"R projects to zero", wiener.Sym2{II: 1, IJ: 0.2, JJ: 0.5}, wiener.Sym2{II: -1, JJ: -1}},
	} {
		sol := wiener.SolveDetailed(tc.T, tc.R)
		if sol.W != [2]float64{1, 1} || sol.Fallback != "" {
			t.Errorf("%s: gains %v (%s, fallback %q), want (1,1)", tc.name, sol.W, sol.Candidate, sol.Fallback)
		}
	}
}

// TestSolveNoSignal checks that P = 0 with a positive-definite R closes both routes, (0,0),
// whether T̂ = R̂ exactly or T̂ - R̂ is negative and projects to zero.
func TestSolveNoSignal(t *testing.T) {
	for _, tc := range []struct {
		name string
		T, R wiener.Sym2
	}{
		{"T = R", wiener.Sym2{II: 1, IJ: 0.3, JJ: 2}, wiener.Sym2{II: 1, IJ: 0.3, JJ: 2}},
		{"T < R", wiener.Sym2{II: 0.5, JJ: 0.5}, wiener.Sym2{II: 1, IJ: -0.2, JJ: 1}},
		{"T = 0", wiener.Sym2{}, wiener.Sym2{II: 1, IJ: 0.9, JJ: 1}},
	} {
		sol := wiener.SolveDetailed(tc.T, tc.R)
		if sol.W != [2]float64{0, 0} || sol.Fallback != "" || sol.P != (wiener.Sym2{}) {
			t.Errorf("%s: gains %v, P %+v (%s, fallback %q), want (0,0) and P = 0",
				tc.name, sol.W, sol.P, sol.Candidate, sol.Fallback)
		}
	}
}

// TestSolveScalarReduction checks the single-route limit: with all moment on the identity route,
// alpha is the scalar Wiener gain P/(P+R). The nonlinear gain is 0 when that route carries a
// little noise and 1 (the tie rule: open) when it carries nothing, or only rounding-level noise
// below the tie tolerance.
func TestSolveScalarReduction(t *testing.T) {
	for _, tc := range []struct {
		p, r, rJJ float64
		m         float64
	}{
		{p: 1, r: 1, rJJ: 1e-9, m: 0},
		{p: 3, r: 1, rJJ: 1e-6, m: 0},
		{p: 0.2, r: 5, rJJ: 1e-9, m: 0},
		{p: 1e-4, r: 3e-4, rJJ: 1e-12, m: 0},
		{p: 1, r: 1, rJJ: 0, m: 1},
		{p: 7, r: 0.5, rJJ: 0, m: 1},
		{p: 1, r: 1, rJJ: 1e-13, m: 1}, // below TieFactor·tr(T), above rounding
	} {
		P := wiener.Sym2{II: tc.p}
		R := wiener.Sym2{II: tc.r, JJ: tc.rJJ}
		w, _ := wiener.Solve(P.Add(R), R)
		want := tc.p / (tc.p + tc.r)
		if !close(w[0], want, 1e-9) || w[1] != tc.m {
			t.Errorf("P=%g R=%g R.JJ=%g: gains %v, want (%v, %v)", tc.p, tc.r, tc.rJJ, w, want, tc.m)
		}
	}
}

// TestSolveCorrelatedBeatsClipping builds strongly correlated routes whose unconstrained optimum
// (1.5, 0.2) leaves the box. Clipping it gives (1, 0.2); the true constrained optimum moves the
// other coordinate too, to (1, 0.65) on the edge alpha = 1, with a strictly lower risk.
func TestSolveCorrelatedBeatsClipping(t *testing.T) {
	// T = [[1 .9] [.9 1]], P1 = T·(1.5, 0.2) = (1.68, 1.55); P and R = T - P are both PD.
	P := wiener.Sym2{II: 0.88, IJ: 0.8, JJ: 0.75}
	R := wiener.Sym2{II: 0.12, IJ: 0.1, JJ: 0.25}
	sol := wiener.SolveDetailed(P.Add(R), R)
	u := sol.Unconstrained
	if !close(u[0], 1.5, 1e-4) || !close(u[1], 0.2, 1e-4) { // The ridge moves it by ~1e-5.
		t.Fatalf("unconstrained optimum %v, want (1.5, 0.2)", u)
	}
	clipped := [2]float64{math.Min(1, math.Max(0, u[0])), math.Min(1, math.Max(0, u[1]))}
	if !close(sol.W[0], 1, 1e-12) || !close(sol.W[1], 0.65, 1e-12) || sol.Candidate != wiener.CandEdgeA1 {
		t.Errorf("gains %v (%s), want (1, 0.65) on %q", sol.W, sol.Candidate, wiener.CandEdgeA1)
	}
	// Risk(w) = Risk(w_unc) + (w-w_unc)ᵀT(w-w_unc): 0.25 above it for the clip, 0.0475 for w*.
	rClip, rOpt := wiener.Risk(clipped, sol.P, sol.R), wiener.Risk(sol.W, sol.P, sol.R)
	if !(rClip > rOpt+0.2) {
		t.Errorf("clipped %v has risk %v, constrained optimum %v has %v: clipping should be worse by 0.2025",
			clipped, rClip, sol.W, rOpt)
	}
}

// TestSolveDegenerate checks that NaN, Inf and zero moments never produce NaN gains: they give
// the fully open (1,1) with a Fallback reason.
func TestSolveDegenerate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := wiener.Sym2{II: 1, IJ: 0.1, JJ: 1}
	for _, tc := range []struct {
		name string
		T, R wiener.Sym2
		why  string
	}{
		{"NaN in T.II", wiener.Sym2{II: nan, JJ: 1}, ok, wiener.FallbackNonFinite},
		{"NaN in T.IJ", wiener.Sym2{II: 1, IJ: nan, JJ: 1}, ok, wiener.FallbackNonFinite},
		{"NaN in R.JJ", ok, wiener.Sym2{II: 1, JJ: nan}, wiener.FallbackNonFinite},
		{"+Inf in T.JJ", wiener.Sym2{II: 1, JJ: inf}, ok, wiener.FallbackNonFinite},
		{"-Inf in R.IJ", ok, wiener.Sym2{II: 1, IJ: -inf, JJ: 1}, wiener.FallbackNonFinite},
		{"all NaN", wiener.Sym2{II: nan, IJ: nan, JJ: nan}, wiener.Sym2{II: nan, IJ: nan, JJ: nan}, wiener.FallbackNonFinite},
		{"both zero", wiener.Sym2{}, wiener.Sym2{}, wiener.FallbackZero},
		{"negative zero", wiener.Sym2{II: math.Copysign(0, -1)}, wiener.Sym2{}, wiener.FallbackZero},
		{"both negative definite", wiener.Sym2{II: -1, JJ: -2}, wiener.Sym2{II: -3, IJ: 1, JJ: -1}, wiener.FallbackProjected},
		{"T negative, R zero", wiener.Sym2{II: -1, IJ: 0.5, JJ: -1}, wiener.Sym2{}, wiener.FallbackProjected},
	} {
		sol := wiener.SolveDetailed(tc.T, tc.R)
		w, _ := wiener.Solve(tc.T, tc.R)
		if sol.W != [2]float64{1, 1} || w != sol.W || sol.Fallback != tc.why || sol.Fallback == "" ||
			sol.Candidate != "" || math.IsNaN(sol.Unconstrained[0]) || math.IsNaN(sol.Unconstrained[1]) {
			t.Errorf("%s: %+v, want W = (1,1) and fallback %q", tc.name, sol, tc.why)
		}
	}
}

// TestSolveTinyAndHugeFinite checks that finite extreme inputs never give NaN gains.
func TestSolveTinyAndHugeFinite(t *testing.T) {
	max, tiny := math.MaxFloat64, math.SmallestNonzeroFloat64
	for _, tc := range []struct {
		name string
		T, R wiener.Sym2
	}{
		{"max entries", wiener.Sym2{II: max, IJ: max, JJ: max}, wiener.Sym2{II: max, IJ: -max, JJ: max}},
		{"max vs tiny", wiener.Sym2{II: max, JJ: tiny}, wiener.Sym2{II: tiny, JJ: max}},
		{"subnormal", wiener.Sym2{II: 3 * tiny, IJ: tiny, JJ: 2 * tiny}, wiener.Sym2{II: tiny, JJ: tiny}},
		{"opposite extremes", wiener.Sym2{II: max, IJ: -max, JJ: -max}, wiener.Sym2{II: -max, IJ: max, JJ: max}},
	} {
		sol := wiener.SolveDetailed(tc.T, tc.R)
		w := sol.W
		if !(w[0] >= 0 && w[0] <= 1 && w[1] >= 0 && w[1] <= 1) {
			t.Errorf("%s: gains %v (%+v)", tc.name, w, sol)
		}
	}
}

// BenchmarkSolve times one solve on varied random moments.
func BenchmarkSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	var Ts, Rs [64]wiener.Sym2
	for i := range Ts {
		Ts[i], Rs[i] = randomMoments(rng)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		wiener.Solve(Ts[i%64], Rs[i%64])
		i++
	}
}

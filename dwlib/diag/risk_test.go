package diag_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/wiener"
	"gonum.org/v1/plot/plotter"
)

// Surface must plug into gonum's heat map and contour plotters.
var _ plotter.GridXYZ = diag.Surface{}

// correlated is the example of the package wiener's ExampleSolveDetailed: w_unc = (1.5, 0.2)
// leaves the box, clipping gives (1, 0.2), the constrained optimum is (1, 0.65) on the edge α = 1.
var (
	corrP = wiener.Sym2{II: 0.88, IJ: 0.8, JJ: 0.75}
	corrR = wiener.Sym2{II: 0.12, IJ: 0.1, JJ: 0.25}
)

func TestGridCoord(t *testing.T) {
	for _, n := range []int{2, 3, 7, 101} {
		if diag.GridCoord(0, n) != 0 || diag.GridCoord(n-1, n) != 1 {
			t.Errorf("n=%d: end points %v, %v, want exactly 0 and 1", n, diag.GridCoord(0, n), diag.GridCoord(n-1, n))
		}
		for i := 1; i < n; i++ {
			if d := diag.GridCoord(i, n) - diag.GridCoord(i-1, n); !close(d, 1/float64(n-1), 1e-14) {
				t.Errorf("n=%d: step %d is %v, want %v", n, i, d, 1/float64(n-1))
			}
		}
	}
}

// TestRiskGrid checks the grid against wiener.Risk at sample points, and against the two values
// Theorem 1 gives by hand: closed gains lose all predictable credit, 1ᵀP1, and fully open gains
// keep all innovation, 1ᵀR1.
func TestRiskGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name string
		P, R wiener.Sym2
		n    int
	}{
		{"correlated", corrP, corrR, 41},
		{"diagonal", wiener.Sym2{II: 2, JJ: 0.5}, wiener.Sym2{II: 0.5, JJ: 2}, 2},
		{"negative correlation", wiener.Sym2{II: 1, IJ: -0.4, JJ: 1}, wiener.Sym2{II: 0.3, IJ: 0.2, JJ: 0.9}, 17},
		{"random", randomPSD(rng, 1), randomPSD(rng, 0.5), 33},
	} {
		z := diag.RiskGrid(tc.P, tc.R, tc.n)
		if len(z) != tc.n || len(z[0]) != tc.n {
			t.Fatalf("%s: grid is %d×%d, want %d×%d", tc.name, len(z), len(z[0]), tc.n, tc.n)
		}
		one := [2]float64{1, 1}
		closed := tc.P.II + 2*tc.P.IJ + tc.P.JJ
		open := tc.R.II + 2*tc.R.IJ + tc.R.JJ
		if !close(z[0][0], closed, 1e-14) || !close(z[tc.n-1][tc.n-1], open, 1e-14) {
			t.Errorf("%s: corners (0,0)=%v (1,1)=%v, want 1ᵀP1=%v and 1ᵀR1=%v", tc.name, z[0][0], z[tc.n-1][tc.n-1], closed, open)
		}
		if got := wiener.Risk(one, tc.P, tc.R); got != z[tc.n-1][tc.n-1] {
			t.Errorf("%s: z[n-1][n-1] = %v, wiener.Risk(1,1) = %v", tc.name, z[tc.n-1][tc.n-1], got)
		}
		for range 20 {
			i, j := rng.IntN(tc.n), rng.IntN(tc.n)
			w := [2]float64{float64(i) / float64(tc.n-1), float64(j) / float64(tc.n-1)}
			if want := wiener.Risk(w, tc.P, tc.R); !close(z[i][j], want, 1e-14) {
				t.Errorf("%s: z[%d][%d] = %v, wiener.Risk(%v) = %v (first index must be α)", tc.name, i, j, z[i][j], w, want)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("RiskGrid(n=1) did not panic")
		}
	}()
	diag.RiskGrid(corrP, corrR, 1)
}

func TestSurface(t *testing.T) {
	z := diag.RiskGrid(corrP, corrR, 21)
	s := diag.Surface{Values: z}
	if c, r := s.Dims(); c != 21 || r != 21 {
		t.Fatalf("Dims = %d, %d, want 21, 21", c, r)
	}
	if s.X(20) != 1 || s.Y(0) != 0 || s.X(10) != 0.5 {
		t.Errorf("X(20)=%v Y(0)=%v X(10)=%v, want 1, 0, 0.5", s.X(20), s.Y(0), s.X(10))
	}
	if s.Z(20, 13) != wiener.Risk([2]float64{1, 0.65}, corrP, corrR) {
		t.Errorf("Z(20,13) = %v, want the risk at α=1, m=0.65", s.Z(20, 13))
	}
	lg := diag.Surface{Values: z, Transform: math.Log10}
	if !close(lg.Z(3, 4), math.Log10(z[3][4]), 1e-15) {
		t.Errorf("Transform not applied: %v vs log10(%v)", lg.Z(3, 4), z[3][4])
	}
	// The grid minimum of this example is the constrained optimum (1, 0.65), a grid point.
	w, zmin := s.ArgMin()
	if w != [2]float64{1, 0.65} || zmin != z[20][13] {
		t.Errorf("Min = %v at %v, want %v at (1, 0.65)", zmin, w, z[20][13])
	}
}

// TestUnconstrained checks w_unc = T⁻¹P1 against the scalar Wiener gain (uncorrelated routes),
// the worked example, the normal equations on random moments, and the solver's ridged value.
// TestRiskSurface checks a surface over a rectangle larger than the box: its coordinates, its
// values against wiener.Risk, and that its minimum is the unconstrained optimum w_unc = (1.5, 0.2)
// of the worked example (a grid point here), which lies outside [0,1]².
func TestRiskSurface(t *testing.T) {
	s := diag.RiskSurface(corrP, corrR, [2]float64{-0.5, -1}, [2]float64{2, 1.5}, 51)
	if s.X(0) != -0.5 || s.X(50) != 2 || s.Y(0) != -1 || s.Y(50) != 1.5 || !close(s.X(10), 0, 1e-15) {
		t.Errorf("corners X = %v..%v, Y = %v..%v, X(10) = %v", s.X(0), s.X(50), s.Y(0), s.Y(50), s.X(10))
	}
	for _, ij := range [][2]int{{0, 0}, {50, 50}, {7, 31}, {30, 17}} {
		w := [2]float64{s.X(ij[0]), s.Y(ij[1])}
		if want := wiener.Risk(w, corrP, corrR); s.Z(ij[0], ij[1]) != want {
			t.Errorf("Z%v at %v = %v, want %v", ij, w, s.Z(ij[0], ij[1]), want)
		}
	}
	w, z := s.ArgMin()
	if !close2(w, [2]float64{1.5, 0.2}, 1e-12) || !close(z, 0.4, 1e-12) {
		t.Errorf("minimum %v at %v, want 0.4 at w_unc = (1.5, 0.2)", z, w)
	}
	for _, bad := range [][2][2]float64{{{0, 0}, {0, 1}}, {{1, 0}, {0, 1}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RiskSurface(lo %v, hi %v) did not panic", bad[0], bad[1])
				}
			}()
			diag.RiskSurface(corrP, corrR, bad[0], bad[1], 5)
		}()
	}
}

func TestUnconstrained(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name string
		P, R wiener.Sym2
		want [2]float64
	}{
		{"uncorrelated = scalar Wiener", wiener.Sym2{II: 3, JJ: 1}, wiener.Sym2{II: 1, JJ: 3}, [2]float64{0.75, 0.25}},
		{"worked example", corrP, corrR, [2]float64{1.5, 0.2}},
		{"no noise", wiener.Sym2{II: 2, IJ: 0.3, JJ: 1}, wiener.Sym2{}, [2]float64{1, 1}},
	} {
		w, ok := diag.Unconstrained(tc.P, tc.R)
		if !ok || !close2(w, tc.want, 1e-13) {
			t.Errorf("%s: Unconstrained = %v (ok %v), want %v", tc.name, w, ok, tc.want)
		}
	}
	for i := range 200 {
		P, R := randomPSD(rng, 1), randomPSD(rng, math.Pow(10, 2*rng.Float64()-1))
		w, ok := diag.Unconstrained(P, R)
		if !ok {
			t.Fatalf("case %d: not ok for PD T", i)
		}
		T := P.Add(R)
		r0 := T.II*w[0] + T.IJ*w[1] - (P.II + P.IJ)
		r1 := T.IJ*w[0] + T.JJ*w[1] - (P.IJ + P.JJ)
		if math.Abs(r0)+math.Abs(r1) > 1e-10*(T.Trace()*(1+math.Abs(w[0])+math.Abs(w[1]))) {
			t.Fatalf("case %d: T w - P1 = (%g, %g)", i, r0, r1)
		}
		sol := wiener.SolveDetailed(T, R)
		// The solver's ridge 1e-6·tr(T) moves w_unc by about 1e-6·cond(T)·|w|: compare only on
		// well-conditioned T.
		l1, l2 := T.Eigen()
		if d := math.Hypot(sol.Unconstrained[0]-w[0], sol.Unconstrained[1]-w[1]); l2 > 1e-2*l1 && d > 1e-3*math.Hypot(w[0], w[1]) {
			t.Fatalf("case %d: exact %v vs solver (ridged) %v", i, w, sol.Unconstrained)
		}
	}
	if _, ok := diag.Unconstrained(wiener.Sym2{II: 1, IJ: 1, JJ: 1}, wiener.Sym2{}); ok {
		t.Error("singular T accepted")
	}
}

func TestClip(t *testing.T) {
	for _, tc := range [][2][2]float64{
		{{1.5, 0.2}, {1, 0.2}}, {{-0.3, 2}, {0, 1}}, {{0.4, 0.6}, {0.4, 0.6}}, {{1, 0}, {1, 0}},
	} {
		if got := diag.Clip(tc[0]); got != tc[1] {
			t.Errorf("Clip(%v) = %v, want %v", tc[0], got, tc[1])
		}
	}
}

// TestClippedVsConstrained checks the Appendix C.4 claim on both sides: with correlated routes
// clipping can be strictly worse than the true constrained optimum, with uncorrelated routes (T
// diagonal, so the T-metric projection is coordinatewise) the two coincide, and inside the box all
// three optima coincide. It also checks the constrained optimum against a brute-force grid.
func TestClippedVsConstrained(t *testing.T) {
	for _, tc := range []struct {
		name            string
		P, R            wiener.Sym2
		wantConstrained [2]float64
		clipWorseBy     float64 // RiskClipped - RiskConstrained at least this (0: equal)
	}{
		// Risk(w) = Risk(w_unc) + (w-w_unc)ᵀT(w-w_unc), T = [[1 .9] [.9 1]]: clipped d = (-.5, 0)
		// gives 0.25, constrained d = (-.5, .45) gives 0.25 - 0.405 + 0.2025 = 0.0475.
		{"correlated, leaves box", corrP, corrR, [2]float64{1, 0.65}, 0.2025 - 1e-9},
		// T = diag(1.2, 2.4) although P and R are correlated: w_unc = (1.6/1.2, 1/2.4) = (4/3, 5/12)
		// leaves the box and the T-metric projection is the coordinatewise clip (1, 5/12).
		{"uncorrelated T, leaves box", wiener.Sym2{II: 1, IJ: 0.6, JJ: 0.4}, wiener.Sym2{II: 0.2, IJ: -0.6, JJ: 2}, [2]float64{1, 5.0 / 12}, 0},
		{"interior", wiener.Sym2{II: 1, IJ: 0.2, JJ: 0.6}, wiener.Sym2{II: 0.3, IJ: 0.05, JJ: 0.5}, [2]float64{math.NaN(), 0}, 0},
	} {
		c, err := diag.ClippedVsConstrained(tc.P, tc.R)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !math.IsNaN(tc.wantConstrained[0]) && !close2(c.Constrained, tc.wantConstrained, 1e-6) {
			t.Errorf("%s: constrained %v, want %v", tc.name, c.Constrained, tc.wantConstrained)
		}
		gap := c.RiskClipped - c.RiskConstrained
		switch {
		case tc.clipWorseBy > 0 && gap < tc.clipWorseBy:
			t.Errorf("%s: clipping costs %v extra risk, want at least %v", tc.name, gap, tc.clipWorseBy)
		case tc.clipWorseBy == 0 && math.Abs(gap) > 1e-9:
			t.Errorf("%s: clipped %v and constrained %v risks differ by %v, want equal", tc.name, c.Clipped, c.Constrained, gap)
		}
		if tc.name == "interior" && (c.Candidate != wiener.CandInterior || !close2(c.Constrained, c.Unconstrained, 1e-5)) {
			t.Errorf("interior: constrained %v (%s), unconstrained %v", c.Constrained, c.Candidate, c.Unconstrained)
		}
		tol := 1e-9 * c.RiskOpen // the solver's interior point carries its ridge
		if !(c.RiskUnconstrained <= c.RiskConstrained+tol && c.RiskConstrained <= c.RiskClipped+tol && c.RiskConstrained <= c.RiskOpen+tol) {
			t.Errorf("%s: risks out of order: unc %v, constrained %v, clipped %v, open %v", tc.name,
				c.RiskUnconstrained, c.RiskConstrained, c.RiskClipped, c.RiskOpen)
		}
		// No point of a fine grid beats the constrained optimum, and the grid gets close to it.
		_, zmin := diag.Surface{Values: diag.RiskGrid(tc.P, tc.R, 201)}.ArgMin()
		if zmin < c.RiskConstrained-1e-9 || zmin > c.RiskConstrained+1e-3 {
			t.Errorf("%s: grid minimum %v, constrained risk %v", tc.name, zmin, c.RiskConstrained)
		}
		pts := c.Points()
		if len(pts) != 4 || pts[1].Risk != c.RiskClipped || pts[2].Alpha != c.Constrained[0] || pts[3].Risk != c.RiskOpen {
			t.Errorf("%s: Points() = %+v does not match the comparison", tc.name, pts)
		}
	}
	if _, err := diag.ClippedVsConstrained(wiener.Sym2{}, wiener.Sym2{}); err == nil {
		t.Error("zero moments accepted")
	}
}

// TestLevelSet checks that every point of the drawn ellipse has the requested risk, that the
// tangent level through w* touches the box only at w* in the worked example, and the failures.
func TestLevelSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	cases := []struct {
		name string
		P, R wiener.Sym2
	}{
		{"correlated", corrP, corrR},
		{"isotropic T", wiener.Sym2{II: 0.5, JJ: 0.5}, wiener.Sym2{II: 0.5, JJ: 0.5}},
		{"diagonal T", wiener.Sym2{II: 2, JJ: 0.5}, wiener.Sym2{II: 1, JJ: 3}},
		{"negative correlation", wiener.Sym2{II: 1, IJ: -0.4, JJ: 1}, wiener.Sym2{II: 0.3, IJ: 0.2, JJ: 0.9}},
		{"random", randomPSD(rng, 1), randomPSD(rng, 0.3)},
	}
	for _, tc := range cases {
		wu, _ := diag.Unconstrained(tc.P, tc.R)
		r0 := wiener.Risk(wu, tc.P, tc.R)
		for _, excess := range []float64{0, 0.01, 0.3, 2} {
			pts, ok := diag.LevelSet(tc.P, tc.R, r0+excess, 36)
			if !ok || len(pts) != 37 || pts[0] != pts[36] {
				t.Fatalf("%s: LevelSet(+%v) gave %d points, ok %v, closed %v", tc.name, excess, len(pts), ok, ok && pts[0] == pts[36])
			}
			for k, w := range pts {
				if got := wiener.Risk(w, tc.P, tc.R); math.Abs(got-(r0+excess)) > 1e-12*(1+r0+excess) {
					t.Fatalf("%s: point %d %v has risk %v, want %v", tc.name, k, w, got, r0+excess)
				}
			}
		}
		if _, ok := diag.LevelSet(tc.P, tc.R, r0-1e-6, 8); ok {
			t.Errorf("%s: level below the minimum accepted", tc.name)
		}
	}
	// Worked example: the level through w* = (1, 0.65) stays in α ≥ 1 (it touches the edge).
	pts, _ := diag.LevelSet(corrP, corrR, 0.4475, 3600)
	minA := math.Inf(1)
	for _, w := range pts {
		minA = math.Min(minA, w[0])
	}
	if math.Abs(minA-1) > 1e-5 {
		t.Errorf("tangent ellipse reaches α = %v, want 1", minA)
	}
	if _, ok := diag.LevelSet(wiener.Sym2{II: 1, IJ: 1, JJ: 1}, wiener.Sym2{}, 1, 8); ok {
		t.Error("singular T accepted")
	}
}

package diag

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// GridCoord returns the i-th of n equally spaced points of [0, 1], i/(n-1), with the end points
// exact. It is the coordinate of row or column i of RiskGrid.
func GridCoord(i, n int) float64 {
	if i == n-1 {
		return 1
	}
	return float64(i) / float64(n-1)
}

// RiskGrid evaluates the route risk of Theorem 1 (paper, Eq. dual-wiener-risk),
//
//	Risk(α, m) = (w-1)ᵀP(w-1) + wᵀRw,  w = (α, m),
//
// on an n×n grid of the box [0,1]²: z[i][j] = wiener.Risk((GridCoord(i,n), GridCoord(j,n)), P, R),
// so the first index is α (identity route) and the second m (nonlinear route). It panics if n < 2.
func RiskGrid(P, R wiener.Sym2, n int) [][]float64 {
	if n < 2 {
		panic(fmt.Sprintf("diag.RiskGrid: n = %d, want at least 2", n))
	}
	z := make([][]float64, n)
	for i := range n {
		z[i] = make([]float64, n)
		for j := range n {
			z[i][j] = wiener.Risk([2]float64{GridCoord(i, n), GridCoord(j, n)}, P, R)
		}
	}
	return z
}

// RiskSurface evaluates the route risk on an n×n grid of the rectangle [lo[0], hi[0]] ×
// [lo[1], hi[1]] of (α, m) and returns it as a Surface. A rectangle larger than the box shows
// where the unconstrained optimum sits and the elliptic level sets of the risk around it
// (Risk(w) = Risk(w_unc) + (w-w_unc)ᵀT(w-w_unc), Appendix C.1). It panics if n < 2 or hi ≤ lo.
func RiskSurface(P, R wiener.Sym2, lo, hi [2]float64, n int) Surface {
	if n < 2 || !(hi[0] > lo[0]) || !(hi[1] > lo[1]) {
		panic(fmt.Sprintf("diag.RiskSurface: n = %d, lo = %v, hi = %v: want n ≥ 2 and hi > lo", n, lo, hi))
	}
	s := Surface{Lo: lo, Hi: hi, Values: make([][]float64, n)}
	for i := range n {
		s.Values[i] = make([]float64, n)
		for j := range n {
			s.Values[i][j] = wiener.Risk([2]float64{s.X(i), s.Y(j)}, P, R)
		}
	}
	return s
}

// Surface adapts a grid of values over a rectangle of (α, m) to gonum/plot's plotter.GridXYZ
// (plotter.NewHeatMap, plotter.NewContour), with α on the x axis and m on the y axis.
//
// Values[i][j] sits at α = Lo[0] + (Hi[0]-Lo[0])·GridCoord(i, n) and m likewise with j. When Lo
// and Hi are both zero (the zero value, e.g. Surface{Values: RiskGrid(P, R, n)}) the rectangle is
// the box [0,1]² of RiskGrid. Transform, if not nil, is applied to every value by Z (e.g.
// math.Log10 for a risk that varies over decades).
type Surface struct {
	Values    [][]float64
	Lo, Hi    [2]float64
	Transform func(float64) float64
}

// bounds returns the rectangle, [0,1]² for the zero value.
func (s Surface) bounds() (lo, hi [2]float64) {
	if s.Lo == ([2]float64{}) && s.Hi == ([2]float64{}) {
		return [2]float64{0, 0}, [2]float64{1, 1}
	}
	return s.Lo, s.Hi
}

// Dims returns the number of columns (α values) and rows (m values).
func (s Surface) Dims() (c, r int) { return len(s.Values), len(s.Values[0]) }

// X returns α of column c.
func (s Surface) X(c int) float64 {
	lo, hi := s.bounds()
	return lo[0] + (hi[0]-lo[0])*GridCoord(c, len(s.Values))
}

// Y returns m of row r.
func (s Surface) Y(r int) float64 {
	lo, hi := s.bounds()
	return lo[1] + (hi[1]-lo[1])*GridCoord(r, len(s.Values[0]))
}

// Z returns the (transformed) value at column c, row r.
func (s Surface) Z(c, r int) float64 {
	if s.Transform != nil {
		return s.Transform(s.Values[c][r])
	}
	return s.Values[c][r]
}

// ArgMin returns the smallest (untransformed) value of the grid and its (α, m).
func (s Surface) ArgMin() (w [2]float64, z float64) {
	z = math.Inf(1)
	for i, row := range s.Values {
		for j, v := range row {
			if v < z {
				z, w = v, [2]float64{s.X(i), s.Y(j)}
			}
		}
	}
	return w, z
}

// Unconstrained returns the exact unconstrained minimiser of Theorem 1, w_unc = T⁻¹P1 with
// T = P + R (paper, Eq. oracle-internal-dw-optimum), by Cramer's rule and without the solver's
// ridge. ok is false when T is not positive definite (w_unc is then not unique).
func Unconstrained(P, R wiener.Sym2) (w [2]float64, ok bool) {
	T := P.Add(R)
	det := T.Det()
	if !(det > 0) || !(T.II > 0) {
		return [2]float64{math.NaN(), math.NaN()}, false
	}
	return solve2(T, det, P.II+P.IJ, P.IJ+P.JJ), true // T⁻¹P1
}

// Clip returns w with each coordinate clamped to [0, 1]: the naive way to put w_unc into the box,
// which Appendix C.4 warns against.
func Clip(w [2]float64) [2]float64 {
	return [2]float64{math.Min(1, math.Max(0, w[0])), math.Min(1, math.Max(0, w[1]))}
}

// Point is a named gain pair and its route risk, one row of a Comparison table. The struct tags
// are read by kernelext.TableOf.
type Point struct {
	Name  string  `table:"point"`
	Alpha float64 `table:"alpha,%.4f"`
	M     float64 `table:"m,%.4f"`
	Risk  float64 `table:"risk,%.5f"`
}

// Comparison contrasts, for one (P, R), the four points of the route-risk picture: the
// unconstrained optimum, its coordinatewise clipping, the true constrained optimum (what
// wiener.SolveDetailed returns) and fully open BPTT, w = (1,1).
type Comparison struct {
	P, R          wiener.Sym2
	Unconstrained [2]float64 // exact T⁻¹P1, may lie outside the box
	Clipped       [2]float64 // Clip(Unconstrained)
	Constrained   [2]float64 // wiener.SolveDetailed(P+R, R).W
	Candidate     string     // which candidate of the solve won (interior, an edge, a corner)

	RiskUnconstrained, RiskClipped, RiskConstrained, RiskOpen float64
}

// ClippedVsConstrained computes the Comparison for signal moment P and noise moment R (both PSD,
// P + R positive definite). Theorem 1 says w* is the T-metric projection of w_unc onto the box,
// so with correlated routes (T.IJ ≠ 0) clipping can leave risk on the table; Appendix C.4's
// candidate enumeration finds the true minimiser. Always RiskUnconstrained ≤ RiskConstrained ≤
// min(RiskClipped, RiskOpen).
func ClippedVsConstrained(P, R wiener.Sym2) (Comparison, error) {
	wu, ok := Unconstrained(P, R)
	if !ok {
		return Comparison{}, fmt.Errorf("diag.ClippedVsConstrained: T = P + R = %+v is not positive definite", P.Add(R))
	}
	sol := wiener.SolveDetailed(P.Add(R), R)
	if sol.Fallback != "" {
		return Comparison{}, fmt.Errorf("diag.ClippedVsConstrained: solver fell back to BPTT: %s", sol.Fallback)
	}
	c := Comparison{P: P, R: R, Unconstrained: wu, Clipped: Clip(wu), Constrained: sol.W, Candidate: sol.Candidate}
	c.RiskUnconstrained = wiener.Risk(c.Unconstrained, P, R)
	c.RiskClipped = wiener.Risk(c.Clipped, P, R)
	c.RiskConstrained = wiener.Risk(c.Constrained, P, R)
	c.RiskOpen = wiener.Risk([2]float64{1, 1}, P, R)
	return c, nil
}

// Points returns the four points of c as table rows, in the order unconstrained, clipped,
// constrained, open.
func (c Comparison) Points() []Point {
	return []Point{
		{"unconstrained w_unc = T^-1 P 1", c.Unconstrained[0], c.Unconstrained[1], c.RiskUnconstrained},
		{"clipped to [0,1]^2", c.Clipped[0], c.Clipped[1], c.RiskClipped},
		{"constrained optimum w* (" + c.Candidate + ")", c.Constrained[0], c.Constrained[1], c.RiskConstrained},
		{"fully open BPTT (1,1)", 1, 1, c.RiskOpen},
	}
}

// LevelSet returns n+1 points (the first repeated at the end) of the level set {w : Risk(w) =
// level} of the route risk, an ellipse. Completing the square (paper, Appendix C.1) gives
//
//	Risk(w) = Risk(w_unc) + (w - w_unc)ᵀ T (w - w_unc),
//
// so the level set is w_unc + √(level - Risk(w_unc))·T^(-1/2)·(cos θ, sin θ). Drawing these
// ellipses shows why the box-constrained optimum is the T-metric projection of w_unc: it is where
// the smallest ellipse touches the box. ok is false when T = P + R is not positive definite or
// level is below the minimum risk. n must be at least 3.
func LevelSet(P, R wiener.Sym2, level float64, n int) (pts [][2]float64, ok bool) {
	if n < 3 {
		panic(fmt.Sprintf("diag.LevelSet: n = %d, want at least 3", n))
	}
	wu, ok := Unconstrained(P, R)
	if !ok {
		return nil, false
	}
	excess := level - wiener.Risk(wu, P, R)
	if !(excess >= 0) {
		return nil, false
	}
	T := P.Add(R)
	l1, l2 := T.Eigen()
	// Unit eigenvector of l1 (the one of l2 is its rotation by 90°).
	var u [2]float64
	if a, b := [2]float64{T.IJ, l1 - T.II}, [2]float64{l1 - T.JJ, T.IJ}; math.Hypot(a[0], a[1]) >= math.Hypot(b[0], b[1]) {
		u = a
	} else {
		u = b
	}
	if h := math.Hypot(u[0], u[1]); h > 0 {
		u = [2]float64{u[0] / h, u[1] / h}
	} else {
		u = [2]float64{1, 0} // T is a multiple of the identity: any basis will do.
	}
	r1, r2 := math.Sqrt(excess/l1), math.Sqrt(excess/l2)
	pts = make([][2]float64, n+1)
	for k := range n {
		th := 2 * math.Pi * float64(k) / float64(n)
		a, b := r1*math.Cos(th), r2*math.Sin(th)
		pts[k] = [2]float64{wu[0] + a*u[0] - b*u[1], wu[1] + a*u[1] + b*u[0]}
	}
	pts[n] = pts[0]
	return pts, true
}

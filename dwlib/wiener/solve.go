package wiener

import "math"

// RidgeFactor sets the ridge ε = RidgeFactor·tr(P+R) added to the diagonal of T = P + R, only for
// the 2×2 inverse that gives the unconstrained optimum (paper, Appendix C.4). Edges, corners and the
// risk comparison use the un-ridged moments.
const RidgeFactor = 1e-6

// TieFactor sets the risk tolerance TieFactor·tr(T) within which two candidates count as tied.
// Ties go to the more open point (larger alpha+m): when the data cannot tell two gains apart, the
// solver stays as close as it can to plain BPTT, w = (1,1). The chosen risk exceeds the minimum by
// at most this tolerance, and never exceeds Risk(1,1).
const TieFactor = 1e-12

// Candidate names reported in Solution.Candidate.
const (
	CandInterior = "interior"
	CandEdgeA0   = "edge alpha=0"
	CandEdgeA1   = "edge alpha=1"
	CandEdgeM0   = "edge m=0"
	CandEdgeM1   = "edge m=1"
	CandCorner11 = "corner (1,1)"
	CandCorner10 = "corner (1,0)"
	CandCorner01 = "corner (0,1)"
	CandCorner00 = "corner (0,0)"
)

// Fallback reasons reported in Solution.Fallback.
const (
	FallbackNonFinite = "non-finite moments: NaN or Inf in T or R"
	FallbackZero      = "zero moments: T = R = 0"
	FallbackProjected = "no route energy: P + R = 0 after PSD projection"
)

// Solution carries the solve's details for diagnostics.
type Solution struct {
	// W holds the chosen gains (alpha, m), always finite and in [0,1]².
	W [2]float64

	// P, R and T are the PSD-projected moments actually used: R = Π_PSD(R̂), P = Π_PSD(Π_PSD(T̂)-R),
	// T = P + R. They are zero on the non-finite and zero-moment fallbacks.
	P, R, T Sym2

	// Unconstrained is (T + εI)⁻¹P1, with the ridge; it may lie outside the box. It is (1,1) on
	// fallback.
	Unconstrained [2]float64

	// Candidate names the winner: "interior", "edge alpha=0", "edge alpha=1", "edge m=0",
	// "edge m=1" or "corner (a,m)". When an edge minimiser lands on a corner it is reported as that
	// corner. Empty on fallback.
	Candidate string

	// Fallback is "" normally; otherwise it says why the fully open gains (1,1) were returned.
	Fallback string
}

// Solve returns the Internal-DW gains w = (alpha, m) in [0,1]² for the estimated total moment T
// and noise moment R, together with the predictable moment P = Π_PSD(Π_PSD(T) - Π_PSD(R)) it used.
// See SolveDetailed.
func Solve(T, R Sym2) (w [2]float64, P Sym2) {
	s := SolveDetailed(T, R)
	return s.W, s.P
}

// SolveDetailed minimises Risk over [0,1]² for the estimated total moment T and noise moment R,
// as in the paper's Appendix C.4, and reports how it got there.
//
// It evaluates Risk at w_unc (if inside the box), at the exact minimiser of each edge and at the
// four corners, and keeps the smallest; candidates within TieFactor·tr(T) of the smallest risk are
// tied and go to the largest alpha+m. An edge whose free coordinate has zero curvature makes the
// risk linear along it; its minimiser is then the endpoint with the lower risk (the 1 end on a
// tie).
//
// The solve runs on T and R rescaled by a power of two so that their largest entry is below 1:
// the gains are scale invariant, the rescaling is exact, and it keeps determinants and products
// from overflowing for huge or tiny moments. The reported P, R and T are scaled back.
//
// NaN/Inf inputs, T = R = 0, or P + R = 0 after projection give W = (1,1) and a Fallback reason.
func SolveDetailed(T, R Sym2) Solution {
	open := [2]float64{1, 1}
	if !T.IsFinite() || !R.IsFinite() {
		return Solution{W: open, Unconstrained: open, Fallback: FallbackNonFinite}
	}
	top := math.Max(T.maxAbs(), R.maxAbs())
	if top == 0 {
		return Solution{W: open, Unconstrained: open, Fallback: FallbackZero}
	}
	_, exp := math.Frexp(top)
	Rs := ProjectPSD(R.ldexp(-exp))
	Ps := ProjectPSD(ProjectPSD(T.ldexp(-exp)).Sub(Rs))
	Ts := Ps.Add(Rs)
	sol := Solution{P: Ps.ldexp(exp), R: Rs.ldexp(exp), T: Ts.ldexp(exp)}
	tr := Ts.Trace()
	if !(tr > 0) {
		sol.W, sol.Unconstrained, sol.Fallback = open, open, FallbackProjected
		return sol
	}

	// b = P1 is the right-hand side of the normal equations T w = P1.
	b := [2]float64{Ps.II + Ps.IJ, Ps.IJ + Ps.JJ}
	var cands [9]candidate
	n := 0
	add := func(name string, a, m float64) {
		w := [2]float64{a, m}
		cands[n] = candidate{name: name, w: w, risk: Risk(w, Ps, Rs)}
		n++
	}
	// Corners first, so that an edge minimiser clamped onto a corner is reported as the corner.
	add(CandCorner11, 1, 1)
	add(CandCorner10, 1, 0)
	add(CandCorner01, 0, 1)
	add(CandCorner00, 0, 0)
	edges := [2]struct {
		alphaName, mName string
		fixed            float64
	}{{CandEdgeA0, CandEdgeM0, 0}, {CandEdgeA1, CandEdgeM1, 1}}
	for _, edge := range edges {
		// Edge alpha = fixed: Risk = T.JJ·m² - 2m(b2 - T.IJ·fixed) + const.
		m := edgeMin(Ts.JJ, b[1]-Ts.IJ*edge.fixed, func(m float64) float64 {
			return Risk([2]float64{edge.fixed, m}, Ps, Rs)
		})
		add(edge.alphaName, edge.fixed, m)
		// Edge m = fixed: Risk = T.II·alpha² - 2alpha(b1 - T.IJ·fixed) + const.
		a := edgeMin(Ts.II, b[0]-Ts.IJ*edge.fixed, func(a float64) float64 {
			return Risk([2]float64{a, edge.fixed}, Ps, Rs)
		})
		add(edge.mName, a, edge.fixed)
	}

	// Unconstrained optimum through the ridged 2×2 inverse.
	sol.Unconstrained = [2]float64{math.NaN(), math.NaN()}
	eps := RidgeFactor * tr
	tII, tJJ := Ts.II+eps, Ts.JJ+eps
	if det := tII*tJJ - Ts.IJ*Ts.IJ; det > 0 {
		wu := [2]float64{(tJJ*b[0] - Ts.IJ*b[1]) / det, (tII*b[1] - Ts.IJ*b[0]) / det}
		if isFinite(wu[0]) && isFinite(wu[1]) {
			sol.Unconstrained = wu
			if inBox(wu[0]) && inBox(wu[1]) {
				add(CandInterior, wu[0], wu[1])
			}
		}
	}

	best := pick(cands[:n], TieFactor*tr)
	sol.W, sol.Candidate = best.w, best.name
	return sol
}

// candidate is one point evaluated by SolveDetailed.
type candidate struct {
	name string
	w    [2]float64
	risk float64
}

// pick returns the candidate with the smallest risk, where risks within tol of the smallest are
// tied; ties go to the larger alpha+m, then to the lower risk, then to the earlier candidate.
func pick(cands []candidate, tol float64) candidate {
	minRisk := math.Inf(1)
	for _, c := range cands {
		minRisk = math.Min(minRisk, c.risk)
	}
	best := -1
	for i, c := range cands {
		if c.risk > minRisk+tol {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		bs, cs := cands[best].w[0]+cands[best].w[1], c.w[0]+c.w[1]
		if cs > bs || (cs == bs && c.risk < cands[best].risk) {
			best = i
		}
	}
	return cands[best]
}

// edgeMin returns the minimiser over [0,1] of the 1-D quadratic curv·x² - 2·lin·x + const, whose
// values risk evaluates. With positive curvature it is lin/curv clamped to [0,1]. With zero
// curvature (a route with no energy; PSD rules out negative) the quadratic is linear, so the
// endpoint with the lower risk wins and a tie goes to 1, the open end.
func edgeMin(curv, lin float64, risk func(float64) float64) float64 {
	if curv > 0 {
		return clamp01(lin / curv)
	}
	if risk(0) < risk(1) {
		return 0
	}
	return 1
}

// clamp01 clamps x to [0,1]; ±Inf map to the bounds.
func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// inBox reports whether x is in [0,1].
func inBox(x float64) bool { return x >= 0 && x <= 1 }

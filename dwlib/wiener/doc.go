// Package wiener solves the two-route Wiener problem of Internal-DW: given the route moments of a
// residual block, it returns the backward gains (alpha, m) that weight the identity route and the
// nonlinear route.
//
// # Why
//
// Internal-DW replaces the backward map v ↦ v + J_Fᵀv of a residual block y = x + F(x) by
// v ↦ alpha·v + m·J_Fᵀv (paper, Eq. dual-route-jacobian). Stack the two route gradients as
// d = [d_I d_F] and split them into the predictable part s and the innovation n, d = s + n. The
// 2×2 route moments are then T = E[dᵀd] = P + R with P = E[sᵀs] and R = E[nᵀn]
// (Eq. route-moment-decomposition). Theorem 1 (Eq. dual-wiener-risk) shows that the mean squared
// error of the routed message against the fully open predictable target is
//
//	Risk(w) = (w-1)ᵀ P (w-1) + wᵀ R w,   w = (alpha, m),
//
// a quadratic whose first term is the predictable credit lost by closing routes and whose second
// is the innovation kept by leaving them open. Its unconstrained minimiser is w_unc = T⁻¹P1 and the
// gains Internal-DW applies are the minimiser over the box [0,1]² (Eq.
// oracle-internal-dw-optimum): the box forbids sign reversal and amplification of a route. Since
// w = (1,1) is ordinary BPTT and is feasible, Risk(w*) ≤ Risk(1,1) = 1ᵀR1 (Eq.
// internal-dw-vs-bptt-risk). For a single route the solution reduces to the scalar Wiener gain
// P/(P+R).
//
// # How (paper, Appendix C.4)
//
// The moments reaching the solver are plug-in estimates (EMAs of T̂ and R̂, Eq.
// plugin-route-moments), so they need not be consistent. SolveDetailed therefore
//
//  1. projects T̂ and R̂ onto the PSD cone (ProjectPSD), R = Π_PSD(R̂), and sets
//     P = Π_PSD(Π_PSD(T̂) - R) and T = P + R;
//  2. computes w_unc = (T + εI)⁻¹ P1 with the ridge ε = 10⁻⁶·tr(P+R), used only for this 2×2
//     inverse;
//  3. evaluates Risk (with the un-ridged P and R) at w_unc when it lies in the box, at the exact
//     1-D minimiser of each of the four edges, and at the four corners, and keeps the smallest.
//
// Clipping w_unc to the box is not enough: when the routes are correlated the T-metric projection
// of w_unc onto the box (which is what the constrained minimiser is) can move the other
// coordinate too. Candidate enumeration is exact for a convex quadratic on a 2-D box, because the
// minimiser is either interior (then it is w_unc) or on an edge or corner.
//
// Degenerate inputs (NaN/Inf, all-zero moments, moments with no PSD part) never produce NaN
// gains: the solver returns the fully open gains (1,1), i.e. plain BPTT, and says why in
// Solution.Fallback.
package wiener

package diag

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// This file follows Appendix D.3, "How sampler error changes the estimated gains": the gains are
// solved from estimated moments T̂ = T + ΔT (open-route probes) and R̂ = R + ΔR (the noise
// sampler), and the error of those estimates reaches the route risk through the gains.

// FirstOrderGainError is the linear term of eq. plugin-gain-perturbation: the change of the
// unconstrained gains w_unc = T⁻¹(T−R)1 when T and R are estimated as T+dT and R+dR,
//
//	T⁻¹[dT(1 − w_unc) − dR 1].
//
// It predicts the solved gains' error only while w_unc is inside [0,1]² and the box and the PSD
// projection stay inactive. Because w_unc is linear in R, the term is exact when dT = 0. T must be
// positive definite.
func FirstOrderGainError(T, R, dT, dR wiener.Sym2) ([2]float64, error) {
	det := T.Det()
	if !(T.II > 0) || !(det > 0) {
		return [2]float64{}, fmt.Errorf("diag.FirstOrderGainError: T = %+v is not positive definite", T)
	}
	w := solve2(T, det, T.II-R.II+T.IJ-R.IJ, T.IJ-R.IJ+T.JJ-R.JJ) // T⁻¹(T−R)1
	a, b := 1-w[0], 1-w[1]
	r0 := dT.II*a + dT.IJ*b - (dR.II + dR.IJ)
	r1 := dT.IJ*a + dT.JJ*b - (dR.IJ + dR.JJ)
	return solve2(T, det, r0, r1), nil
}

// solve2 returns T⁻¹(r0, r1) by Cramer's rule, given det = det T.
func solve2(T wiener.Sym2, det, r0, r1 float64) [2]float64 {
	return [2]float64{(T.JJ*r0 - T.IJ*r1) / det, (T.II*r1 - T.IJ*r0) / det}
}

// GainErrorRisk is eq. plugin-excess-risk for a sample of estimated gains ŵ: their mean excess
// route risk over the optimum w_unc, split into the part due to their bias b = mean(ŵ) − w_unc
// and the part due to their spread V (covariance with divisor n):
//
//	Excess = mean[(ŵ − w_unc)ᵀT(ŵ − w_unc)] = bᵀTb + tr(TV) = BiasRisk + VarianceRisk.
//
// The split is exact, not an approximation: the route risk is quadratic in w with Hessian 2T and
// its minimum at w_unc, so R(ŵ) − R(w_unc) = (ŵ − w_unc)ᵀT(ŵ − w_unc) for any ŵ, clipped or not.
type GainErrorRisk struct {
	Mean, Bias   [2]float64 // mean(ŵ) and b = mean(ŵ) − w_unc
	BiasRisk     float64    // bᵀTb: what more probes cannot remove (sampler-model mismatch)
	VarianceRisk float64    // tr(TV): what more probes remove (finite-sample error)
	Excess       float64    // BiasRisk + VarianceRisk
}

// DecomposeGainError computes GainErrorRisk for the gains against the true moments (P, R),
// whose unconstrained optimum must lie inside [0,1]² (otherwise w_unc is not the best gain pair
// in the box and the excess over it is not a risk the solver could avoid).
func DecomposeGainError(P, R wiener.Sym2, gains [][2]float64) (GainErrorRisk, error) {
	if len(gains) == 0 {
		return GainErrorRisk{}, fmt.Errorf("diag.DecomposeGainError: no gains")
	}
	w, ok := Unconstrained(P, R)
	if !ok {
		return GainErrorRisk{}, fmt.Errorf("diag.DecomposeGainError: T = P + R = %+v is not positive definite", P.Add(R))
	}
	if w[0] < 0 || w[0] > 1 || w[1] < 0 || w[1] > 1 {
		return GainErrorRisk{}, fmt.Errorf("diag.DecomposeGainError: w_unc = (%.4g, %.4g) is outside [0,1]²", w[0], w[1])
	}
	T := P.Add(R)
	var out GainErrorRisk
	for i, g := range gains {
		if math.IsNaN(g[0]) || math.IsNaN(g[1]) {
			return GainErrorRisk{}, fmt.Errorf("diag.DecomposeGainError: gains[%d] = %v is not finite", i, g)
		}
		out.Mean[0] += g[0]
		out.Mean[1] += g[1]
	}
	n := float64(len(gains))
	out.Mean = [2]float64{out.Mean[0] / n, out.Mean[1] / n}
	out.Bias = [2]float64{out.Mean[0] - w[0], out.Mean[1] - w[1]}
	var V wiener.Sym2
	for _, g := range gains {
		a, b := g[0]-out.Mean[0], g[1]-out.Mean[1]
		V = V.Add(wiener.Sym2{II: a * a / n, IJ: a * b / n, JJ: b * b / n})
	}
	out.BiasRisk = T.Quad(out.Bias[0], out.Bias[1])
	out.VarianceRisk = T.II*V.II + 2*T.IJ*V.IJ + T.JJ*V.JJ // tr(TV)
	out.Excess = out.BiasRisk + out.VarianceRisk
	return out, nil
}

// SampledGains simulates the calibration of Section 3 on a two-route toy with known moments: each
// of reps repeats draws n open-route vectors z = s + ν (s ~ N(0, P), ν ~ N(0, R)) for T̂ and n
// sampler draws of the noise for R̂, scaled by samplerScale (1: a correctly specified sampler;
// 0.5: one that finds half the noise), and returns the box-constrained gains wiener.Solve(T̂, R̂)
// of every repeat. Repeat i uses seeds 2i and 2i+1 offset by seed, so the result is a function of
// its arguments.
func SampledGains(P, R wiener.Sym2, samplerScale float64, n, reps int, seed uint64) ([][2]float64, error) {
	if !(samplerScale >= 0) || math.IsInf(samplerScale, 0) {
		return nil, fmt.Errorf("diag.SampledGains: samplerScale = %v, want a finite value ≥ 0", samplerScale)
	}
	if reps < 1 {
		return nil, fmt.Errorf("diag.SampledGains: reps = %d, want ≥ 1", reps)
	}
	out := make([][2]float64, reps)
	for i := range out {
		T, err := SampleCov(P, R, n, seed+2*uint64(i))
		if err != nil {
			return nil, fmt.Errorf("diag.SampledGains: open-route probes: %w", err)
		}
		Rs, err := SampleCov(wiener.Sym2{}, R, n, seed+2*uint64(i)+1)
		if err != nil {
			return nil, fmt.Errorf("diag.SampledGains: sampler draws: %w", err)
		}
		out[i], _ = wiener.Solve(T, Rs.Scale(samplerScale))
	}
	return out, nil
}

package diag

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// NoiseShape says how a noise moment R is placed inside a fixed total moment T.
type NoiseShape int

const (
	// Proportional is R = f·T: both routes equally unreliable, in T's own proportions.
	Proportional NoiseShape = iota
	// IdentityRoute puts all noise on the identity route: R = c·e₁e₁ᵀ.
	IdentityRoute
	// NonlinearRoute puts all noise on the nonlinear route: R = c·e₂e₂ᵀ.
	NonlinearRoute
	// AntiCorrelated puts the noise along u = (1,-1)/√2, R = c·uuᵀ: the two routes' innovations
	// cancel in the fully open sum d·1, so R1 = 0 and w_unc stays at (1,1).
	AntiCorrelated
)

// NoiseShapes lists every NoiseShape, in declaration order.
var NoiseShapes = []NoiseShape{Proportional, IdentityRoute, NonlinearRoute, AntiCorrelated}

// String names the shape.
func (s NoiseShape) String() string {
	switch s {
	case Proportional:
		return "proportional R = f T"
	case IdentityRoute:
		return "identity route only"
	case NonlinearRoute:
		return "nonlinear route only"
	case AntiCorrelated:
		return "anti-correlated (1,-1)"
	}
	return fmt.Sprintf("NoiseShape(%d)", int(s))
}

// NoiseIn returns the noise moment of the given shape at fraction f ∈ [0, 1] of the largest one
// that T allows, so that 0 ⪯ R ⪯ T (paper, Section 3.3). For the rank-one shapes R = c·uuᵀ the
// largest admissible c is 1/(uᵀT⁻¹u) (then T - R is singular), and R = f/(uᵀT⁻¹u)·uuᵀ. T must be
// positive definite.
func NoiseIn(T wiener.Sym2, shape NoiseShape, f float64) (wiener.Sym2, error) {
	if !(T.II > 0) || !(T.Det() > 0) {
		return wiener.Sym2{}, fmt.Errorf("diag.NoiseIn: T = %+v is not positive definite", T)
	}
	if !(f >= 0 && f <= 1) {
		return wiener.Sym2{}, fmt.Errorf("diag.NoiseIn: fraction %v, want in [0, 1]", f)
	}
	det := T.Det()
	switch shape {
	case Proportional:
		return T.Scale(f), nil
	case IdentityRoute: // uᵀT⁻¹u = T.JJ/det for u = e₁.
		return wiener.Sym2{II: f * det / T.JJ}, nil
	case NonlinearRoute: // uᵀT⁻¹u = T.II/det for u = e₂.
		return wiener.Sym2{JJ: f * det / T.II}, nil
	case AntiCorrelated: // uuᵀ = ½[[1 -1] [-1 1]], uᵀT⁻¹u = (T.II + T.JJ + 2T.IJ)/(2det).
		c := f * 2 * det / (T.II + T.JJ + 2*T.IJ)
		return wiener.Sym2{II: c / 2, IJ: -c / 2, JJ: c / 2}, nil
	}
	return wiener.Sym2{}, fmt.Errorf("diag.NoiseIn: unknown shape %d", int(shape))
}

// Decomposition is one split T = P + R of a fixed total route moment, with the gains it implies.
type Decomposition struct {
	Shape    NoiseShape `table:"noise placement"`
	Fraction float64    `table:"fraction f,%.2f"`
	// R is the noise moment and P = T - R the signal moment.
	R, P wiener.Sym2 `table:"-"`
	// Law is P + R, the covariance of the observed route vector z = s + n ~ N(0, Law): the same T
	// for every decomposition of one NonIdentifiable call (up to one rounding of T - R + R).
	Law wiener.Sym2 `table:"-"`
	// Unconstrained is w_unc = T⁻¹(T-R)1 = 1 - T⁻¹R1, exact.
	Unconstrained [2]float64 `table:"w_unc,%.4f"`
	// Constrained is the box-constrained gain wiener.SolveDetailed(T, R).W.
	Constrained [2]float64 `table:"w*,%.4f"`
}

// NonIdentifiable builds, for a fixed positive-definite total moment T, one Decomposition per
// (shape, fraction) pair, shapes in NoiseShapes order, fractions in the given order.
//
// This is the construction of Section 3.3 ("Route-law non-identifiability") and of its proof in
// the appendix: with independent s ~ N(0, T-R) and n ~ N(0, R), every admissible R gives the same
// observed law z = s + n ~ N(0, T), yet w_unc = T⁻¹(T-R)1 differs whenever (R₁-R₂)1 ≠ 0. Open-route
// gradients alone therefore cannot tell which gains are right; the noise sampler Q_d supplies the
// missing assumption.
func NonIdentifiable(T wiener.Sym2, fractions []float64) ([]Decomposition, error) {
	var out []Decomposition
	for _, shape := range NoiseShapes {
		for _, f := range fractions {
			R, err := NoiseIn(T, shape, f)
			if err != nil {
				return nil, err
			}
			P := T.Sub(R)
			d := Decomposition{Shape: shape, Fraction: f, R: R, P: P, Law: P.Add(R)}
			// w_unc = 1 - T⁻¹R1, by Cramer's rule on T.
			det := T.Det()
			r0, r1 := R.II+R.IJ, R.IJ+R.JJ
			d.Unconstrained = [2]float64{1 - (T.JJ*r0-T.IJ*r1)/det, 1 - (T.II*r1-T.IJ*r0)/det}
			sol := wiener.SolveDetailed(T, R)
			if sol.Fallback != "" {
				return nil, fmt.Errorf("diag.NonIdentifiable: %v at f = %v: solver fell back: %s", shape, f, sol.Fallback)
			}
			d.Constrained = sol.W
			out = append(out, d)
		}
	}
	return out, nil
}

// CrossRisk returns the route risk of the gains solved under decomposition i when decomposition j
// is the truth: cross[i][j] = wiener.Risk(ds[i].Constrained, ds[j].P, ds[j].R). Column j is
// smallest on its diagonal (each w* is optimal for its own truth); the rest of the column is the
// price of assuming the wrong split of the same observed T.
func CrossRisk(ds []Decomposition) [][]float64 {
	cross := make([][]float64, len(ds))
	for i := range ds {
		cross[i] = make([]float64, len(ds))
		for j := range ds {
			cross[i][j] = wiener.Risk(ds[i].Constrained, ds[j].P, ds[j].R)
		}
	}
	return cross
}

// SampleCov draws n independent route vectors z = s + ν with s ~ N(0, P) and ν ~ N(0, R)
// independent (each 2-D, P and R PSD) and returns their second-moment matrix (1/n)Σ zᵀz, the
// estimate of T an open-route probe would see. The seed fixes the draws.
//
// It makes Section 3.3's point empirical: for every split of one T, the samples agree with T up
// to sampling error of order 1/√n, so no amount of open-route data recovers the split.
func SampleCov(P, R wiener.Sym2, n int, seed uint64) (wiener.Sym2, error) {
	if n < 1 {
		return wiener.Sym2{}, fmt.Errorf("diag.SampleCov: n = %d, want ≥ 1", n)
	}
	lp, err := chol(P)
	if err != nil {
		return wiener.Sym2{}, fmt.Errorf("diag.SampleCov: P: %w", err)
	}
	lr, err := chol(R)
	if err != nil {
		return wiener.Sym2{}, fmt.Errorf("diag.SampleCov: R: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var sII, sIJ, sJJ float64
	for range n {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		c, d := rng.NormFloat64(), rng.NormFloat64()
		z0 := lp[0]*a + lr[0]*c
		z1 := lp[1]*a + lp[2]*b + lr[1]*c + lr[2]*d
		sII += z0 * z0
		sIJ += z0 * z1
		sJJ += z1 * z1
	}
	k := float64(n)
	return wiener.Sym2{II: sII / k, IJ: sIJ / k, JJ: sJJ / k}, nil
}

// chol returns the lower-triangular L = [[l0 0] [l1 l2]] with LLᵀ = m for a PSD m (semidefinite
// allowed). Entries within rounding of the PSD boundary are accepted.
func chol(m wiener.Sym2) ([3]float64, error) {
	if !m.IsFinite() {
		return [3]float64{}, fmt.Errorf("non-finite %+v", m)
	}
	if l1, l2 := m.Eigen(); l2 < -1e-12*math.Abs(l1) {
		return [3]float64{}, fmt.Errorf("%+v is not positive semidefinite (eigenvalue %g)", m, l2)
	}
	l0 := math.Sqrt(math.Max(m.II, 0))
	var l1 float64
	if l0 > 0 {
		l1 = m.IJ / l0
	}
	l2 := math.Sqrt(math.Max(m.JJ-l1*l1, 0))
	return [3]float64{l0, l1, l2}, nil
}

package model

import (
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
)

// erf is the error function of the exact GELU. For float32 it is GoMLX's Erf. For float64 its value
// is erf64 below and its gradient GoMLX's Erf rule (2/√π·e^{−x²}, exact): the pure-Go backend of
// compute v0.1.x built with GOEXPERIMENT=simd evaluates Erf with a float32-grade polynomial
// (support/simdmath.ErfFloat64, Abramowitz–Stegun 7.1.26, error up to 1.5e-7) for float64 too, which
// the float64 reference and finite-difference tests see (TestLayerNormAndGELUByHand). The plain
// build's Erf is math.Erf; erf64 agrees with it to a few units in the last place.
func erf(x *Node) *Node {
	e := Erf(x)
	if x.DType() != dtypes.Float64 {
		return e
	}
	// Value erf64(x) + (e − e) = erf64(x); gradient that of e.
	return Add(StopGradient(erf64(x)), Sub(e, StopGradient(e)))
}

// erf64 is Go's math.Erf (FreeBSD's s_erf.c) written with graph operations, branch by branch
// selected with Where: every branch is evaluated everywhere on a clamped argument, so none
// produces an Inf or NaN that a selection would hide. It is only used under StopGradient. The
// erfc tails use e^{−x²−0.5625+R/S} in one exponential instead of math.Erf's split of x into a
// 20-bit head and a tail, at most a few units in the last place apart for |x| < 6.
func erf64(x *Node) *Node {
	g := x.Graph()
	dt := x.DType()
	c := func(v float64) *Node { return Scalar(g, dt, v) }
	ax := Abs(x)

	// |x| < 0.84375: x + x·P(x²)/Q(x²).
	a := Min(ax, c(0.84375))
	z := Mul(a, a)
	small := Add(a, Mul(a, Div(
		horner(z, 1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05),
		horner(z, 1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06))))

	// 0.84375 ≤ |x| < 1.25: erx + P(s)/Q(s), s = |x| − 1.
	s := Sub(Min(Max(ax, c(0.84375)), c(1.25)), c(1))
	mid := Add(c(8.45062911510467529297e-01), Div(
		horner(s, -2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03),
		horner(s, 1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02)))

	// 1.25 ≤ |x| < 6: 1 − e^{−x²−0.5625+R(1/x²)/S(1/x²)}/|x|, two rational fits split at 1/0.35.
	t := Min(Max(ax, c(1.25)), c(6))
	inv := Reciprocal(Mul(t, t))
	ra := Div(
		horner(inv, -9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00),
		horner(inv, 1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02))
	rb := Div(
		horner(inv, -9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02),
		horner(inv, 1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01))
	rs := Where(LessThan(t, c(1/0.35)), ra, rb)
	tail := Sub(c(1), Div(Exp(Add(Sub(Neg(Mul(t, t)), c(0.5625)), rs)), t))

	y := Where(LessThan(ax, c(0.84375)), small,
		Where(LessThan(ax, c(1.25)), mid,
			Where(LessThan(ax, c(6)), tail, c(1))))
	return Mul(Sign(x), y)
}

// horner evaluates c[0] + c[1]·x + c[2]·x² + … elementwise.
func horner(x *Node, c ...float64) *Node {
	y := Scalar(x.Graph(), x.DType(), c[len(c)-1])
	for i := len(c) - 2; i >= 0; i-- {
		y = AddScalar(Mul(y, x), c[i])
	}
	return y
}

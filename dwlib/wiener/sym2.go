package wiener

import "math"

// Sym2 is a symmetric 2×2 route moment [[II IJ] [IJ JJ]], stored as its three distinct entries.
//
// Index I is the identity route and J the nonlinear route: II = E[d_Iᵀd_I], IJ = E[d_Iᵀd_F] and
// JJ = E[d_Fᵀd_F]. Storing three scalars makes the matrix symmetric by construction.
type Sym2 struct{ II, IJ, JJ float64 }

// FromMatrix returns the symmetric part of the general 2×2 matrix [[a b] [c d]], so IJ = (b+c)/2.
// Estimated moments may come out slightly asymmetric; their symmetric part is the nearest
// symmetric matrix in Frobenius norm.
func FromMatrix(a, b, c, d float64) Sym2 {
	return Sym2{II: a, IJ: b/2 + c/2, JJ: d}
}

// Add returns m + o.
func (m Sym2) Add(o Sym2) Sym2 { return Sym2{m.II + o.II, m.IJ + o.IJ, m.JJ + o.JJ} }

// Sub returns m - o.
func (m Sym2) Sub(o Sym2) Sym2 { return Sym2{m.II - o.II, m.IJ - o.IJ, m.JJ - o.JJ} }

// Scale returns s·m.
func (m Sym2) Scale(s float64) Sym2 { return Sym2{s * m.II, s * m.IJ, s * m.JJ} }

// Quad returns the quadratic form xᵀ m x for x = (a, b).
func (m Sym2) Quad(a, b float64) float64 { return m.II*a*a + 2*m.IJ*a*b + m.JJ*b*b }

// Trace returns II + JJ, the total energy of the two routes.
func (m Sym2) Trace() float64 { return m.II + m.JJ }

// Det returns II·JJ - IJ², the product of the eigenvalues.
func (m Sym2) Det() float64 { return m.II*m.JJ - m.IJ*m.IJ }

// Eigen returns the eigenvalues l1 ≥ l2. They are computed as mean ± half-spread, with the
// halving done before the sums so that entries near the float64 limit do not overflow.
func (m Sym2) Eigen() (l1, l2 float64) {
	mean := m.II/2 + m.JJ/2
	spread := math.Hypot(m.II/2-m.JJ/2, m.IJ)
	return mean + spread, mean - spread
}

// IsFinite reports whether no entry is NaN or ±Inf.
func (m Sym2) IsFinite() bool {
	return isFinite(m.II) && isFinite(m.IJ) && isFinite(m.JJ)
}

// isFinite reports whether x is neither NaN nor ±Inf.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// maxAbs returns the largest absolute entry of m.
func (m Sym2) maxAbs() float64 {
	return math.Max(math.Abs(m.II), math.Max(math.Abs(m.IJ), math.Abs(m.JJ)))
}

// ldexp returns m·2^e, exact unless it under- or overflows.
func (m Sym2) ldexp(e int) Sym2 {
	return Sym2{math.Ldexp(m.II, e), math.Ldexp(m.IJ, e), math.Ldexp(m.JJ, e)}
}

package wiener

// psdTol is the relative size, against the largest eigenvalue, below which a negative eigenvalue
// counts as rounding noise. Without it the rank-1 output of ProjectPSD, whose second eigenvalue
// comes out as ±1e-16·l1, would be changed again on a second call; with it the projection is
// exactly idempotent, at a cost of at most 1e-13 relative in the "nearest" matrix.
const psdTol = 1e-13

// ProjectPSD returns the positive-semidefinite matrix nearest to m in Frobenius norm: the
// eigendecomposition of m with its negative eigenvalues set to zero.
//
// Plug-in moments can leave the PSD cone (P̂ = T̂ - R̂ is a difference of two estimates), and a
// non-PSD moment would make the route risk unbounded below. For a 2×2 matrix with eigenvalues
// l1 > 0 > l2 the clipped matrix is l1·vvᵀ, with v the l1 eigenvector; since m - l2·I = (l1-l2)·vvᵀ
// it is computed without forming v as l1/(l1-l2)·(m - l2·I).
//
// PSD inputs (l2 ≥ -1e-13·l1, see psdTol) are returned unchanged, a matrix with no positive
// eigenvalue gives zero, and a non-finite input is returned as is so that the caller can detect it.
func ProjectPSD(m Sym2) Sym2 {
	if !m.IsFinite() {
		return m
	}
	l1, l2 := m.Eigen()
	switch {
	case l1 <= 0:
		return Sym2{}
	case l2 >= -psdTol*l1:
		return m
	}
	s := l1 / (l1 - l2)
	return Sym2{II: s * (m.II - l2), IJ: s * m.IJ, JJ: s * (m.JJ - l2)}
}

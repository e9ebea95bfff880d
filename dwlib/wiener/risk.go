package wiener

// Risk returns the route risk of Theorem 1 (paper, Eq. dual-wiener-risk) for gains w = (alpha, m):
//
//	(w-1)ᵀ P (w-1) + wᵀ R w.
//
// The first term is the predictable credit lost by closing the routes, the second the innovation
// kept by leaving them open. It is evaluated in this form, not as wᵀTw - 2wᵀP1 + 1ᵀP1, so that it
// is accurate near w = 1 and does not rely on T = P + R holding exactly.
func Risk(w [2]float64, P, R Sym2) float64 {
	return P.Quad(w[0]-1, w[1]-1) + R.Quad(w[0], w[1])
}

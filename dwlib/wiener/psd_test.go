package wiener_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestProjectPSDHand checks ProjectPSD against eigenvalue clipping worked out by hand.
func TestProjectPSDHand(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in, out wiener.Sym2
	}{
		// Eigenvalues 3 and -1, eigenvector (1,1)/√2 for 3: 3·vvᵀ = 1.5·ones.
		{"indefinite", wiener.Sym2{II: 1, IJ: 2, JJ: 1}, wiener.Sym2{II: 1.5, IJ: 1.5, JJ: 1.5}},
		// Diagonal: clip the negative entry.
		{"diagonal", wiener.Sym2{II: 2, JJ: -3}, wiener.Sym2{II: 2}},
		// Eigenvalues 5 and -5, v = (2,1)/√5 for 5: 5·vvᵀ = [[4 2] [2 1]].
		{"rotated", wiener.Sym2{II: 3, IJ: 4, JJ: -3}, wiener.Sym2{II: 4, IJ: 2, JJ: 1}},
		{"negative definite", wiener.Sym2{II: -1, IJ: 0.5, JJ: -2}, wiener.Sym2{}},
		{"PSD kept", wiener.Sym2{II: 2, IJ: 1, JJ: 1}, wiener.Sym2{II: 2, IJ: 1, JJ: 1}},
		{"rank one kept", wiener.Sym2{II: 4, IJ: 2, JJ: 1}, wiener.Sym2{II: 4, IJ: 2, JJ: 1}},
	} {
		got := wiener.ProjectPSD(tc.in)
		if !closeSym(got, tc.out, 1e-14) {
			t.Errorf("%s: ProjectPSD(%+v) = %+v, want %+v", tc.name, tc.in, got, tc.out)
		}
	}
	if got := wiener.ProjectPSD(wiener.Sym2{II: math.NaN()}); !math.IsNaN(got.II) {
		t.Errorf("ProjectPSD(NaN) = %+v, want the NaN passed through", got)
	}
}

// TestProjectPSDRandom checks, on random symmetric matrices of many scales, that the result is
// PSD, that a second projection changes nothing (bitwise), that PSD inputs are returned unchanged,
// and that the result is no farther from the input than a brute-force set of PSD matrices.
func TestProjectPSDRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		s := math.Pow(10, 8*rng.Float64()-4)
		m := wiener.Sym2{II: s * rng.NormFloat64(), IJ: s * rng.NormFloat64(), JJ: s * rng.NormFloat64()}
		p := wiener.ProjectPSD(m)
		l1, l2 := p.Eigen()
		if l2 < -1e-13*math.Abs(l1) {
			t.Fatalf("case %d: ProjectPSD(%+v) = %+v has eigenvalue %v", i, m, p, l2)
		}
		if pp := wiener.ProjectPSD(p); pp != p {
			t.Fatalf("case %d: not idempotent: %+v then %+v", i, p, pp)
		}
		if ml1, ml2 := m.Eigen(); ml2 >= 0 && p != m {
			t.Fatalf("case %d: PSD input %+v (eig %v, %v) changed to %+v", i, m, ml1, ml2, p)
		}
		if q := randomPSD(rng, s); wiener.ProjectPSD(q) != q {
			t.Fatalf("case %d: PSD input %+v changed to %+v", i, q, wiener.ProjectPSD(q))
		}
		// Nearest: any PSD matrix q (here q = p ± a small PSD or rank-one perturbation, and
		// random PSD matrices) is at least as far from m as p is.
		d := frob(m.Sub(p))
		for range 20 {
			q := randomPSD(rng, s)
			if frob(m.Sub(q)) < d-1e-12*s {
				t.Fatalf("case %d: PSD %+v is closer to %+v than ProjectPSD's %+v", i, q, m, p)
			}
			if q2 := p.Add(q.Scale(1e-3)); frob(m.Sub(q2)) < d-1e-12*s {
				t.Fatalf("case %d: PSD %+v is closer to %+v than ProjectPSD's %+v", i, q2, m, p)
			}
		}
	}
}

// frob returns the Frobenius norm of m (the off-diagonal entry counts twice).
func frob(m wiener.Sym2) float64 {
	return math.Sqrt(m.II*m.II + 2*m.IJ*m.IJ + m.JJ*m.JJ)
}

// randomPSD returns AAᵀ for a random 2×2 A with entries of size about sqrt(s); a third of the time
// it is rank one.
func randomPSD(rng *rand.Rand, s float64) wiener.Sym2 {
	a, b := rng.NormFloat64(), rng.NormFloat64()
	c, d := rng.NormFloat64(), rng.NormFloat64()
	if rng.IntN(3) == 0 {
		c, d = 0, 0 // A = [[a c] [b d]] with a zero column: rank one.
	}
	return wiener.Sym2{II: a*a + c*c, IJ: a*b + c*d, JJ: b*b + d*d}.Scale(s)
}

// closeSym reports whether every entry of a and b differs by at most tol.
func closeSym(a, b wiener.Sym2, tol float64) bool {
	return close(a.II, b.II, tol) && close(a.IJ, b.IJ, tol) && close(a.JJ, b.JJ, tol)
}

package wiener_test

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestSym2Helpers checks the small algebra helpers against hand-computed values.
func TestSym2Helpers(t *testing.T) {
	a := wiener.Sym2{II: 2, IJ: 1, JJ: 3}
	b := wiener.Sym2{II: 1, IJ: -1, JJ: 0.5}
	for _, tc := range []struct {
		name      string
		got, want wiener.Sym2
	}{
		{"Add", a.Add(b), wiener.Sym2{II: 3, IJ: 0, JJ: 3.5}},
		{"Sub", a.Sub(b), wiener.Sym2{II: 1, IJ: 2, JJ: 2.5}},
		{"Scale", a.Scale(-2), wiener.Sym2{II: -4, IJ: -2, JJ: -6}},
		{"FromMatrix", wiener.FromMatrix(2, 0.5, 1.5, 3), a},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
	if got := a.Trace(); got != 5 {
		t.Errorf("Trace = %v, want 5", got)
	}
	if got := a.Det(); got != 5 {
		t.Errorf("Det = %v, want 5", got)
	}
}

// TestEigen checks Eigen on hand cases and its invariants (sum = trace, product = det, l1 ≥ l2),
// including entries near the float64 limit where a naive (II+JJ)/2 would overflow.
func TestEigen(t *testing.T) {
	big := math.MaxFloat64 / 1.5
	for _, tc := range []struct {
		name   string
		m      wiener.Sym2
		l1, l2 float64
	}{
		{"diagonal", wiener.Sym2{II: 3, JJ: 1}, 3, 1},
		{"diagonal swapped", wiener.Sym2{II: 1, JJ: 3}, 3, 1},
		{"indefinite", wiener.Sym2{II: 1, IJ: 2, JJ: 1}, 3, -1},
		{"rank one", wiener.Sym2{II: 1, IJ: 1, JJ: 1}, 2, 0},
		{"zero", wiener.Sym2{}, 0, 0},
		{"huge", wiener.Sym2{II: big, JJ: big}, big, big},
	} {
		l1, l2 := tc.m.Eigen()
		if !close(l1, tc.l1, 1e-15*math.Abs(tc.l1)) || !close(l2, tc.l2, 1e-15*math.Abs(tc.l1)) {
			t.Errorf("%s: Eigen = (%v, %v), want (%v, %v)", tc.name, l1, l2, tc.l1, tc.l2)
		}
	}
	m := wiener.Sym2{II: 0.7, IJ: -0.3, JJ: 0.2}
	l1, l2 := m.Eigen()
	if l1 < l2 || !close(l1+l2, m.Trace(), 1e-15) || !close(l1*l2, m.Det(), 1e-15) {
		t.Errorf("Eigen(%+v) = (%v, %v): invariants broken", m, l1, l2)
	}
}

// TestIsFinite checks that any NaN or Inf entry is detected.
func TestIsFinite(t *testing.T) {
	for _, tc := range []struct {
		m    wiener.Sym2
		want bool
	}{
		{wiener.Sym2{II: 1, IJ: -2, JJ: 3}, true},
		{wiener.Sym2{II: math.NaN()}, false},
		{wiener.Sym2{IJ: math.Inf(1)}, false},
		{wiener.Sym2{JJ: math.Inf(-1)}, false},
	} {
		if got := tc.m.IsFinite(); got != tc.want {
			t.Errorf("IsFinite(%+v) = %v, want %v", tc.m, got, tc.want)
		}
	}
}

// close reports whether |a-b| ≤ tol.
func close(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestSym2Quad(t *testing.T) {
	m := wiener.Sym2{II: 2, IJ: -0.5, JJ: 3}
	for _, x := range [][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-2, 0.5}} {
		// xᵀ m x written out as the product of the full 2×2 matrix.
		want := x[0]*(m.II*x[0]+m.IJ*x[1]) + x[1]*(m.IJ*x[0]+m.JJ*x[1])
		if got := m.Quad(x[0], x[1]); got != want {
			t.Errorf("Quad%v = %v, want %v", x, got, want)
		}
	}
}

package wiener_test

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// TestRisk checks Risk against hand values: fully open gains keep all innovation (1ᵀR1), closed
// gains lose all predictable credit (1ᵀP1), and a mixed point expands both quadratic forms.
func TestRisk(t *testing.T) {
	P := wiener.Sym2{II: 2, IJ: 0.5, JJ: 1}
	R := wiener.Sym2{II: 1, IJ: -0.25, JJ: 3}
	for _, tc := range []struct {
		name string
		w    [2]float64
		want float64
	}{
		{"open", [2]float64{1, 1}, 1 - 0.5 + 3},
		{"closed", [2]float64{0, 0}, 2 + 1 + 1},
		// (w-1) = (-0.5, 0.5): 0.5 - 0.25 + 0.25 = 0.5; w = (0.5, 1.5): 0.25 - 0.375 + 6.75 = 6.625.
		{"mixed", [2]float64{0.5, 1.5}, 0.5 + 6.625},
	} {
		if got := wiener.Risk(tc.w, P, R); !close(got, tc.want, 1e-15) {
			t.Errorf("%s: Risk(%v) = %v, want %v", tc.name, tc.w, got, tc.want)
		}
	}
}

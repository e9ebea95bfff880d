package diag_test

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Correlated routes whose unconstrained optimum leaves the box: clipping it is worse than the
// true constrained optimum, and here even worse than plain BPTT.
func ExampleClippedVsConstrained() {
	P := wiener.Sym2{II: 0.88, IJ: 0.8, JJ: 0.75}
	R := wiener.Sym2{II: 0.12, IJ: 0.1, JJ: 0.25}
	c, err := diag.ClippedVsConstrained(P, R)
	if err != nil {
		panic(err)
	}
	for _, p := range c.Points() {
		fmt.Printf("%-38s (%.2f, %.2f) risk %.4f\n", p.Name, p.Alpha, p.M, p.Risk)
	}
	// Output:
	// unconstrained w_unc = T^-1 P 1         (1.50, 0.20) risk 0.4000
	// clipped to [0,1]^2                     (1.00, 0.20) risk 0.6500
	// constrained optimum w* (edge alpha=1)  (1.00, 0.65) risk 0.4475
	// fully open BPTT (1,1)                  (1.00, 1.00) risk 0.5700
}

// One observed total moment T, three splits into signal and noise, three different gains.
func ExampleNonIdentifiable() {
	T := wiener.Sym2{II: 1, IJ: 0.4, JJ: 0.8}
	ds, err := diag.NonIdentifiable(T, []float64{0.7})
	if err != nil {
		panic(err)
	}
	for _, d := range ds[:3] {
		fmt.Printf("%-22v P+R=%v w_unc=(%.2f, %.2f)\n", d.Shape, d.Law == T, d.Unconstrained[0], d.Unconstrained[1])
	}
	// Output:
	// proportional R = f T   P+R=true w_unc=(0.30, 0.30)
	// identity route only    P+R=true w_unc=(0.30, 1.35)
	// nonlinear route only   P+R=true w_unc=(1.28, 0.30)
}

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

// A sampler that finds only half the noise: more probes shrink the variance part of the excess
// route risk, never its bias part.
func ExampleDecomposeGainError() {
	P := wiener.Sym2{II: 0.6, IJ: 0.25, JJ: 0.45}
	R := wiener.Sym2{II: 0.35, IJ: -0.05, JJ: 0.4}
	for _, n := range []int{64, 1024} {
		gains, err := diag.SampledGains(P, R, 0.5, n, 2000, 1)
		if err != nil {
			panic(err)
		}
		d, err := diag.DecomposeGainError(P, R, gains)
		if err != nil {
			panic(err)
		}
		fmt.Printf("n = %4d: bias part %.3f, variance part %.4f\n", n, d.BiasRisk, d.VarianceRisk)
	}
	// Output:
	// n =   64: bias part 0.044, variance part 0.0062
	// n = 1024: bias part 0.049, variance part 0.0003
}

package wiener_test

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// A block whose identity route is mostly signal and whose nonlinear route is mostly innovation:
// Solve keeps the identity route nearly open and damps the nonlinear one.
func ExampleSolve() {
	T := wiener.Sym2{II: 1.0, IJ: 0.1, JJ: 1.0} // total route moment from the fully open probe
	R := wiener.Sym2{II: 0.1, IJ: 0.0, JJ: 0.8} // noise route moment from the noise probe
	w, P := wiener.Solve(T, R)
	fmt.Printf("alpha=%.4f m=%.4f\n", w[0], w[1])
	fmt.Printf("P = {II:%.2f IJ:%.2f JJ:%.2f}\n", P.II, P.IJ, P.JJ)
	// Output:
	// alpha=0.9798 m=0.2020
	// P = {II:0.90 IJ:0.10 JJ:0.20}
}

// Risk at the two extremes: fully open gains (BPTT) pay the innovation 1ᵀR1, closed gains lose
// the predictable credit 1ᵀP1. The solved gains are never worse than fully open.
func ExampleRisk() {
	P := wiener.Sym2{II: 0.9, IJ: 0.1, JJ: 0.2}
	R := wiener.Sym2{II: 0.1, IJ: 0.0, JJ: 0.8}
	w, _ := wiener.Solve(P.Add(R), R)
	fmt.Printf("open   %.4f\n", wiener.Risk([2]float64{1, 1}, P, R))
	fmt.Printf("closed %.4f\n", wiener.Risk([2]float64{0, 0}, P, R))
	fmt.Printf("solved %.4f\n", wiener.Risk(w, P, R))
	// Output:
	// open   0.9000
	// closed 1.3000
	// solved 0.2596
}

// Correlated routes whose unconstrained optimum leaves the box: clipping it to (1, 0.2) would be
// suboptimal, the constrained optimum lies on the edge alpha = 1 at m = 0.65.
func ExampleSolveDetailed() {
	P := wiener.Sym2{II: 0.88, IJ: 0.8, JJ: 0.75}
	R := wiener.Sym2{II: 0.12, IJ: 0.1, JJ: 0.25}
	sol := wiener.SolveDetailed(P.Add(R), R)
	fmt.Printf("unconstrained (%.3f, %.3f)\n", sol.Unconstrained[0], sol.Unconstrained[1])
	fmt.Printf("gains (%.3f, %.3f) on %s\n", sol.W[0], sol.W[1], sol.Candidate)
	// Output:
	// unconstrained (1.500, 0.200)
	// gains (1.000, 0.650) on edge alpha=1
}

// Non-finite moments never give NaN gains: the solver falls back to plain BPTT.
func ExampleSolveDetailed_fallback() {
	var zero wiener.Sym2
	sol := wiener.SolveDetailed(zero, zero)
	fmt.Println(sol.W, sol.Fallback)
	// Output:
	// [1 1] zero moments: T = R = 0
}

package eval_test

import (
	"fmt"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// Origins for a 20-step unit with a 2-step history and a 3-step rollout,
// at most 4 per unit: the valid range [2, 17] is split evenly.
func ExampleOrigins() {
	origins, err := eval.Origins(20, 2, 3, 4)
	fmt.Println(origins, err)

	// A unit shorter than history+horizon has no valid origin.
	_, err = eval.Origins(10, 8, 5, eval.MaxOrigins)
	fmt.Println(err)
	// Output:
	// [2 7 12 17] <nil>
	// eval.Origins: no valid origin: unitLen=10 < history=8 + horizon=5 (the forecast horizon does not fit in the unit)
}

// The evaluation horizon is half again the training horizon.
func ExampleHEval() {
	fmt.Println(eval.HEval(32), eval.HEval(5))
	// Output: 48 8
}

// RelL2 scores precomputed forecasts laid out [unit][origin][h][d]. Unit 0
// has one origin and unit 1 two; units count equally.
func ExampleRelL2() {
	target := [][][][]float64{
		{{{3, 4}, {0, 2}}},
		{{{1, 0}, {0, 1}}, {{6, 8}, {2, 0}}},
	}
	pred := [][][][]float64{
		{{{4, 4}, {0, 3}}},
		{{{1, 0}, {0, 0}}, {{9, 12}, {2, 2}}},
	}
	r, err := eval.RelL2(pred, target)
	if err != nil {
		panic(err)
	}
	fmt.Printf("RelL2=%.4f per-horizon=%.3f per-unit=%.3f origins=%v\n",
		r.RelL2, r.PerHorizon, r.PerUnit, r.NumOrigins)
	// Output: RelL2=0.4875 per-horizon=[0.225 0.750] per-unit=[0.350 0.625] origins=[1 2]
}

// Evaluate plugs a model into the protocol. Here the model is persistence
// (repeat the last observed state), evaluated with a 2-step history and
// H = HEval(1) = 2 on a ramp and on a constant series.
func ExampleEvaluate() {
	persistence := eval.ForecasterFunc(func(w eval.Window, H int) ([][]float64, error) {
		last := w.History[len(w.History)-1]
		out := make([][]float64, H)
		for h := range out {
			out[h] = slices.Clone(last)
		}
		return out, nil
	})
	units := []eval.Unit{
		{X: [][]float64{{1}, {2}, {3}, {4}, {5}, {6}}},
		{X: [][]float64{{2}, {2}, {2}, {2}}},
	}
	r, err := eval.Evaluate(persistence, units, 2, eval.HEval(1), eval.MaxOrigins)
	if err != nil {
		panic(err)
	}
	fmt.Printf("RelL2=%.5f (121/720) origins=%v per-horizon=%.4f\n", r.RelL2, r.Origins, r.PerHorizon)
	// Output: RelL2=0.16806 (121/720) origins=[[2 3 4] [2]] per-horizon=[0.1306 0.2056]
}

// Paired compares matched seeds: d_s = DW_s - Full_s with a 95% Student-t
// interval (t_{0.975,2} ≈ 4.3027 for three seeds).
func ExamplePaired() {
	dw := []float64{0.990, 1.005, 1.004}
	full := []float64{1.050, 1.056, 1.056}
	p, err := eval.Paired(dw, full)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean=%+.5f sd=%.5f t=%.4f CI=[%+.5f, %+.5f]\n", p.Mean, p.SD, p.TCrit, p.Lo, p.Hi)
	mean, sd := eval.MeanSD(dw)
	fmt.Printf("DW %.4f ± %.4f, %.2f%% vs Full\n", mean, sd, eval.PercentChange(mean, 1.054))
	// Output:
	// mean=-0.05433 sd=0.00493 t=4.3027 CI=[-0.06659, -0.04208]
	// DW 0.9997 ± 0.0084, -5.15% vs Full
}

// FitHorizonCurve fits relative L2 against training horizon K with
// nonnegative curvature and reports the fitted optimum K*.
func ExampleFitHorizonCurve() {
	Ks := []float64{4, 8, 16, 24, 32}
	ys := []float64{1.30, 1.10, 0.98, 1.00, 1.12}
	f, err := eval.FitHorizonCurve(Ks, ys)
	if err != nil {
		panic(err)
	}
	fmt.Printf("K*=%.2f fitted min=%.4f vertex=%v\n", f.KStar, f.YStar, f.Vertex)

	// Concave data: the curvature constraint binds and the fit is a line,
	// whose optimum is an endpoint of the evaluated range.
	f, _ = eval.FitHorizonCurve([]float64{1, 2, 3, 4}, []float64{0, 3, 4, 3})
	fmt.Printf("constrained=%v y=%.0fK%+.0f K*=%.0f\n", f.Constrained, f.B, f.C, f.KStar)
	// Output:
	// K*=20.12 fitted min=0.9594 vertex=true
	// constrained=true y=1K+0 K*=1
}

// DecomposePrefixRisk splits the risk of training on the first k steps into
// missing-signal bias and accumulated innovation (known-SNR study).
func ExampleDecomposePrefixRisk() {
	// signal[k-1] is s_k; noise[k-1][b-1] is n_k^(b), indexed [k][b][p].
	signal := [][]float64{{2, 0}, {0, 2}, {0.5, 0}}
	noise := [][][]float64{
		{{0, 0}, {0, 0}},
		{{1, 0}, {-1, 0}},
		{{0, 1}, {0, -1}},
	}
	r, err := eval.DecomposePrefixRisk(signal, noise)
	if err != nil {
		panic(err)
	}
	fmt.Println("bias      ", r.Bias)
	fmt.Println("innovation", r.Innovation)
	fmt.Println("total     ", r.Total)
	fmt.Println("K*_grad   ", r.KStarGrad)
	fmt.Printf("SNR %.2f, rho %.2f\n", r.SNR, r.NoiseFraction)
	// Output:
	// bias       [4.25 0.25 0]
	// innovation [0 1 2]
	// total      [4.25 1.25 2]
	// K*_grad    2
	// SNR [+Inf 4.00 0.25], rho [0.00 0.20 0.80]
}

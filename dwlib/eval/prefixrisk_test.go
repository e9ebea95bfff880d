package eval

import (
	"math"
	"testing"
)

// TestPrefixRiskScalarHand: P = 1, K = 2, B = 2.
//
//	s_1 = 1, s_2 = 1          -> S_1 = 1, S_2 = 2
//	n_1 = {+1, -1}, n_2 = {+2, -2} -> N_1 = {±1}, N_2 = {±3}
//
// Bias = ((1-2)^2, 0) = (1, 0); Innovation = (1, 9); Total = (2, 9), so
// K*_grad = 1. Direct: k=1 ((1+1-2)^2 + (1-1-2)^2)/2 = 2, k=2 (9+9)/2 = 9,
// matching Total since the draws are centred.
// SNR = (1/1, 1/4). g_1 = {2, 0}: mean ||g||^2 = 2, rho_1 = 1/2;
// g_2 = {3, -1}: mean ||g||^2 = 5, rho_2 = 4/5.
// RMS = (sqrt 2, sqrt 5), RMSRel = (1, sqrt(5/2)).
func TestPrefixRiskScalarHand(t *testing.T) {
	r, err := DecomposePrefixRisk(
		[][]float64{{1}, {1}},
		[][][]float64{{{1}, {-1}}, {{2}, {-2}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-15
	if r.K != 2 || r.B != 2 || r.P != 1 {
		t.Errorf("K, B, P = %d, %d, %d, want 2, 2, 1", r.K, r.B, r.P)
	}
	checkSliceClose(t, "Bias", r.Bias, []float64{1, 0}, tol)
	checkSliceClose(t, "Innovation", r.Innovation, []float64{1, 9}, tol)
	checkSliceClose(t, "Total", r.Total, []float64{2, 9}, tol)
	checkSliceClose(t, "Direct", r.Direct, []float64{2, 9}, tol)
	checkSliceClose(t, "Closure", r.Closure, []float64{0, 0}, tol)
	checkClose(t, "MaxClosure", r.MaxClosure, 0, tol)
	if r.KStarGrad != 1 {
		t.Errorf("KStarGrad = %d, want 1", r.KStarGrad)
	}
	checkSliceClose(t, "SNR", r.SNR, []float64{1, 0.25}, tol)
	checkSliceClose(t, "NoiseFraction", r.NoiseFraction, []float64{0.5, 0.8}, tol)
	checkSliceClose(t, "RMS", r.RMS, []float64{math.Sqrt2, math.Sqrt(5)}, tol)
	checkSliceClose(t, "RMSRel", r.RMSRel, []float64{1, math.Sqrt(2.5)}, tol)
}

// TestPrefixRiskVectorInteriorOptimum: P = 2, K = 3, B = 2, with the
// minimum-risk prefix strictly inside (K*_grad = 2 < K = 3).
//
//	s = (2,0), (0,2), (0.5,0)  -> S_1 = (2,0), S_2 = (2,2), S_3 = (2.5,2)
//	Bias = ||(-0.5,-2)||^2, ||(-0.5,0)||^2, 0 = 4.25, 0.25, 0
//	n_1 = {0, 0}, n_2 = {(1,0), (-1,0)}, n_3 = {(0,1), (0,-1)}
//	Innovation = 0, 1, 2      Total = 4.25, 1.25, 2
//
// SNR_1 = 4/0 = +Inf (noise-free step), SNR_2 = 4/1, SNR_3 = 0.25/1.
// rho = 0/4, 1/5, 1/1.25. RMS^2 = mean_b ||g||^2 / 2 = 2, 2.5, 0.625.
func TestPrefixRiskVectorInteriorOptimum(t *testing.T) {
	r, err := DecomposePrefixRisk(
		[][]float64{{2, 0}, {0, 2}, {0.5, 0}},
		[][][]float64{
			{{0, 0}, {0, 0}},
			{{1, 0}, {-1, 0}},
			{{0, 1}, {0, -1}},
		},
	)
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-15
	checkSliceClose(t, "Bias", r.Bias, []float64{4.25, 0.25, 0}, tol)
	checkSliceClose(t, "Innovation", r.Innovation, []float64{0, 1, 2}, tol)
	checkSliceClose(t, "Total", r.Total, []float64{4.25, 1.25, 2}, tol)
	checkSliceClose(t, "Direct", r.Direct, []float64{4.25, 1.25, 2}, tol)
	if r.KStarGrad != 2 {
		t.Errorf("KStarGrad = %d, want 2", r.KStarGrad)
	}
	if !math.IsInf(r.SNR[0], 1) {
		t.Errorf("SNR[0] = %v, want +Inf for a noise-free step", r.SNR[0])
	}
	checkSliceClose(t, "SNR[1:]", r.SNR[1:], []float64{4, 0.25}, tol)
	checkSliceClose(t, "NoiseFraction", r.NoiseFraction, []float64{0, 0.2, 0.8}, tol)
	checkSliceClose(t, "RMS", r.RMS, []float64{math.Sqrt2, math.Sqrt(2.5), math.Sqrt(0.625)}, tol)
	checkSliceClose(t, "RMSRel", r.RMSRel, []float64{1, math.Sqrt(1.25), math.Sqrt(0.3125)}, tol)
}

// TestPrefixRiskClosureError uses non-centred draws (mean_b n_1 = 1) so the
// Monte Carlo cross term is visible. P = 1, K = 2, B = 2:
//
//	s = 1, 1; n_1 = {1, 1}, n_2 = {0, 0}; S = 1, 2; N_1 = N_2 = 1
//	Bias = 1, 0; Innovation = 1, 1; Total = 2, 1
//	Direct_1 = (1+1-2)^2 = 0, Direct_2 = (2+1-2)^2 = 1
//	Closure = |0-2|/1, |1-1|/1 = 2, 0
//
// The tie-free minimum of Total is k = 2 (1 < 2).
func TestPrefixRiskClosureError(t *testing.T) {
	r, err := DecomposePrefixRisk(
		[][]float64{{1}, {1}},
		[][][]float64{{{1}, {1}}, {{0}, {0}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	checkSliceClose(t, "Total", r.Total, []float64{2, 1}, 0)
	checkSliceClose(t, "Direct", r.Direct, []float64{0, 1}, 0)
	checkSliceClose(t, "Closure", r.Closure, []float64{2, 0}, 0)
	checkClose(t, "MaxClosure", r.MaxClosure, 2, 0)
	if r.KStarGrad != 2 {
		t.Errorf("KStarGrad = %d, want 2", r.KStarGrad)
	}
}

// TestPrefixRiskTieTakesShortestPrefix: Total = (1, 1) -> K*_grad = 1.
// s = (0, 0), n_1 = {±1}, n_2 = {0}: Bias 0, 0; Innovation 1, 1.
func TestPrefixRiskTieTakesShortestPrefix(t *testing.T) {
	r, err := DecomposePrefixRisk(
		[][]float64{{0}, {0}},
		[][][]float64{{{1}, {-1}}, {{0}, {0}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	checkSliceClose(t, "Total", r.Total, []float64{1, 1}, 0)
	if r.KStarGrad != 1 {
		t.Errorf("KStarGrad = %d, want 1 on a tie", r.KStarGrad)
	}
}

func TestPrefixRiskErrors(t *testing.T) {
	tests := []struct {
		name   string
		signal [][]float64
		noise  [][][]float64
		parts  []string
	}{
		{"no horizons", nil, nil, []string{"no horizons"}},
		{"horizon mismatch", [][]float64{{1}, {1}}, [][][]float64{{{1}}}, []string{"2 signal horizons", "1 noise horizons"}},
		{"no draws", [][]float64{{1}}, [][][]float64{{}}, []string{"no noise draws"}},
		{"draw count varies", [][]float64{{1}, {1}}, [][][]float64{{{1}, {2}}, {{1}}}, []string{"1 noise draws at k=2", "2 at k=1"}},
		{"signal length", [][]float64{{1, 2}, {1}}, [][][]float64{{{1, 1}}, {{1}}}, []string{"s_2", "1 coordinates", "P=2"}},
		{"noise length", [][]float64{{1, 2}}, [][][]float64{{{1, 1}, {1}}}, []string{"n_1^(2)", "P=2"}},
		{"NaN noise", [][]float64{{1}}, [][][]float64{{{math.NaN()}}}, []string{"n_1^(1)", "non-finite"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecomposePrefixRisk(tc.signal, tc.noise)
			checkErrContains(t, err, tc.parts...)
		})
	}
}

package kernelext

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// Mean is the mean of xs (NaN when empty).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m, _ := eval.MeanSD(xs)
	return m
}

// MeanSD formats xs as "mean ± sd" (one value: the value; none: "–").
func MeanSD(xs []float64) string {
	switch len(xs) {
	case 0:
		return "–"
	case 1:
		return fmt.Sprintf("%.4f", xs[0])
	}
	m, sd := eval.MeanSD(xs)
	return fmt.Sprintf("%.4f ± %.4f", m, sd)
}

// PaperScore formats the paper's reported test rel-L2 of a testbed and method ("–" where the paper
// reports none).
func PaperScore(testbed, method string) string {
	if p, ok := experiment.PaperRelL2[testbed][method]; ok {
		return fmt.Sprintf("%.4f ± %.4f", p.Mean, p.SD)
	}
	return "–"
}

// MeanCurve is the pointwise mean of curves of one length (per-horizon errors of several seeds);
// nil when there are none. Curves of different lengths are cut to the shortest.
func MeanCurve(curves [][]float64) []float64 {
	if len(curves) == 0 {
		return nil
	}
	n := len(curves[0])
	for _, c := range curves {
		n = min(n, len(c))
	}
	out := make([]float64, n)
	for _, c := range curves {
		for i := range out {
			out[i] += c[i] / float64(len(curves))
		}
	}
	return out
}

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

package baseline_test

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

func sine(amp, phase float64, n int) data.Series {
	x := make([][]float64, n)
	for t := range x {
		x[t] = []float64{amp * math.Sin(.4*float64(t)+phase)}
	}
	return data.Series{X: x}
}

// Score fits the three baselines on a toy testbed of sinusoids and scores
// them with eq. (8). The zero forecast sits at 1; damped persistence, whose
// φ minimises squared error on the training units, is not guaranteed to
// beat it under eq. (8)'s per-step normalisation (here it does not); the
// ridge finds the sinusoid's exact AR(2) recurrence (W = 1 cannot represent
// it, so validation picks W = 2).
func ExampleScore() {
	ds, err := data.NewDataset("sine",
		[]data.Series{sine(1, 0, 100), sine(2, 1, 100), sine(.5, 2, 100)},
		[]data.Series{sine(1.5, 3, 90)},
		[]data.Series{sine(1, 4, 80), sine(3, 5, 80)}, false)
	if err != nil {
		panic(err)
	}
	p := baseline.Protocol{BurnIn: 4, History: 8, H: 12, MaxOrigins: eval.MaxOrigins}
	rs, err := baseline.Score(ds, p, baseline.Grid{Windows: []int{1, 2}, Lambdas: []float64{1e-8}})
	if err != nil {
		panic(err)
	}
	for _, r := range rs {
		fmt.Printf("%-18s %-32s test rel-L2 %.4f\n", r.Name, r.Params(), r.Test.RelL2)
	}

	// Each baseline is an eval.Forecaster: score it on any units directly.
	res, err := eval.Evaluate(baseline.Zero{}, []eval.Unit{{X: [][]float64{{1}, {2}, {0}, {0}, {3}}}}, 1, 2, eval.MaxOrigins)
	fmt.Printf("zero on a hand-made unit: %.4f %v\n", res.RelL2, err)
	// Output:
	// zero               -                                test rel-L2 1.0000
	// damped-persistence phi=0.554692                     test rel-L2 1.0379
	// ridge-ar           W=2 lambda=1e-08 drive=false     test rel-L2 0.0000
	// zero on a hand-made unit: 0.3333 <nil>
}

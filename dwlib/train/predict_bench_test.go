package train

import (
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// BenchmarkValidation times one validation pass in the standard profile's ETT geometry
// (Mamba-24, 4 blocks, 7 channels, 32 context steps, h = 1..16, 45 units × 16 origins, calls of
// 64 windows), with the windows of consecutive units packed into full calls ("packed", what
// eval.Evaluate does) and with one unit per call padded to 64 ("per-unit", before): one run
// gives the ratio.
//
//	go test ./dwlib/train -run '^$' -bench Validation -benchtime 3x
func BenchmarkValidation(b *testing.B) {
	const units, length, D, window, H, origins, batch = 45, 256, 7, 32, 16, 16, 64
	f, err := model.New(model.Config{Kind: "mamba", StateDim: D, Hidden: 24, Layers: 4, SSMState: 16, ConvWidth: 4, Expand: 2, Window: window, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	series := make([]data.Series, units)
	for u := range series {
		series[u].X = make([][]float64, length)
		for t := range series[u].X {
			series[u].X[t] = make([]float64, D)
			for d := range D {
				series[u].X[t][d] = rng.NormFloat64()
			}
		}
	}
	us := Units(series, 0)
	p, err := NewPredictor(backend.MustShared(), f, batch)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		f    eval.BatchForecaster
	}{{"per-unit", perUnit{p}}, {"packed", p}} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := eval.EvaluateBatch(bc.f, us, window, H, origins); err != nil { // compile
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := eval.EvaluateBatch(bc.f, us, window, H, origins); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

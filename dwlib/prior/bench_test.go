package prior

import (
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// BenchmarkBuildFactorBank: 40 channels, 20,000 training steps, K = 64, the paper's folds and
// purge, rho in {8, 16, 32} and p in {8, 16, 32} (about 1.8 s on one core of the project machine).
func BenchmarkBuildFactorBank(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	D, T := 40, 20000
	x := make([][]float64, T)
	prev := make([]float64, D)
	for i := range x {
		r := make([]float64, D)
		for d := range r {
			r[d] = 0.95*prev[d] + rng.NormFloat64()
		}
		x[i], prev = r, r
	}
	cfg := DefaultFactorConfig(64)
	cfg.Ranks, cfg.Orders = []int{8, 16, 32}, []int{8, 16, 32}
	for b.Loop() {
		if _, _, err := BuildFactorBank([][][]float64{x}, cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildARBank: the paper-cpu Mackey–Glass geometry (28 training series of 2048 steps,
// an 8-dimensional delay state, no drive), K = 32, DefaultARConfig.
func BenchmarkBuildARBank(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	train := make([]data.Series, 28)
	for i := range train {
		y := make([]float64, 2048+7)
		for t := 2; t < len(y); t++ {
			y[t] = 1.6*y[t-1] - 0.8*y[t-2] + rng.NormFloat64()
		}
		for t := range 2048 {
			row := make([]float64, 8)
			for d := range row {
				row[d] = y[t+7-d]
			}
			train[i].X = append(train[i].X, row)
		}
	}
	for b.Loop() {
		if _, _, err := NewARSampler(train, 32, 1); err != nil {
			b.Fatal(err)
		}
	}
}

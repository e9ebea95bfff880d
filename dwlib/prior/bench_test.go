package prior

import (
	"math/rand/v2"
	"testing"
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

package noise_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

// Example shows the per-minibatch call sequence of a noise sampler in
// Algorithm 1: probes sample from the committed state, every minibatch stages
// its residuals, and Commit runs after the task backward and parameter update.
func Example() {
	const n, K, D = 2, 2, 1
	sampler, err := noise.New("generic") // DW-Generic, beta = 0.99
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2)) // caller-owned randomness

	for b := range 2 {
		// Calibration minibatch: draw probe noise from the COMMITTED state only.
		ready := sampler.Ready(K)
		eps, err := sampler.Sample(rng, n, K, D)
		if err != nil {
			panic(err)
		}
		fmt.Printf("minibatch %d: ready=%v |eps[0]|=(%g, %g)\n", b, ready, abs(eps[0]), abs(eps[1]))

		// Every minibatch: stage the detached residuals e = x* - xhat, [n][K][D].
		residuals := []float64{1, 2, 3, 6} // sample 0: (1, 2); sample 1: (3, 6)
		if err := sampler.Stage(residuals, n, K, D); err != nil {
			panic(err)
		}
		// ... task backward with committed gains, optimizer step ...
		sampler.Commit()
	}
	// Output:
	// minibatch 0: ready=[false false] |eps[0]|=(0, 0)
	// minibatch 1: ready=[true true] |eps[0]|=(1, 2)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// ExampleDiagonal shows what the diagonal-Gaussian sampler (the released known-SNR arm) keeps:
// per horizon, each coordinate's residual variance, from which it draws independent noise.
func ExampleDiagonal() {
	g, err := noise.NewDiagonal(noise.DiagonalConfig{})
	if err != nil {
		panic(err)
	}
	// One minibatch of n = 2 residual trajectories, K = 1, D = 2: coordinate 0 varies by ±1
	// around 5, coordinate 1 by ±3 around 0.
	if err := g.Stage([]float64{6, 3, 4, -3}, 2, 1, 2); err != nil {
		panic(err)
	}
	g.Commit()
	v := g.Variance(0)
	fmt.Printf("variance per coordinate: %.4f, %.4f\n", v[0], v[1])
	// Output:
	// variance per coordinate: 1.0000, 9.0000
}

package calib_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Example shows the per-minibatch call sequence of Algorithm 1 with the
// paper's W/C = 8/4 and a DW-Generic sampler owned by the controller. The
// model is faked: the reduced probe moments (1/D_l)·dᵀd are constants.
func Example() {
	const K, L, n, D = 2, 1, 4, 1
	sampler, _ := noise.New("generic")
	ctrl, err := calib.New(calib.DefaultConfig(K, L), sampler)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))

	for b := range 17 {
		gains := ctrl.Gains() // committed gains for this minibatch's task backward
		// ... roll out K steps with `gains` in the routed backward, form the task loss ...

		if ctrl.IsCalibration() {
			// Probe noise from the committed sampler state; it enters q_noise.
			eps, _ := sampler.Sample(rng, n, K, D)
			_ = eps
			// ... two fully open VJP probes (q_tot, q_noise), reduce per (k, l):
			tot := []wiener.Sym2{{II: 2, JJ: 2}, {II: 2, JJ: 2}}
			nz := []wiener.Sym2{{II: 1, JJ: 1}, {II: 1, JJ: 1}}
			if err := ctrl.Stage(tot, nz, sampler.Ready(K)); err != nil {
				panic(err)
			}
			fmt.Printf("b=%2d calibrates; task backward uses (%.3f, %.3f)\n", b, gains[0], gains[1])
		}

		// Every minibatch: stage the detached residuals x* - xhat, [n][K][D].
		residuals := []float64{0.1, -0.2, 0.3, 0.1, -0.1, 0.2, 0.0, -0.3}
		if err := sampler.Stage(residuals, n, K, D); err != nil {
			panic(err)
		}

		// ... task backward and optimizer step ...
		ctrl.Commit() // commits moments, gains and the sampler; b++
	}
	g := ctrl.Gains()
	fmt.Printf("after %d minibatches, %d calibrations: gains (%.3f, %.3f)\n",
		ctrl.Minibatch(), ctrl.Calibrations(), g[0], g[1])
	// Output:
	// b= 8 calibrates; task backward uses (1.000, 1.000)
	// b=12 calibrates; task backward uses (0.500, 0.500)
	// b=16 calibrates; task backward uses (0.500, 0.500)
	// after 17 minibatches, 3 calibrations: gains (0.500, 0.500)
}

// Example_checkpoint saves the whole controller, including its sampler, and
// restores it into a freshly constructed controller.
func Example_checkpoint() {
	sampler, _ := noise.New("generic")
	ctrl, _ := calib.New(calib.Config{K: 1, L: 1, Warmup: 0, Period: 1, RouteEMA: 0.95}, sampler)
	_ = sampler.Stage([]float64{0.5, -0.5}, 2, 1, 1)
	_ = ctrl.Stage([]wiener.Sym2{{II: 3, IJ: 0.5, JJ: 1}}, []wiener.Sym2{{II: 1, JJ: 0.5}}, []bool{true})
	ctrl.Commit()

	data, err := json.Marshal(ctrl)
	if err != nil {
		panic(err)
	}

	restoredSampler, _ := noise.New("generic")
	restored, _ := calib.New(calib.Config{K: 1, L: 1, Warmup: 0, Period: 1, RouteEMA: 0.95}, restoredSampler)
	if err := json.Unmarshal(data, restored); err != nil {
		panic(err)
	}
	again, _ := json.Marshal(restored)
	fmt.Println("minibatch:", restored.Minibatch(), "identical:", string(again) == string(data),
		"sampler ready:", restoredSampler.Ready(1))
	// Output:
	// minibatch: 1 identical: true sampler ready: [true]
}

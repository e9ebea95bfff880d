package prior_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/prior"
)

// A bank of two residual trajectories (K = 2 horizons, D = 1): the bootstrap
// centres them by the bank mean per horizon and multiplies one whole
// trajectory by one random sign, so every draw is ±(1, 2) here.
func ExampleSampler() {
	bank, err := prior.NewBank(2, 1, [][]float64{{1, 3}, {3, 7}})
	if err != nil {
		panic(err)
	}
	// Through the noise registry, as calibration creates samplers.
	s, err := noise.New(prior.Name, prior.Config{Bank: bank})
	if err != nil {
		panic(err)
	}
	fmt.Println("mean:", bank.Mean(), "covariance:", bank.Covariance())
	fmt.Println("ready:", s.Ready(3))
	eps, _ := s.Sample(rand.New(rand.NewPCG(1, 3)), 3, 2, 1)
	for i := range 3 {
		fmt.Println(eps[2*i : 2*i+2])
	}
	// Output:
	// mean: [2 5] covariance: [1 2 2 4]
	// ready: [true true false]
	// [1 2]
	// [-1 -2]
	// [-1 -2]
}

// An explosive AR(1) with phi = 2 is shrunk to phi = 0.995; a stable one is
// left alone.
func ExampleCapRadius() {
	capped, kappa, _ := prior.CapRadius([]float64{2}, prior.DefaultRadiusCap)
	fmt.Printf("phi %.4f, kappa %.4f\n", capped[0], kappa)
	capped, kappa, _ = prior.CapRadius([]float64{0.5, 0.2}, prior.DefaultRadiusCap)
	fmt.Println(capped, kappa)
	// Output:
	// phi 0.9950, kappa 0.4975
	// [0.5 0.2] 1
}

// DW-Prior for any series: a driven AR(1) training split, a cross-fitted
// ridge AR as the predictor, and a bank of held-out residual trajectories
// for the "prior-ar" sampler.
func ExampleBuildARBank() {
	rng := rand.New(rand.NewPCG(7, 7))
	var train []data.Series
	for range 2 {
		x, u := [][]float64{{0}}, [][]float64{}
		for t := range 400 {
			u = append(u, []float64{rng.NormFloat64()})
			if t < 399 {
				x = append(x, []float64{0.8*x[t][0] + 0.5*u[t][0] + 0.1*rng.NormFloat64()})
			}
		}
		train = append(train, data.Series{X: x, Drive: u})
	}
	cfg := prior.DefaultARConfig(8)
	cfg.Purge, cfg.Windows, cfg.BankStride, cfg.MaxBank, cfg.Seed = 16, []int{1, 2, 4}, 2, 256, 1
	bank, sel, err := prior.BuildARBank(train, cfg)
	if err != nil {
		panic(err)
	}
	s, _ := prior.NewSampler(prior.Config{Name: prior.ARName, Bank: bank})
	fmt.Printf("W=%d, bank %d x K=%d x D=%d, sampler %q\n", sel.Window, bank.Len(), bank.K(), bank.D(), s.Name())
	sd := math.Sqrt(bank.Covariance()[0])
	fmt.Printf("one-step residual sd %.2f (innovation sd 0.10)\n", sd)
	// Output:
	// W=2, bank 256 x K=8 x D=1, sampler "prior-ar"
	// one-step residual sd 0.10 (innovation sd 0.10)
}

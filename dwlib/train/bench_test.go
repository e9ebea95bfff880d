package train

import (
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// benchBatch is a random minibatch for the benchmark geometry.
func benchBatch(n, window, K, D int, seed uint64) *Batch {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := &Batch{N: n, Window: window, K: K, D: D}
	b.History = make([]float64, n*window*D)
	b.Targets = make([]float64, n*K*D)
	for i := range b.History {
		b.History[i] = rng.NormFloat64()
	}
	for i := range b.Targets {
		b.Targets[i] = rng.NormFloat64()
	}
	return b
}

// benchmarkStep times training steps of a residual MLP stepper (hidden 128, 4 routed blocks,
// batch 32, K = 32, D = 8) on the default backend. mode: "full" (plain BPTT graph), "dw-task"
// (routed step with committed gains, no probes), "dw-calib" (routed step + both open-route probes),
// "dw-every4" (Algorithm 1 with W = 0, C = 4: one calibration every four steps).
func benchmarkStep(b *testing.B, mode string) {
	const hidden, layers, batch, K, D = 128, 4, 32, 32, 8
	f, err := model.New(model.Config{Kind: "mlp", StateDim: D, Hidden: hidden, Layers: layers, Window: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Method: "full", K: K, BatchSize: batch, Seed: 1}
	switch mode {
	case "dw-task":
		cfg.Method, cfg.Warmup = "dw", 1<<30
	case "dw-calib":
		cfg.Method, cfg.Warmup, cfg.Period = "dw", 1, 1
	case "dw-every4":
		cfg.Method, cfg.Warmup, cfg.Period = "dw", 1, 4
	}
	tr, err := NewTrainer(backend.MustShared(), f, cfg)
	if err != nil {
		b.Fatal(err)
	}
	batchData := benchBatch(batch, 1, K, D, 2)
	// Warm-up: compile both graphs (a calibration needs a committed residual template first).
	for range 2 {
		if _, err := tr.Step(batchData); err != nil {
			b.Fatal(err)
		}
	}
	if mode == "dw-every4" {
		for tr.Controller().Minibatch()%4 != 1 { // start the timed loop at a calibration step
			if _, err := tr.Step(batchData); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for range b.N {
		if _, err := tr.Step(batchData); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrainStep measures the cost of routing and calibration relative to plain BPTT in one
// run:
//
//	go test ./dwlib/train -run '^$' -bench TrainStep -benchtime 20x -count 3
func BenchmarkTrainStep(b *testing.B) {
	for _, mode := range []string{"full", "dw-task", "dw-calib", "dw-every4"} {
		b.Run(mode, func(b *testing.B) { benchmarkStep(b, mode) })
	}
}

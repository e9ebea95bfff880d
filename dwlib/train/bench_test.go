package train

import (
	"fmt"
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

// BenchmarkMambaStep times one Full BPTT training step of the paper's residual Mamba (4 blocks,
// batch 32, 32 teacher-forced context steps, K = 32, D = 1) at the standard width 24 and the paper's
// width 128: the unit every sweep is made of, and the figure the backend comparison is about.
//
//	go test ./dwlib/train -run '^$' -bench MambaStep -benchtime 5x -count 3
func BenchmarkMambaStep(b *testing.B) {
	const batch, window, K, D = 32, 32, 32, 1
	for _, hidden := range []int{24, 128} {
		b.Run(fmt.Sprintf("h%d", hidden), func(b *testing.B) {
			f, err := model.New(model.Config{Kind: "mamba", StateDim: D, Hidden: hidden, Window: window, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			tr, err := NewTrainer(backend.MustShared(), f, Config{Method: "full", K: K, BatchSize: batch, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			bt := benchBatch(batch, window, K, D, 2)
			if _, err := tr.Step(bt); err != nil { // compile
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := tr.Step(bt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

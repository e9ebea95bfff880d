package experiment

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// benchmarkEpoch times one training epoch on Mackey–Glass (28 training trajectories × 16 starts =
// 14 minibatches of 32, K = 32): the training loop only, as the paper times it (no validation,
// no I/O). One epoch runs before the timer starts (compilation, and DW's warm-up of 8
// minibatches), so the timed epochs of DW include its calibrations every 4 minibatches.
func benchmarkEpoch(b *testing.B, method string, hidden int) {
	cfg, err := Resolve(Standard, "mackey-glass", method, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Model.Hidden = hidden
	ds, err := LoadData(cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	mc, _ := cfg.modelConfig(ds.StateDim, ds.DriveDim)
	f, err := model.New(mc)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := train.NewTrainer(backend.MustShared(), f, cfg.Train)
	if err != nil {
		b.Fatal(err)
	}
	g := train.Geometry{Window: mc.Window, K: cfg.Train.K, BurnIn: mc.BurnIn}
	rng := rand.New(rand.NewPCG(1, 2))
	epoch := func() {
		picks, err := train.EpochPicks(rng, ds.Train, cfg.Fit.StartsPerUnit, g)
		if err != nil {
			b.Fatal(err)
		}
		bs := cfg.Train.BatchSize
		batches := make([]*train.Batch, 0, len(picks)/bs)
		for i := 0; i+bs <= len(picks); i += bs {
			bt, err := train.MakeBatch(ds.Train, picks[i:i+bs], g)
			if err != nil {
				b.Fatal(err)
			}
			batches = append(batches, bt)
		}
		b.StartTimer()
		for _, bt := range batches {
			if _, err := tr.Step(bt); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
	}
	b.StopTimer()
	epoch() // warm-up epoch: compilation, DW warm-up
	b.ResetTimer()
	for range b.N {
		epoch()
	}
	if c := tr.Controller(); c != nil && c.Calibrations() == 0 {
		b.Fatal("DW never calibrated")
	}
}

// BenchmarkEpochMG compares Full BPTT and Internal-DW per training epoch, side by side:
//
//	go test ./dwlib/experiment -run '^$' -bench 'EpochMG/h24' -benchtime 3x -count 3
//
// h24 is the standard profile's Mamba-24, h128 the paper's Mamba-128.
func BenchmarkEpochMG(b *testing.B) {
	for _, h := range []int{24, 128} {
		for _, m := range []string{"full", "dw"} {
			b.Run(fmt.Sprintf("h%d/%s", h, m), func(b *testing.B) { benchmarkEpoch(b, m, h) })
		}
	}
}

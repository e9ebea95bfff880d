package train

import (
	"fmt"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// BenchmarkEngines times a Mamba training step (batch 32, window 32, K = 32) on the unrolled
// graphs and on the step engine, alternating within each iteration so that machine noise hits
// both alike, for Full and for a DW calibration step (the probes). Reported: ms per step of each
// and steps/unrolled. On the pure-Go backend the step engine pays for recomputing every step in
// the backward pass and for one dispatch per step; on XLA it is what keeps compilation short.
//
//	go test ./dwlib/train -run '^$' -bench Engines -benchtime 5x
func BenchmarkEngines(b *testing.B) {
	const batch, window, K, D = 32, 32, 32, 1
	for _, hidden := range []int{24, 128} {
		for _, method := range []string{"full", "dw-calib"} {
			b.Run(fmt.Sprintf("h%d/%s", hidden, method), func(b *testing.B) {
				newTrainer := func(engine string) *Trainer {
					f, err := model.New(model.Config{Kind: "mamba", StateDim: D, Hidden: hidden, Window: window, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					cfg := Config{Method: "full", K: K, BatchSize: batch, Seed: 1, Engine: engine}
					if method == "dw-calib" {
						cfg.Method, cfg.Warmup, cfg.Period = "dw", 1, 1 // every step after the first calibrates
					}
					tr, err := NewTrainer(backend.MustShared(), f, cfg)
					if err != nil {
						b.Fatal(err)
					}
					return tr
				}
				bt := benchBatch(batch, window, K, D, 2)
				trs := []*Trainer{newTrainer(EngineUnrolled), newTrainer(EngineSteps)}
				var elapsed [2]time.Duration
				for _, tr := range trs { // compile; DW's first step is its warm-up
					if _, err := tr.Step(bt); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for range b.N {
					for i, tr := range trs {
						start := time.Now()
						if _, err := tr.Step(bt); err != nil {
							b.Fatal(err)
						}
						elapsed[i] += time.Since(start)
					}
				}
				n := float64(b.N)
				b.ReportMetric(elapsed[0].Seconds()*1e3/n, "unrolled-ms/step")
				b.ReportMetric(elapsed[1].Seconds()*1e3/n, "steps-ms/step")
				b.ReportMetric(elapsed[1].Seconds()/elapsed[0].Seconds(), "steps/unrolled")
			})
		}
	}
}

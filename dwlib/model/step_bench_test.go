package model

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/backend"
)

// cpuTime is the process's user + system CPU time so far. On a shared machine it is a steadier
// measure of a step's work than wall time, which also counts the time other processes hold the
// cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stepVariant is one implementation of the Mamba training step (loss and all gradients).
type stepVariant struct {
	name string
	run  func()
	wall time.Duration
	cpu  time.Duration
}

// mambaStepVariants builds, for one forecaster and batch, the GoMLX step as it was before issue 10
// ("old": the broadcasting Mamba block and GoMLX's DotGeneral gradient), the current one ("new"),
// the plain-Go reference ("plain") and the current block with GoMLX's DotGeneral gradient
// ("new-stockvjp", to tell the two changes apart).
func mambaStepVariants(b *testing.B, hidden int) []*stepVariant {
	const batch, window, K, D = 32, 32, 32, 1
	f, err := New(Config{Kind: "mamba", StateDim: D, Hidden: hidden, Window: window, Seed: 1, DType: dtypes.Float32})
	if err != nil {
		b.Fatal(err)
	}
	hd, td := stepData[float32](rand.New(rand.NewPCG(1, 2)), batch, window, K, D)
	ht, tt := tensors.FromFlatDataAndDimensions(hd, batch, window, D), tensors.FromFlatDataAndDimensions(td, batch, K, D)
	graphVariant := func(name string, bind func(*mambaBlock, *Graph, int) blockFn, stockVJP bool) *stepVariant {
		defer func(old func(*mambaBlock, *Graph, int) blockFn) { bindMamba = old }(bindMamba)
		bindMamba = bind
		if stockVJP {
			VJPRegistration[NodeTypeDotGeneral] = backend.StockDotGeneralVJP
			defer backend.RegisterGradients()
		}
		exec := graphStep(f, K)
		exec.MustCall(ht, tt) // compile with this bind
		return &stepVariant{name: name, run: func() { exec.MustCall(ht, tt) }}
	}
	plain, err := newPlainStep[float32](f, batch, K)
	if err != nil {
		b.Fatal(err)
	}
	return []*stepVariant{
		graphVariant("old", bindMambaBroadcast, true),
		graphVariant("new", bindMambaLean, false),
		{name: "plain", run: func() { plain.lossAndGradients(hd, td) }},
		graphVariant("new-stockvjp", bindMambaLean, true),
	}
}

// BenchmarkMambaStepRatios times one Full-BPTT training step (forward, loss, every gradient; no
// optimizer update) of the paper's residual Mamba (4 blocks, batch 32, 32 context steps, K = 32,
// D = 1) at width 24 and 128, in the implementations of mambaStepVariants run one after the other
// inside every iteration, so that their ratios share the machine's conditions. It reports each
// one's wall and CPU milliseconds per step and ratios of CPU time:
//
//	go test ./dwlib/model -run '^$' -bench MambaStepRatios -benchtime 3x -count 3
//
// Each variant runs under the pprof label variant=NAME, so one profile serves all of them:
//
//	go test ./dwlib/model -run '^$' -bench MambaStepRatios/h24 -benchtime 3x -cpuprofile cpu.out
//	go tool pprof -top -tagfocus variant=new cpu.out
func BenchmarkMambaStepRatios(b *testing.B) {
	for _, hidden := range []int{24, 128} {
		b.Run(fmt.Sprintf("h%d", hidden), func(b *testing.B) {
			vs := mambaStepVariants(b, hidden)
			vs[2].run() // the plain step's first run, as the graphs' compiling runs
			b.ResetTimer()
			for range b.N {
				for _, v := range vs {
					w0, c0 := time.Now(), cpuTime()
					pprof.Do(context.Background(), pprof.Labels("variant", v.name), func(context.Context) { v.run() })
					v.wall += time.Since(w0)
					v.cpu += cpuTime() - c0
				}
			}
			ms := func(d time.Duration) float64 { return float64(d) / 1e6 / float64(b.N) }
			for _, v := range vs {
				b.ReportMetric(ms(v.wall), v.name+"-ms/op")
				b.ReportMetric(ms(v.cpu), v.name+"-cpu-ms/op")
			}
			old, cur, plain := vs[0].cpu.Seconds(), vs[1].cpu.Seconds(), vs[2].cpu.Seconds()
			b.ReportMetric(old/cur, "old/new")
			b.ReportMetric(cur/plain, "new/plain")
			b.ReportMetric(old/plain, "old/plain")
			b.ReportMetric(vs[3].cpu.Seconds()/cur, "stockvjp/new")
		})
	}
}

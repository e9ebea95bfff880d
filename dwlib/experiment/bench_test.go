package experiment

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// epochRunner runs training epochs of one method on Mackey–Glass (28 training trajectories × 16
// starts = 14 minibatches of 32, K = 32) and times the training loop only, as the paper does (no
// validation, no I/O).
type epochRunner struct {
	tr      *train.Trainer
	units   []data.Series
	g       train.Geometry
	starts  int
	batch   int
	rng     *rand.Rand
	elapsed time.Duration
}

func newEpochRunner(b *testing.B, method string, hidden int) *epochRunner {
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
	return &epochRunner{tr: tr, units: ds.Train, g: train.Geometry{Window: mc.Window, K: cfg.Train.K, BurnIn: mc.BurnIn},
		starts: cfg.Fit.StartsPerUnit, batch: cfg.Train.BatchSize, rng: rand.New(rand.NewPCG(1, 2))}
}

// epoch runs one epoch and adds its training-loop time to elapsed.
func (r *epochRunner) epoch(b *testing.B) {
	picks, err := train.EpochPicks(r.rng, r.units, r.starts, r.g)
	if err != nil {
		b.Fatal(err)
	}
	var batches []*train.Batch
	for i := 0; i+r.batch <= len(picks); i += r.batch {
		bt, err := train.MakeBatch(r.units, picks[i:i+r.batch], r.g)
		if err != nil {
			b.Fatal(err)
		}
		batches = append(batches, bt)
	}
	start := time.Now()
	for _, bt := range batches {
		if _, err := r.tr.Step(bt); err != nil {
			b.Fatal(err)
		}
	}
	r.elapsed += time.Since(start)
}

// BenchmarkEpochMG times Full BPTT and Internal-DW training epochs side by side: each iteration
// is one Full epoch then one DW epoch, so machine noise hits both alike. One epoch of each runs
// before timing (compilation, and DW's warm-up of 8 minibatches), so DW's timed epochs include its
// calibrations every 4 minibatches. Reported: s/epoch of each and their ratio.
//
//	go test ./dwlib/experiment -run '^$' -bench 'EpochMG/h24' -benchtime 5x -count 3
//
// h24 is the standard profile's Mamba-24, h128 the paper's Mamba-128.
func BenchmarkEpochMG(b *testing.B) {
	for _, h := range []int{24, 128} {
		b.Run(fmt.Sprintf("h%d", h), func(b *testing.B) {
			full, dw := newEpochRunner(b, "full", h), newEpochRunner(b, "dw", h)
			full.epoch(b)
			dw.epoch(b)
			full.elapsed, dw.elapsed = 0, 0
			b.ResetTimer()
			for range b.N {
				full.epoch(b)
				dw.epoch(b)
			}
			if dw.tr.Controller().Calibrations() == 0 {
				b.Fatal("DW never calibrated")
			}
			n := float64(b.N)
			b.ReportMetric(full.elapsed.Seconds()/n, "full-s/epoch")
			b.ReportMetric(dw.elapsed.Seconds()/n, "dw-s/epoch")
			b.ReportMetric(dw.elapsed.Seconds()/full.elapsed.Seconds(), "dw/full")
		})
	}
}

// BenchmarkEpochProfile times Full BPTT and Internal-DW training epochs on Mackey–Glass as
// `dw train` runs them in a profile: a train.Session of the profile's configuration (its model
// width, grouping, microbatches and accumulation, seed 0), the training loop only
// (EpochRecord.TrainSeconds; the validation after each epoch is not counted). One epoch of each
// runs first (compilation, DW's warm-up); then each iteration is one Full epoch and one DW epoch.
//
//	go test ./dwlib/experiment -run '^$' -bench 'EpochProfile' -benchtime 2x
//
// "standard" is the standard profile (Mamba-24, minibatches of 32 windows), "paper-cpu" the
// authors' configuration at width 32 (microbatches of 4 trajectories × 16 starts).
func BenchmarkEpochProfile(b *testing.B) {
	for _, profile := range []string{Standard, PaperCPU} {
		b.Run(profile, func(b *testing.B) {
			full, dw := newProfileSession(b, profile, "full", b.N+1), newProfileSession(b, profile, "dw", b.N+1)
			full.epoch(b)
			dw.epoch(b)
			full.seconds, dw.seconds = 0, 0
			b.ResetTimer()
			for range b.N {
				full.epoch(b)
				dw.epoch(b)
			}
			n := float64(b.N)
			b.ReportMetric(full.seconds/n, "full-s/epoch")
			b.ReportMetric(dw.seconds/n, "dw-s/epoch")
			b.ReportMetric(dw.seconds/full.seconds, "dw/full")
		})
	}
}

// profileSession is one method's training session for BenchmarkEpochProfile.
type profileSession struct {
	s       *train.Session
	seconds float64
}

func newProfileSession(b *testing.B, profile, method string, epochs int) *profileSession {
	cfg, err := Resolve(profile, "mackey-glass", method, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	ds, f, err := setupModel(cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	fit := cfg.Fit
	fit.Epochs, fit.Patience = epochs, epochs+1 // never stop early while timing
	s, err := train.NewSession(backend.MustShared(), f, cfg.Train, fit, ds.Train, ds.Val, cfg)
	if err != nil {
		b.Fatal(err)
	}
	return &profileSession{s: s}
}

// epoch trains one epoch and adds its training-loop seconds.
func (p *profileSession) epoch(b *testing.B) {
	rec, err := p.s.RunEpoch(nil)
	if err != nil {
		b.Fatal(err)
	}
	p.seconds += rec.TrainSeconds
}

// BenchmarkSweepJobs times one small standard-geometry sweep (Mackey–Glass, Full and DW, seeds
// 0 and 1, one epoch each, fresh run directories) one run at a time and two at once, alternating in
// each iteration so machine noise hits both alike. Reported: wall seconds of each and the speed-up
// jobs1/jobs2. Meaningful only on an otherwise idle machine.
//
//	go test ./dwlib/experiment -run '^$' -bench SweepJobs -benchtime 1x -count 2
func BenchmarkSweepJobs(b *testing.B) {
	jobs := Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0, 1}}.Jobs()
	cache := b.TempDir()
	sweep := func(n int) time.Duration {
		opt := Options{RunsDir: b.TempDir(), DataCache: cache, Jobs: n}
		start := time.Now()
		outs, err := sweepEpochs(jobs, opt, 1)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Results(outs); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	sweep(2) // compile caches, data cache
	var one, two time.Duration
	b.ResetTimer()
	for range b.N {
		one += sweep(1)
		two += sweep(2)
	}
	n := float64(b.N)
	b.ReportMetric(one.Seconds()/n, "jobs1-s")
	b.ReportMetric(two.Seconds()/n, "jobs2-s")
	b.ReportMetric(one.Seconds()/two.Seconds(), "speedup")
}

// sweepEpochs runs jobs in the standard profile cut to the given number of epochs.
func sweepEpochs(jobs []Job, opt Options, epochs int) ([]Outcome, error) {
	cfgs, err := ResolveJobs(Standard, jobs)
	if err != nil {
		return nil, err
	}
	for i := range cfgs {
		cfgs[i].Fit.Epochs = epochs
	}
	return sweepConfigs(Standard, jobs, cfgs, opt)
}

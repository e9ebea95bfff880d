package experiment

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepCutShortKeepsWhatFinished: a horizon sweep whose session ends after its first run
// (the context is cancelled from that run's AfterRun) leaves that run archived with its score
// at H, which a fresh run tree then reads back without the checkpoint; the run that never
// started is neither called back nor archived.
func TestSweepCutShortKeepsWhatFinished(t *testing.T) {
	opt := quickOptions(t)
	opt.Archive = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt.Context = ctx
	const H = 12
	var called []string
	keep := ScoreAfterRun(H, 0, opt, ArchiveAfterRun(opt))
	opt.AfterRun = func(o Outcome) error {
		called = append(called, o.Config.Name())
		err := keep(o)
		cancel() // the session ends here
		return err
	}
	jobs := Grid{Testbeds: []string{"narma5"}, Methods: []string{"full"}, Seeds: []uint64{0, 1}, Ks: []int{6}}.Jobs()
	outs, err := Sweep(Quick, jobs, opt)
	if !errors.Is(err, ErrInterrupted) || len(outs) != 1 || outs[0].Err != nil {
		t.Fatalf("Sweep = %d outcomes, %v; want the first run and an interruption", len(outs), err)
	}
	if len(called) != 1 || called[0] != "quick/narma5/full-K6-s0" {
		t.Errorf("AfterRun called for %v, want the first run only", called)
	}
	for _, f := range []string{ArchivedResultFile, FixedHorizonFile(H, outs[0].Config.EvalOrigins)} {
		if _, err := os.Stat(filepath.Join(opt.Archive, "quick", "narma5", "full-K6-s0", f)); err != nil {
			t.Errorf("the finished run's %s is not in the archive: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(opt.Archive, "quick", "narma5", "full-K6-s1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run that never started is in the archive: %v", err)
	}
	// The machine is gone: a fresh run tree reads the score back from the archive alone.
	fresh := Options{RunsDir: t.TempDir(), Archive: opt.Archive, DataCache: opt.DataCache}
	want, err := EvaluateFixedHorizon(outs[0].Config, H, 0, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := EvaluateFixedHorizon(outs[0].Config, H, 0, fresh)
	if err != nil || got == nil || got.RelL2 != want.RelL2 {
		t.Errorf("score from the archive = %v, %v; want %v", got, err, want.RelL2)
	}
}

// TestAfterRunErrorKeepsTheResult: a failing AfterRun marks the run's outcome, naming the run,
// keeps its Result, and Results lists it among the failures; runs read back are called too.
func TestAfterRunErrorKeepsTheResult(t *testing.T) {
	opt := quickOptions(t)
	jobs := Grid{Testbeds: []string{"narma5"}, Methods: []string{"full"}, Seeds: []uint64{0}, Ks: []int{6}}.Jobs()
	if _, err := Sweep(Quick, jobs, opt); err != nil {
		t.Fatal(err)
	}
	calls := 0
	opt.AfterRun = func(Outcome) error { calls++; return errors.New("disk full") }
	outs, err := Sweep(Quick, jobs, opt) // read back, not trained
	if err != nil {
		t.Fatal(err)
	}
	o := outs[0]
	if calls != 1 || o.Result == nil || o.Err == nil ||
		!strings.Contains(o.Err.Error(), "quick/narma5/full-K6-s0 finished, but after the run: disk full") {
		t.Fatalf("calls %d, outcome result %v, err %v", calls, o.Result != nil, o.Err)
	}
	if rs, err := Results(outs); len(rs) != 0 || err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Results = %d, %v; want the failure listed", len(rs), err)
	}
}

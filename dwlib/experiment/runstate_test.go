package experiment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateOf walks one run through its states: not started, part-way after a stopped epoch,
// finished in its run directory, finished in the archive only (a fresh run tree), and a
// damaged checkpoint, which is named.
func TestStateOf(t *testing.T) {
	cfg, err := Resolve(Quick, "narma5", "dw", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	opt := quickOptions(t)
	opt.Archive = t.TempDir()
	want := func(step string, got RunState, err error, s string) {
		t.Helper()
		if err != nil || got.String() != s {
			t.Errorf("%s: %q, %v; want %q", step, got, err, s)
		}
	}
	st, err := StateOf(cfg, opt)
	want("before", st, err, "not started")

	stop := opt
	stop.StopAfter = 1
	if _, err := Run(cfg, stop); !errors.Is(err, ErrStopped) {
		t.Fatalf("StopAfter 1: %v", err)
	}
	st, err = StateOf(cfg, opt)
	want("stopped", st, err, "part-way: epoch 1 of 2")

	opt.Resume = true
	if _, err := Run(cfg, opt); err != nil {
		t.Fatal(err)
	}
	st, err = StateOf(cfg, opt)
	want("finished", st, err, "finished (run directory)")

	if _, err := ArchiveRun(cfg, opt); err != nil {
		t.Fatal(err)
	}
	fresh := Options{RunsDir: t.TempDir(), Archive: opt.Archive}
	st, err = StateOf(cfg, fresh)
	want("archived", st, err, "finished (archive)")

	other, _ := Resolve(Quick, "narma5", "full", 3, 0)
	dir, _ := opt.Dir(other)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, CheckpointFile)
	if err := os.WriteFile(bad, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := StateOf(other, opt); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("damaged checkpoint: %v, want an error naming %s", err, bad)
	}
}

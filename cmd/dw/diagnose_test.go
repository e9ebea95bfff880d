package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/kernelext/runcache"
)

// TestDiagnoseCommand: the regime probes run on the data alone; the checkpoint diagnostics are
// skipped, naming the command that trains their run, until the runs exist, and refused when asked
// for by name; then every section reports, a second call reads the measurements back (the same
// report), and -save writes it.
func TestDiagnoseCommand(t *testing.T) {
	runs, cache, saved, runCache := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("DW_CACHE_DIR", runCache)
	args := []string{"diagnose", "-profile", "quick", "-testbed", "mackey-glass", "-runs", runs, "-cache", cache}
	out, err := dw(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Predictive regime", "the paper's settings for mackey-glass", "on the data as the quick runs see it", "| ridge (linear) | 0.000 |", "| 0.442 |",
		"utility: skipped, run quick/mackey-glass/full-K8-s0 has not finished (train it: dw train -profile quick -testbed mackey-glass -method full -seed 0)",
		"noise: skipped, run quick/mackey-glass/dw-K8-s0 has not finished"} {
		if !strings.Contains(out, want) {
			t.Errorf("before training, the report lacks %q:\n%s", want, out)
		}
	}
	if _, err := dw(t, append(args, "-what", "utility")...); err == nil || !strings.Contains(err.Error(), "utility: run quick/mackey-glass/full-K8-s0 has not finished") {
		t.Errorf("-what utility without the run: %v", err)
	}
	if _, err := dw(t, "train", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full,dw", "-seed", "0", "-runs", runs, "-cache", cache); err != nil {
		t.Fatal(err)
	}
	out, err = dw(t, append(args, "-save", "-results", saved)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Held-out gradient utility at the Full BPTT checkpoint quick/mackey-glass/full-K8-s0",
		"| 1 | 1 | 1 – 1 |", "| 8 | ", "forecast steps (", "DW's gains under added noise at the DW checkpoint quick/mackey-glass/dw-K8-s0",
		"60 batches per level", "| L | 4 |", "| M | 1 |", "| H | 0.25 |", "As noise grows: "} {
		if !strings.Contains(out, want) {
			t.Errorf("after training, the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "skipped") {
		t.Errorf("a diagnostic was skipped with its run present:\n%s", out)
	}
	md, err := os.ReadFile(filepath.Join(saved, "diagnose-quick-mackey-glass-s0.md"))
	if err != nil || !strings.Contains(string(md), "Written by `dw ") || !strings.HasSuffix(string(md), out) {
		t.Errorf("saved report (%v):\n%s", err, md)
	}
	stored := cacheTimes(t, runCache)
	if len(stored) != 2 {
		t.Errorf("%d measurements in the run cache, want 2 (utility and noise): %v", len(stored), stored)
	}
	again, err := dw(t, append(args, "-what", "utility,noise")...)
	if err != nil || !strings.Contains(out, strings.SplitN(again, "\n", 3)[2]) {
		t.Errorf("a second measurement differs (%v):\n%s\nvs\n%s", err, again, out)
	}
	if now := cacheTimes(t, runCache); len(now) != len(stored) {
		t.Errorf("the second call stored %d measurements, want the first call's %d read back", len(now), len(stored))
	} else {
		for f, mt := range stored {
			if !now[f].Equal(mt) {
				t.Errorf("%s was measured again, not read back", f)
			}
		}
	}
	// A finished run without its parameters here (as one read from the archive) is named as such.
	if err := os.Remove(filepath.Join(runs, "quick", "mackey-glass", "dw-K8-s0", "best.ckpt")); err != nil {
		t.Fatal(err)
	}
	if _, err := dw(t, append(args, "-what", "noise")...); err == nil || !strings.Contains(err.Error(), "dw-K8-s0 finished elsewhere: its best checkpoint is not under the runs directory") {
		t.Errorf("-what noise without the checkpoint: %v", err)
	}
	if out, err := dw(t, args...); err != nil || !strings.Contains(out, "noise: skipped, run quick/mackey-glass/dw-K8-s0 finished elsewhere") {
		t.Errorf("without the DW checkpoint, noise is not skipped (%v):\n%s", err, out)
	}
}

// TestDiagnoseCSV: a user's file gets the generic probe settings, with the drive rows that acted
// over the predicted interval.
func TestDiagnoseCSV(t *testing.T) {
	dir := t.TempDir()
	csv := hourlyCSV(t, dir, 1000)
	out, err := dw(t, "diagnose", "-profile", "quick", "-data", csv, "-drive", "temperature", "-K", "8", "-runs", t.TempDir(), "-cache", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"csv-hourly-", "regime.GenericConfig: PCA 1, q 32", "| ridge (linear) |", "| – | – |", "the drive removes",
		"(train it: dw train -profile quick -data " + csv + " -drive temperature -method full -seed 0 -K 8)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestDiagnoseBadInput(t *testing.T) {
	dir := t.TempDir()
	csv := hourlyCSV(t, dir, 500)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-testbed", "mackey-glass", "-what", "regime,gains"}, `-what: "gains"`},
		{[]string{"-testbed", "mackey-glass", "-what", ""}, "-what lists no diagnostic"},
		{[]string{"-testbed", "mackey-glass", "-pairs", "0"}, "-pairs 0"},
		{[]string{"-testbed", "mackey-glass", "-noise-batches", "1"}, "-noise-batches 1"},
		{[]string{"-testbed", "mackey-glass", "-data", csv}, "mutually exclusive"},
		{[]string{}, "give -testbed T"},
		{[]string{"-testbed", "lorenz"}, `"lorenz"`},
	} {
		_, err := dw(t, append([]string{"diagnose", "-profile", "quick", "-runs", t.TempDir()}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}

// cacheTimes maps every file under dir to its modification time.
func cacheTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == runcache.LogFile { // the lookups' log, not a measurement
			return err
		}
		info, err := d.Info()
		if err == nil {
			out[path] = info.ModTime()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

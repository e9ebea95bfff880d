package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// dw runs the command line with stdout captured.
func dw(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	old := stdout
	stdout = &buf
	defer func() { stdout = old }()
	err := run(args)
	return buf.String(), err
}

// TestQuickTableSweep runs the table (30 runs) in the quick profile from nothing and
// prints it; "dw table" then reads the same results back.
func TestQuickTableSweep(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	out, err := dw(t, "sweep", "-profile", "quick", "-preset", "table", "-runs", runs, "-cache", cache)
	if err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	for _, want := range []string{
		"| mackey-glass | full | 3 |", "| mackey-glass | dw | 3 |", "| mackey-glass | static | 1 |",
		"| narma5 | clip | 1 |", "| narma5 | tbptt | 1 |", "| driven-mg | jreg | 1 |", "| driven-mg | dw | 3 |",
		"| mackey-glass | 3 |", "| narma5 | 3 |", "| driven-mg | 3 |", "30 runs (quick profile",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
	results, _ := filepath.Glob(filepath.Join(runs, "quick", "*", "*", experiment.ResultFile))
	if len(results) != 30 {
		t.Errorf("%d result files, want 30", len(results))
	}
	table, err := dw(t, "table", "-profile", "quick", "-preset", "table", "-runs", runs, "-cache", cache)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, table) {
		t.Errorf("dw table differs from the sweep's table:\n%s\nvs\n%s", table, out)
	}
}

func TestBadInputIsRefused(t *testing.T) {
	runs := t.TempDir()
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"train", "-testbed", "mackey-glass", "-method", "magic", "-runs", runs}, "valid methods: full, clip, jreg, tbptt, static, dw", false},
		{[]string{"train", "-testbed", "lorenz", "-method", "dw", "-runs", runs}, "valid testbeds: known-snr, mackey-glass, driven-mg, narma5, ettm1, ettm2", false},
		{[]string{"train", "-testbed", "mackey-glass", "-method", "dw", "-K", "60", "-runs", runs}, "K = 60 is too long for mackey-glass", false},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full,nope", "-runs", runs}, `unknown method "nope"`, false},
		{[]string{"sweep", "-profile", "huge", "-preset", "table", "-runs", runs}, `unknown profile "huge"`, false},
		{[]string{"sweep", "-preset", "everything", "-runs", runs}, `unknown preset "everything"`, false},
		{[]string{"train", "-testbed", "mackey-glass"}, "-testbed and -method are required", true},
		{[]string{"fly"}, `unknown command "fly"`, true},
		{[]string{"train", "-bogus"}, "flag provided but not defined", true},
	} {
		_, err := dw(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("dw %v: %v, want an error containing %q", tc.args, err, tc.want)
			continue
		}
		var ue usageError
		if errors.As(err, &ue) != tc.usage {
			t.Errorf("dw %v: usage error = %v, want %v", tc.args, !tc.usage, tc.usage)
		}
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("refused commands created %d entries in the runs directory", len(entries))
	}
}

var relL2 = regexp.MustCompile(`test rel-L2 ([0-9.]+)`)

func TestTrainStopResumeEval(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	args := []string{"train", "-profile", "quick", "-testbed", "narma5", "-method", "dw", "-seed", "2", "-runs", runs, "-cache", cache}
	if _, err := dw(t, append(args, "-stop-after", "1")...); !errors.Is(err, experiment.ErrStopped) {
		t.Fatalf("-stop-after 1: %v, want ErrStopped", err)
	}
	if _, err := dw(t, args...); err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("training over a checkpoint without -resume: %v", err)
	}
	out, err := dw(t, append(args, "-resume")...)
	if err != nil {
		t.Fatal(err)
	}
	m := relL2.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no score in %q", out)
	}
	dir := filepath.Join(runs, "quick", "narma5", "dw-K8-s2")
	ev, err := dw(t, "eval", "-run", dir, "-cache", cache)
	if err != nil {
		t.Fatal(err)
	}
	if e := relL2.FindStringSubmatch(ev); e == nil || e[1] != m[1] {
		t.Errorf("dw eval gives %q, training reported %s", ev, m[1])
	}
	curve, err := dw(t, "eval", "-run", dir, "-cache", cache, "-H", "4", "-curve")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(curve, "\n"); n != 5 {
		t.Errorf("eval -H 4 -curve printed %d lines, want 1 + 4:\n%s", n, curve)
	}
	if _, err := dw(t, "eval", "-run", dir, "-cache", cache, "-H", "500"); err == nil || !strings.Contains(err.Error(), "H = 500") {
		t.Errorf("eval at a horizon longer than the units: %v", err)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// dw runs the command line with stdout captured.
func dw(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := dwLogs(t, args...)
	return out, err
}

// dwLogs runs the command line with stdout and the logs (stderr) captured.
func dwLogs(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var buf, logs bytes.Buffer
	oldOut, oldErr := stdout, stderr
	stdout, stderr = &buf, &logs
	defer func() { stdout, stderr = oldOut, oldErr }()
	err := run(args)
	return buf.String(), logs.String(), err
}

// TestQuickTableSweep runs the table (30 runs) in the quick profile from nothing and
// prints it; "dw table" then reads the same results back.
func TestQuickTableSweep(t *testing.T) {
	runs, cache, saved := t.TempDir(), t.TempDir(), t.TempDir()
	out, err := dw(t, "sweep", "-profile", "quick", "-preset", "table", "-runs", runs, "-cache", cache, "-save", "-results", saved)
	if err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	for _, want := range []string{
		"| mackey-glass | full | 3 |", "| mackey-glass | dw | 3 |", "| mackey-glass | static | 1 |",
		"| narma5 | clip | 1 |", "| narma5 | tbptt | 1 |", "| driven-mg | jreg | 1 |", "| driven-mg | dw | 3 |",
		"| mackey-glass | dw − full | 3 |", "| narma5 | dw − full | 3 |", "| driven-mg | dw − full | 3 |", "30 runs (quick profile",
		"| vs best baseline |", "Baselines on mackey-glass", "Baselines on narma5", "Baselines on driven-mg",
		"| mackey-glass | zero | 3 | 1.0000 ± 0.0000 |", "| narma5 | damped-persistence | 3 |", "| driven-mg | ridge-ar | 3 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sweep output lacks %q:\n%s", want, out)
		}
	}
	results, _ := filepath.Glob(filepath.Join(runs, "quick", "*", "*", experiment.ResultFile))
	if len(results) != 30 {
		t.Errorf("%d result files, want 30", len(results))
	}
	if b, _ := filepath.Glob(filepath.Join(runs, "quick", "*", "baselines-K8-s*.json")); len(b) != 9 {
		t.Errorf("%d cached baseline files, want 3 testbeds × 3 seeds", len(b))
	}
	// The regime map of the same runs: one budget (quick), three matched seeds, the baselines.
	reg, err := dw(t, "regime", "-profiles", "quick", "-seeds", "0,1,2", "-runs", runs, "-cache", cache)
	if err != nil || !strings.Contains(reg, "| quick | ") || !strings.Contains(reg, "| 3 | ") || !strings.Contains(reg, "| 1.0000 |") {
		t.Errorf("regime: %v\n%s", err, reg)
	}
	if _, err := dw(t, "regime", "-profiles", "quick,huge", "-runs", runs); err == nil || !strings.Contains(err.Error(), `unknown profile "huge"`) {
		t.Errorf("regime with an unknown profile: %v", err)
	}
	// The same Full runs compared across profiles: quick has three seeds and its baselines,
	// standard none.
	cmp, err := dw(t, "compare", "-profiles", "quick,standard", "-seeds", "0,1,2", "-runs", runs, "-cache", cache)
	for _, want := range []string{"| quick | – | 3 | ", "| standard | – | 0 | not run |", "| 1.0000 |", "(ridge-ar) |"} {
		if err != nil || !strings.Contains(cmp, want) {
			t.Errorf("compare lacks %q: %v\n%s", want, err, cmp)
		}
	}
	if strings.Contains(cmp, "Validation chooses") {
		t.Errorf("compare chose a profile on validation with no seed finished under both:\n%s", cmp)
	}
	if _, err := dw(t, "compare", "-profiles", "quick,huge", "-runs", runs); err == nil || !strings.Contains(err.Error(), `unknown profile "huge"`) {
		t.Errorf("compare with an unknown profile: %v", err)
	}
	// Where DW's noise moment comes from, at the best checkpoints of seed 0 and before training
	// (measured once: kept in a run cache of its own here).
	t.Setenv("DW_CACHE_DIR", t.TempDir())
	attr, err := dw(t, "attribution", "-profile", "quick", "-seeds", "0", "-windows", "3", "-runs", runs, "-cache", cache)
	if err != nil || !strings.Contains(attr, "| full s0 | best |") || !strings.Contains(attr, "| dw s0 | best |") ||
		!strings.Contains(attr, "| every method s0 | init |") || strings.Count(attr, " s0 | ") != 3 {
		t.Errorf("attribution: %v\n%s", err, attr)
	}
	if _, err := dw(t, "attribution", "-profile", "quick", "-at", "final", "-runs", runs); err == nil || !strings.Contains(err.Error(), `-at: "final"`) {
		t.Errorf("attribution -at final: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(saved, "quick-table.md"))
	if err != nil || !strings.Contains(string(md), "| narma5 | ridge-ar | 3 |") || !strings.Contains(string(md), "same eq. (8) evaluator") ||
		!strings.Contains(string(md), "The sweep itself, 1 run(s) at a time, took ") {
		t.Errorf("saved table lacks the baselines (%v):\n%s", err, md)
	}
	var sets []experiment.BaselineSet
	if b, err := os.ReadFile(filepath.Join(saved, "quick-table-baselines.json")); err != nil || json.Unmarshal(b, &sets) != nil || len(sets) != 9 {
		t.Errorf("saved baselines: %v, %d sets, want 9", err, len(sets))
	}
	table, logs, err := dwLogs(t, "table", "-profile", "quick", "-preset", "table", "-runs", runs, "-cache", cache)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, table) {
		t.Errorf("dw table differs from the sweep's table:\n%s\nvs\n%s", table, out)
	}
	if strings.Contains(logs, "scored") {
		t.Errorf("dw table rescored cached baselines:\n%s", logs)
	}
	plain, err := dw(t, "table", "-profile", "quick", "-preset", "table", "-runs", runs, "-cache", cache, "-baselines=false")
	if err != nil || strings.Contains(plain, "baseline") || !strings.HasPrefix(table, strings.SplitN(plain, "\n", 2)[0]) {
		t.Errorf("dw table -baselines=false: %v\n%s", err, plain)
	}
}

var secondsPerEpoch = regexp.MustCompile(`\| [0-9.]+ \|\n`)

// TestSweepJobs: -jobs 2 prints the table of -jobs 1, to the digit, and -jobs 0 is refused.
func TestSweepJobs(t *testing.T) {
	table := func(jobs string) string {
		out, err := dw(t, "sweep", "-profile", "quick", "-testbeds", "mackey-glass,driven-mg", "-methods", "full,dw", "-seeds", "0,1",
			"-runs", t.TempDir(), "-cache", t.TempDir(), "-baselines=false", "-jobs", jobs)
		if err != nil {
			t.Fatalf("-jobs %s: %v\n%s", jobs, err, out)
		}
		out = out[:strings.LastIndex(out, " in ")]            // drop the wall time
		return secondsPerEpoch.ReplaceAllString(out, "| s |") // and the timings
	}
	if one, two := table("1"), table("2"); one != two {
		t.Errorf("-jobs 2 table differs from -jobs 1:\n%s\nvs\n%s", two, one)
	}
	if _, err := dw(t, "sweep", "-profile", "quick", "-preset", "table", "-jobs", "0"); err == nil || !strings.Contains(err.Error(), "-jobs 0") {
		t.Errorf("-jobs 0: %v", err)
	}
}

// TestBaselinesCommand: dw baselines prints baseline.Score's numbers, caches them under -runs and
// reads them back the second time.
func TestBaselinesCommand(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	args := []string{"baselines", "-profile", "quick", "-testbeds", "mackey-glass,narma5", "-seeds", "0,2", "-runs", runs, "-cache", cache}
	out, logs, err := dwLogs(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, logs)
	}
	if n := strings.Count(logs, "scored in"); n != 4 {
		t.Errorf("%d baseline sets scored, want 4:\n%s", n, logs)
	}
	opt := experiment.Options{RunsDir: runs, DataCache: cache}
	for _, tb := range []string{"mackey-glass", "narma5"} {
		var per [3][]float64
		for _, seed := range []uint64{0, 2} {
			cfg, err := experiment.Resolve(experiment.Quick, tb, "dw", seed, 0)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := experiment.LoadData(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := baseline.Score(ds, experiment.BaselineProtocol(cfg), baseline.Grid{})
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				per[i] = append(per[i], w.Test.RelL2)
				line := fmt.Sprintf("| %s | %d | %d | %s | %.4f | %.4f |", tb, cfg.HEval, seed, w.Name, w.Val.RelL2, w.Test.RelL2)
				if !strings.Contains(out, line) {
					t.Errorf("output lacks %q:\n%s", line, out)
				}
				if i > 0 && !strings.Contains(out, w.Params()+" (s") {
					t.Errorf("output lacks %s's parameters %q", w.Name, w.Params())
				}
			}
		}
		for i, name := range experiment.BaselineNames() {
			m, sd := eval.MeanSD(per[i])
			line := fmt.Sprintf("| %s | %s | 2 | %.4f ± %.4f |", tb, name, m, sd)
			if !strings.Contains(out, line) {
				t.Errorf("output lacks %q:\n%s", line, out)
			}
		}
	}
	again, logs, err := dwLogs(t, args...)
	if err != nil || again != out || strings.Count(logs, "read back") != 4 || strings.Contains(logs, "scored") {
		t.Errorf("second call: %v; same output %v; logs:\n%s", err, again == out, logs)
	}
	if _, logs, err := dwLogs(t, append(args, "-force")...); err != nil || strings.Count(logs, "scored in") != 4 {
		t.Errorf("-force: %v; logs:\n%s", err, logs)
	}
}

func TestBadInputIsRefused(t *testing.T) {
	runs := t.TempDir()
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"train", "-testbed", "mackey-glass", "-method", "magic", "-runs", runs}, "valid methods: full, clip, jreg, tbptt, static, dw", true},
		{[]string{"train", "-testbed", "lorenz", "-method", "dw", "-runs", runs}, "valid testbeds: known-snr, mackey-glass, driven-mg, narma5, ettm1, ettm2", true},
		{[]string{"train", "-testbed", "mackey-glass", "-method", "dw", "-K", "60", "-runs", runs}, "K = 60 is too long for mackey-glass", true},
		{[]string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full,nope", "-runs", runs}, `unknown method "nope"`, true},
		{[]string{"sweep", "-profile", "huge", "-preset", "table", "-runs", runs}, `unknown profile "huge"`, true},
		{[]string{"sweep", "-preset", "everything", "-runs", runs}, `unknown preset "everything"`, true},
		{[]string{"train", "-testbed", "mackey-glass"}, "-testbed and -method are required", true},
		{[]string{"fly"}, `unknown command "fly"`, true},
		{[]string{"train", "-bogus"}, "flag provided but not defined", true},
		{[]string{"baselines", "-testbeds", "mackey-glass,lorenz", "-runs", runs}, `unknown testbed "lorenz"; valid testbeds:`, true},
		{[]string{"baselines", "-profile", "huge", "-testbeds", "mackey-glass", "-runs", runs}, `unknown profile "huge"`, true},
		{[]string{"baselines", "-testbeds", "mackey-glass", "-seeds", "0,x", "-runs", runs}, `-seeds: "x" is not a seed`, true},
		{[]string{"baselines", "-testbeds", "mackey-glass", "-K", "0", "-runs", runs}, `-K: "0" is not a horizon`, true},
		{[]string{"baselines", "-testbeds", "mackey-glass", "-K", "60", "-runs", runs}, "K = 60 is too long for mackey-glass", true},
		{[]string{"baselines", "-runs", runs}, "give -testbeds (or -preset)", true},
		{[]string{"baselines", "-preset", "table", "-seeds", "1", "-runs", runs}, "-preset replaces -testbeds/-seeds/-K", true},
		{[]string{"baselines", "-preset", "everything", "-runs", runs}, `unknown preset "everything"`, true},
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
	// The validation split under the validation protocol is the loss that chose the best epoch.
	best := regexp.MustCompile(`\(val ([0-9.]+),`).FindStringSubmatch(out)
	val, err := dw(t, "eval", "-run", dir, "-cache", cache, "-split", "val", "-protocol", "val")
	if err != nil {
		t.Fatal(err)
	}
	if best == nil || !strings.Contains(val, "val rel-L2 "+best[1]+" (val protocol") {
		t.Errorf("dw eval -split val -protocol val gives %q, training reported best validation %v", val, best)
	}
	// -record: the validation split under the test protocol, which the run already holds.
	atTest, err := dw(t, "eval", "-run", dir, "-cache", cache, "-split", "val")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := dw(t, "eval", "-run", dir, "-cache", cache, "-record")
	score := regexp.MustCompile(`val rel-L2 ([0-9.]+) \(test protocol`)
	if a, r := score.FindStringSubmatch(atTest), score.FindStringSubmatch(rec); err != nil || a == nil || r == nil || a[1] != r[1] {
		t.Errorf("eval -record gives %q (%v); eval -split val gives %q", rec, err, atTest)
	}
	if _, err := dw(t, "eval", "-run", dir, "-record", "-H", "4"); err == nil || !strings.Contains(err.Error(), "-record") {
		t.Errorf("eval -record -H 4: %v, want a usage error naming -record", err)
	}
	for _, bad := range [][]string{{"-split", "train"}, {"-protocol", "dense"}, {"-H", "-1"}} {
		if _, err := dw(t, append([]string{"eval", "-run", dir, "-cache", cache}, bad...)...); err == nil || !strings.Contains(err.Error(), bad[1]) {
			t.Errorf("eval %v: %v, want an error naming %q", bad, err, bad[1])
		}
	}
	// dw table shows the run beside its baselines, scored on the spot.
	table, logs, err := dwLogs(t, "table", "-profile", "quick", "-testbeds", "narma5", "-methods", "dw", "-seeds", "2", "-runs", runs, "-cache", cache)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| narma5 | dw | 1 | ", "| vs best baseline |", "| narma5 | zero | 1 | 1.0000 |",
		"| narma5 | damped-persistence | 1 |", "| narma5 | ridge-ar | 1 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("dw table lacks %q:\n%s", want, table)
		}
	}
	if !strings.Contains(logs, "baselines-K8-s2.json") {
		t.Errorf("dw table did not score the baselines:\n%s", logs)
	}
}

// TestExitCodes: help exits 0 for the tool and for every command, bad flags 2, failures 1.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"-h"}, 0}, {[]string{"train", "-h"}, 0}, {[]string{"sweep", "-help"}, 0}, {[]string{"regime", "-h"}, 0},
		{[]string{"train", "-bogus"}, 2}, {[]string{"nosuchcommand"}, 2},
		{[]string{"config", "-profile", "quick", "-testbed", "lorenz", "-method", "dw"}, 2},
		{[]string{"eval", "-run", "/nonexistent/run"}, 1},
	} {
		_, err := dw(t, tc.args...)
		if got := exitCode(err); got != tc.want {
			t.Errorf("dw %v: exit code %d (error %v), want %d", tc.args, got, err, tc.want)
		}
	}
}

// TestRuntimeCommand times quick runs with a one-repeat protocol and prints the table.
func TestRuntimeCommand(t *testing.T) {
	out, err := dw(t, "runtime", "-profile", "quick", "-testbeds", "narma5", "-repeats", "2", "-warmup", "1", "-timed", "1", "-cache", t.TempDir())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, w := range []string{"| narma5 | quick |", "22.26 ± 0.13, 28.31 ± 0.15, 27.2 ± 0.2", "2 paired repeats (order alternating), 1 warm-up epoch(s) discarded, median of the next 1"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if _, err := dw(t, "runtime", "-profile", "quick", "-timed", "0"); err == nil || exitCode(err) != 2 {
		t.Errorf("-timed 0: %v (exit %d), want a usage error", err, exitCode(err))
	}
}

// TestKSweepCommand trains a quick K grid with -train and prints the K* table; a second call
// without -train reads everything back.
func TestKSweepCommand(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	args := []string{"ksweep", "-profile", "quick", "-testbed", "narma5", "-K", "4,6,8", "-H", "12", "-seeds", "0,1", "-runs", runs, "-cache", cache}
	// One run of the grid was cut off after its first epoch (as a session's end leaves it):
	// -train continues it without being told -resume.
	if log, err := dw(t, "train", "-profile", "quick", "-testbed", "narma5", "-method", "dw", "-seed", "1", "-K", "6", "-stop-after", "1", "-runs", runs, "-cache", cache); !errors.Is(err, experiment.ErrStopped) {
		t.Fatalf("dw train -stop-after 1: %v\n%s", err, log)
	}
	out, err := dw(t, append(args, "-train", "-jobs", "2")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, w := range []string{"scored at H = 12", "| seed 0 | ", "| seed 1 | ", "| pooled | "} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	again, err := dw(t, args...)
	if err != nil || again != out {
		t.Errorf("second call: %v\n%s\nvs\n%s", err, again, out)
	}
	// Archived (results and scores at H), the sweep needs no run directory: over an empty run
	// tree it prints the same table, and -train there trains nothing.
	archive := t.TempDir()
	if log, err := dw(t, "archive", "-profile", "quick", "-testbed", "narma5", "-method", "full,dw", "-seeds", "0,1", "-K", "4,6,8", "-runs", runs, "-archive", archive); err != nil {
		t.Fatalf("dw archive: %v\n%s", err, log)
	}
	empty := t.TempDir()
	fromArchive := []string{"ksweep", "-profile", "quick", "-testbed", "narma5", "-K", "4,6,8", "-H", "12", "-seeds", "0,1", "-runs", empty, "-archive", archive, "-cache", cache}
	for _, extra := range [][]string{nil, {"-train"}} {
		got, err := dw(t, append(fromArchive, extra...)...)
		if err != nil || got != out {
			t.Errorf("from the archive %v: %v\n%s\nvs\n%s", extra, err, got, out)
		}
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("the sweep from the archive wrote %d entries into the empty run tree", len(entries))
	}
	// -archive-each archives every run with its score as it finishes: no dw archive needed, and
	// the same table from the archive alone.
	runs2, archive2 := t.TempDir(), t.TempDir()
	trained := []string{"ksweep", "-profile", "quick", "-testbed", "narma5", "-K", "4,6,8", "-H", "12", "-seeds", "0,1", "-runs", runs2, "-archive", archive2, "-cache", cache}
	if got, err := dw(t, append(trained, "-train", "-archive-each")...); err != nil || got != out {
		t.Errorf("-train -archive-each: %v\n%s\nvs\n%s", err, got, out)
	}
	fromArchive2 := []string{"ksweep", "-profile", "quick", "-testbed", "narma5", "-K", "4,6,8", "-H", "12", "-seeds", "0,1", "-runs", t.TempDir(), "-archive", archive2, "-cache", cache}
	if got, err := dw(t, fromArchive2...); err != nil || got != out {
		t.Errorf("from the runs archived each: %v\n%s\nvs\n%s", err, got, out)
	}
	if _, err := dw(t, "ksweep", "-profile", "quick", "-K", "4,8", "-H", "12"); err == nil || !strings.Contains(err.Error(), "at least 3") {
		t.Errorf("two K: %v", err)
	}
}

// TestTrainSaysReadBack: a second dw train of a finished run says it trained nothing.
func TestTrainSaysReadBack(t *testing.T) {
	args := []string{"train", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-runs", t.TempDir(), "-cache", t.TempDir()}
	first, logs, err := dwLogs(t, args...)
	if err != nil || strings.Contains(logs, "read back") {
		t.Fatalf("first train: %v\n%s", err, logs)
	}
	again, logs, err := dwLogs(t, args...)
	if err != nil || again != first || !strings.Contains(logs, "its result is read back, nothing trained (use -force to retrain)") {
		t.Errorf("second train: %v\n%s\n%s", err, again, logs)
	}
}

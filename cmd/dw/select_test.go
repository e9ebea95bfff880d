package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// TestSelectQuick selects TBPTT's segment on the quick profile (two candidates, K/4 and K/2 of
// K = 8), writes the choice beside the runs, and with -seeds runs the selected segment on seed 1;
// a second call trains nothing. With -archive-each every run it trained is in the archive, so a
// new machine (an empty run tree) finds the candidates finished.
func TestSelectQuick(t *testing.T) {
	runs, cache, archive, results := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	args := []string{"select", "-profile", "quick", "-testbed", "mackey-glass", "-methods", "tbptt", "-runs", runs, "-cache", cache, "-archive", archive}
	// Full on seeds 0 and 1: the selection reads it back (never trains it) for the paired differences.
	if _, logs, err := dwLogs(t, "train", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full", "-seed", "0,1", "-runs", runs, "-cache", cache); err != nil {
		t.Fatalf("train full: %v\n%s", err, logs)
	}
	out, logs, err := dwLogs(t, append(args, "-seeds", "0,1", "-archive-each", "-save", "-results", results)...)
	if err != nil {
		t.Fatalf("select: %v\n%s\n%s", err, out, logs)
	}
	for _, want := range []string{"| mackey-glass | tbptt | 8 | ", "2: ", "4: ", "| 2 | 8 |", "smoke run", "| mackey-glass | tbptt | 2 |"} {
		if !strings.Contains(out+logs, want) {
			t.Errorf("select output lacks %q:\n%s\n%s", want, out, logs)
		}
	}
	b, err := os.ReadFile(filepath.Join(runs, "quick", "mackey-glass", "select-tbptt-K8.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ch experiment.Choice
	if err := json.Unmarshal(b, &ch); err != nil || len(ch.Candidates) != 2 || ch.ProfileValue != 2 || ch.Table4 == nil || *ch.Table4 != 8 {
		t.Fatalf("choice file: %v\n%s", err, b)
	}
	// The profile's segment (2) keeps the plain name; the other candidate has its own directory,
	// and the selected value ran on seed 1 under the name it has.
	for _, dir := range []string{"tbptt-K8-s0", "tbptt-seg4-K8-s0"} {
		if _, err := os.Stat(filepath.Join(runs, "quick", "mackey-glass", dir, experiment.ResultFile)); err != nil {
			t.Errorf("candidate %s: %v", dir, err)
		}
	}
	won := "tbptt-K8-s1"
	if ch.Selected == 4 {
		won = "tbptt-seg4-K8-s1"
	}
	if _, err := os.Stat(filepath.Join(runs, "quick", "mackey-glass", won, experiment.ResultFile)); err != nil {
		t.Errorf("selected run on seed 1 (segment %v): %v", ch.Selected, err)
	}
	for _, dir := range []string{"tbptt-K8-s0", "tbptt-seg4-K8-s0", won} {
		if _, err := os.Stat(filepath.Join(archive, "quick", "mackey-glass", dir)); err != nil {
			t.Errorf("-archive-each: %s is not in the archive: %v", dir, err)
		}
	}
	// -save: the selection (Markdown and JSON) and the selected values' runs, under -results.
	saved, err := os.ReadFile(filepath.Join(results, "select-quick-mackey-glass.md"))
	if err != nil || !strings.Contains(string(saved), "# Control selection: quick profile") || !strings.Contains(string(saved), "| mackey-glass | tbptt | 8 | ") ||
		!strings.Contains(string(saved), "grid (tbptt {2, 4} at K = 8)") {
		t.Errorf("saved selection: %v\n%s", err, saved)
	}
	var sel experiment.Selection
	if b, err := os.ReadFile(filepath.Join(results, "select-quick-mackey-glass.json")); err != nil || json.Unmarshal(b, &sel) != nil || len(sel.Choices) != 1 || sel.Choices[0].Selected != ch.Selected {
		t.Errorf("saved selection JSON: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(filepath.Join(results, "quick-select-mackey-glass.md")); err != nil || !strings.Contains(string(b), "| mackey-glass | tbptt | 2 |") ||
		!strings.Contains(string(b), "| mackey-glass | full | 2 |") || !strings.Contains(string(b), "| mackey-glass | tbptt − full | 2 |") || !strings.Contains(string(b), "ridge-ar") {
		t.Errorf("saved runs of the selected value: %v\n%s", err, b)
	}
	plan, err := dw(t, "select", "-plan", "-profile", "quick", "-testbed", "mackey-glass", "-methods", "tbptt", "-runs", t.TempDir(), "-archive", archive)
	if err != nil || !strings.Contains(plan, "2 finished (2 in the archive only), 0 part-way, 0 not started") {
		t.Errorf("select -plan over an empty run tree after -archive-each: %v\n%s", err, plan)
	}
	// Again: everything is read back, the same table comes out.
	again, logs, err := dwLogs(t, args...)
	if err != nil || !strings.HasPrefix(out, again) {
		t.Errorf("second select: %v\n%s\nwant the first table:\n%s\n%s", err, again, out, logs)
	}
}

// Usage errors exit 2 with one line naming the bad value.
func TestSelectUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-profile", "quick"}, "-testbeds is required"},
		{[]string{"-testbed", "mackey-glass", "-methods", "dw"}, `"dw" has no selected hyperparameter; control methods: clip, jreg, tbptt, static`},
		{[]string{"-testbed", "mackey-glass", "-methods", "clip,clip"}, `-methods: "clip" is given twice`},
		{[]string{"-testbed", "nowhere"}, `unknown testbed "nowhere"`},
		{[]string{"-testbed", "mackey-glass", "-jobs", "0"}, "-jobs 0"},
		{[]string{"-testbed", "mackey-glass", "-seeds", "x"}, `"x" is not a seed`},
		{[]string{"-testbed", "mackey-glass", "-save", "-label", "A/B"}, `-label "A/B"`},
		{[]string{"-testbed", "mackey-glass", "-save", "-plan"}, "-save with -plan"},
	} {
		_, err := dw(t, append([]string{"select"}, tc.args...)...)
		if err == nil || exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("select %v: %v (exit %d), want one line with %q and exit 2", tc.args, err, exitCode(err), tc.want)
		}
	}
}

// -plan lists the candidates and where each stands, training nothing.
func TestSelectPlan(t *testing.T) {
	runs := t.TempDir()
	out, err := dw(t, "select", "-plan", "-profile", "quick", "-testbed", "mackey-glass,narma5", "-methods", "clip,tbptt", "-runs", runs, "-archive", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"quick/mackey-glass/clip-c0.1-K8-s0 ", "quick/mackey-glass/clip-K8-s0 ", "quick/narma5/tbptt-seg4-K8-s0 ", "10 runs", "10 not started",
		"The selection so far", "| narma5 | clip | 8 | 0.1: —, 0.3: —, 1: — | — | 0.1 | 0.1 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("-plan wrote %d entries under the runs directory", len(entries))
	}
}

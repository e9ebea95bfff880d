package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// TestRunBackends: a saved table names the backends its runs were trained on, not the reader's.
func TestRunBackends(t *testing.T) {
	res := func(backends ...string) []*experiment.Result {
		var rs []*experiment.Result
		for _, b := range backends {
			rs = append(rs, &experiment.Result{Backend: b})
		}
		return rs
	}
	for _, tc := range []struct {
		rs   []*experiment.Result
		want string
	}{
		{res("go:ops_sequential", "go:ops_sequential"), "go:ops_sequential"},
		{res("go:ops_sequential", "go:parallelism=-1", "go:ops_sequential"), "go:ops_sequential (2), go:parallelism=-1 (1)"},
		{res(""), "unrecorded"},
	} {
		if got := runBackends(tc.rs); got != tc.want {
			t.Errorf("runBackends(%v) = %q, want %q", tc.rs, got, tc.want)
		}
	}
}

// TestTableSave: dw table -save writes the finished runs' table and names the unfinished ones,
// and still exits with an error that names them.
func TestTableSave(t *testing.T) {
	runs, cache, results := t.TempDir(), t.TempDir(), t.TempDir()
	score := trainQuickNARMA(t, runs, cache)
	_, err := dw(t, "table", "-profile", "quick", "-testbed", "narma5", "-method", "full,dw", "-seed", "2", "-runs", runs, "-cache", cache,
		"-baselines=false", "-save", "-results", results, "-label", "partial")
	if err == nil || !strings.Contains(err.Error(), "1 of 2 runs have no result yet: quick/narma5/dw-K8-s2") {
		t.Errorf("dw table with an unfinished run: %v", err)
	}
	md, rerr := os.ReadFile(filepath.Join(results, "quick-partial.md"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	for _, want := range []string{rounded(t, score), "left out: quick/narma5/dw-K8-s2.", "runs trained on backend "} {
		if !strings.Contains(string(md), want) {
			t.Errorf("saved table lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "The sweep itself") {
		t.Errorf("dw table trained nothing but gives a sweep time:\n%s", md)
	}
	if _, err := os.Stat(filepath.Join(results, "quick-partial.json")); err != nil {
		t.Errorf("no per-run JSON: %v", err)
	}
}

// trainQuickNARMA trains the quick NARMA-5 Full run of seed 2 under runs and returns its test
// rel-L2 as dw train printed it.
func trainQuickNARMA(t *testing.T, runs, cache string) string {
	t.Helper()
	out, err := dw(t, "train", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-runs", runs, "-cache", cache)
	if err != nil {
		t.Fatal(err)
	}
	score := relL2.FindStringSubmatch(out)
	if score == nil {
		t.Fatalf("no score in %q", out)
	}
	return score[1]
}

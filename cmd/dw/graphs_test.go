package main

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGraphs: dw graphs lists what a paper-scale DW run (Mamba-128 on Mackey–Glass) compiles: on
// the step engine at most 3 000 nodes in the largest graph, the same at K = 8 and K = 64, and
// four graphs; the unrolled engine's largest graph is an order of magnitude larger. A bad
// -engine is a usage error.
func TestGraphs(t *testing.T) {
	dir := t.TempDir()
	largest := func(out string) int {
		m := regexp.MustCompile(`(?m)^largest: (\d+) nodes$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no 'largest:' line in\n%s", out)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	graphs := func(engine, K string) string {
		out, err := dw(t, "graphs", "-profile", "paper-val64", "-testbed", "mackey-glass", "-method", "dw", "-engine", engine, "-K", K, "-runs", dir, "-cache", dir)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	k8, k64 := graphs("steps", "8"), graphs("steps", "64")
	if !strings.Contains(k64, "engine steps") || strings.Count(k64, " nodes ") != 4 {
		t.Errorf("dw graphs -engine steps should list 4 graphs:\n%s", k64)
	}
	if a, b := largest(k8), largest(k64); a != b || b > 3000 {
		t.Errorf("largest step graph: %d nodes at K = 8, %d at K = 64; want equal and at most 3000", a, b)
	}
	if u := largest(graphs("unrolled", "64")); u < 10*largest(k64) {
		t.Errorf("unrolled largest graph %d nodes, step engine %d: expected an order of magnitude between them", u, largest(k64))
	}
	_, err := dw(t, "graphs", "-testbed", "narma5", "-method", "dw", "-engine", "gpu")
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `-engine "gpu"`) {
		t.Errorf("-engine gpu: %v, want a usage error naming the value", err)
	}
}

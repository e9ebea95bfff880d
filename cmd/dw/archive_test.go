package main

import (
	"strings"
	"testing"
)

// TestArchiveCommand: dw archive copies finished results; dw table over an empty run tree then
// reads the same numbers from the archive, and a grid with an unfinished run is named.
func TestArchiveCommand(t *testing.T) {
	runs, cache, archive := t.TempDir(), t.TempDir(), t.TempDir()
	score := trainQuickNARMA(t, runs, cache)
	if out, err := dw(t, "archive", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-runs", runs, "-archive", archive); err != nil || !strings.Contains(out, "quick/narma5/full-K8-s2 -> "+archive) {
		t.Fatalf("dw archive: %v\n%s", err, out)
	}
	table, err := dw(t, "table", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-runs", t.TempDir(), "-archive", archive, "-cache", cache, "-baselines=false")
	if err != nil || !strings.Contains(table, rounded(t, score)) {
		t.Errorf("dw table from the archive: %v\n%s\nwant %s", err, table, score)
	}
	if _, err := dw(t, "archive", "-profile", "quick", "-testbed", "narma5", "-method", "full,dw", "-seed", "2", "-runs", runs, "-archive", archive); err == nil || !strings.Contains(err.Error(), "quick/narma5/dw-K8-s2 has not finished") {
		t.Errorf("archiving an unfinished run: %v", err)
	}
}

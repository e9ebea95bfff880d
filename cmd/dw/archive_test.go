package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
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

// TestSweepArchiveEach: dw sweep -archive-each leaves each finished run in the archive, read back
// by dw table over an empty run tree.
func TestSweepArchiveEach(t *testing.T) {
	runs, cache, archive := t.TempDir(), t.TempDir(), t.TempDir()
	grid := []string{"-profile", "quick", "-testbeds", "narma5", "-methods", "full,dw", "-seeds", "2", "-archive", archive, "-cache", cache, "-baselines=false"}
	out, err := dw(t, append([]string{"sweep", "-runs", runs, "-archive-each"}, grid...)...)
	if err != nil {
		t.Fatalf("dw sweep -archive-each: %v\n%s", err, out)
	}
	table, err := dw(t, append([]string{"table", "-runs", t.TempDir()}, grid...)...)
	if err != nil {
		t.Fatalf("dw table from the archive: %v\n%s", err, table)
	}
	for _, row := range []string{"full", "dw"} {
		if !strings.Contains(table, "| "+row) {
			t.Errorf("the table from the archive lacks %s:\n%s", row, table)
		}
	}
	// -plan says where each run stands: here, in the archive only, or not started.
	for _, tc := range []struct{ runs, seeds, want string }{
		{runs, "2", "2 finished (0 in the archive only), 0 part-way, 0 not started"},
		{t.TempDir(), "2,3", "2 finished (2 in the archive only), 0 part-way, 2 not started"},
	} {
		plan, err := dw(t, "sweep", "-plan", "-profile", "quick", "-testbeds", "narma5", "-methods", "full,dw", "-seeds", tc.seeds, "-runs", tc.runs, "-archive", archive)
		if err != nil || !strings.Contains(plan, tc.want) {
			t.Errorf("dw sweep -plan -seeds %s: %v\n%s\nwant %q", tc.seeds, err, plan, tc.want)
		}
	}
}

// TestCorruptArchiveRefusedEverywhere (issue 40, defect 10): a corrupt archived result is refused
// by dw train and dw sweep as dw table refuses it, naming the archive's file, and nothing is
// trained; a valid one read back by dw train is said to come from the archive, with its path.
func TestCorruptArchiveRefusedEverywhere(t *testing.T) {
	runs, cache, archive := t.TempDir(), t.TempDir(), t.TempDir()
	score := trainQuickNARMA(t, runs, cache)
	if _, err := dw(t, "archive", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-runs", runs, "-archive", archive); err != nil {
		t.Fatal(err)
	}
	archived := filepath.Join(archive, "quick", "narma5", "full-K8-s2", "result.json.gz")
	sel := []string{"-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-archive", archive, "-cache", cache}

	fresh := t.TempDir()
	out, logs, err := dwLogs(t, append([]string{"train", "-runs", fresh}, sel...)...)
	if err != nil || !strings.Contains(out, score) || !strings.Contains(out, archived) || !strings.Contains(logs, "from the archive") {
		t.Errorf("dw train read back from the archive: %v\n%s\n%s\nwant the score %s, the archive named and its path %s", err, out, logs, score, archived)
	}

	good, err := os.ReadFile(archived)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(archived, good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"train", "sweep", "table"} {
		t.Run(cmd, func(t *testing.T) {
			fresh := t.TempDir()
			args := append([]string{cmd, "-runs", fresh}, sel...)
			if cmd != "train" {
				args = append(args, "-baselines=false")
			}
			_, err := dw(t, args...)
			if err == nil || !strings.Contains(err.Error(), archived) {
				t.Errorf("dw %s with a corrupt archived result: %v, want an error naming %s", cmd, err, archived)
			}
			if f := filesUnder(t, fresh); len(f) > 0 {
				t.Errorf("dw %s wrote %v", cmd, f)
			}
		})
	}
}

// TestOldResultSaysUnchecked (issue 40, defect 9): an archived result written before results
// carried a checksum is still read back, and dw table says it was read without an integrity check.
func TestOldResultSaysUnchecked(t *testing.T) {
	runs, cache, archive := t.TempDir(), t.TempDir(), t.TempDir()
	score := trainQuickNARMA(t, runs, cache)
	if _, err := dw(t, "archive", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-runs", runs, "-archive", archive); err != nil {
		t.Fatal(err)
	}
	archived := filepath.Join(archive, "quick", "narma5", "full-K8-s2", "result.json.gz")
	args := []string{"table", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-seed", "2", "-runs", t.TempDir(), "-archive", archive, "-cache", cache, "-baselines=false"}
	const note = "read without an integrity check (written before results carried a checksum): quick/narma5/full-K8-s2"
	if table, logs, err := dwLogs(t, args...); err != nil || !strings.Contains(table, rounded(t, score)) || strings.Contains(logs, note) {
		t.Fatalf("dw table: %v\n%s\n%s", err, table, logs)
	}
	zr, err := os.Open(archived)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(gr)
	zr.Close()
	if err != nil {
		t.Fatal(err)
	}
	old := regexp.MustCompile(`,"sha256":"[0-9a-f]+"`).ReplaceAll(doc, nil)
	if bytes.Equal(old, doc) {
		t.Fatalf("no checksum in %s", doc)
	}
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(old)
	w.Close()
	if err := os.WriteFile(archived, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if table, logs, err := dwLogs(t, args...); err != nil || !strings.Contains(table, rounded(t, score)) || !strings.Contains(logs, note) {
		t.Errorf("dw table of a result without a checksum: %v\n%s\n%s\nwant it read, and %q", err, table, logs, note)
	}
}

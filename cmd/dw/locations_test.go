package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/kernelext/runcache"
)

// The out-of-location writes of issue 40 (defects 11 and 12): each command runs in a temporary
// working directory outside any checkout, with its own -runs, -cache and -results, and what it
// wrote is listed.

// filesUnder lists the files under dir, relative to it.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// outsideCheckout makes a temporary directory with no go.mod above it the working directory.
func outsideCheckout(t *testing.T) string {
	t.Helper()
	wd := t.TempDir()
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			t.Skipf("%s is inside a module (%s)", wd, d)
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	t.Chdir(wd)
	return wd
}

// TestSaveCheckedBeforeWork (defect 12): -save with nowhere to write is refused before anything
// is trained, read or written, naming -results (or the checkout the command needs).
func TestSaveCheckedBeforeWork(t *testing.T) {
	wd := outsideCheckout(t)
	// A directory that cannot be made (a file is in the way): a read-only one would not do, as
	// tests may run as root.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	grid := []string{"-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full", "-seeds", "0"}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"sweep outside a checkout", append([]string{"sweep", "-save"}, grid...), []string{"-results DIR", "no go.mod"}},
		{"sweep into a directory that cannot be made", append([]string{"sweep", "-save", "-results", filepath.Join(blocked, "results")}, grid...), []string{"-save:", blocked, "not a directory"}},
		{"table outside a checkout", append([]string{"table", "-save"}, grid...), []string{"-results DIR"}},
		{"ksweep outside a checkout", []string{"ksweep", "-profile", "quick", "-testbed", "mackey-glass", "-K", "2,4,8", "-H", "12", "-train", "-save"}, []string{"inside a checkout", "no go.mod"}},
		{"diagnose outside a checkout", []string{"diagnose", "-profile", "quick", "-testbed", "mackey-glass", "-save"}, []string{"-results DIR"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, cache := t.TempDir(), t.TempDir()
			_, err := dw(t, append(tc.args, "-runs", runs, "-cache", cache)...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			var ue usageError
			if strings.Contains(tc.name, "outside") && !errors.As(err, &ue) {
				t.Errorf("not a usage error: %v", err)
			}
			for _, dir := range []string{runs, cache, wd} {
				if f := filesUnder(t, dir); len(f) > 0 {
					t.Errorf("the refused command wrote %v under %s", f, dir)
				}
			}
		})
	}
}

// TestDiagnoseWritesOnlyItsDirectories (defect 11): outside a checkout, dw diagnose given -runs,
// -cache and -results keeps its measurements under -cache and writes nothing anywhere else; given
// no -cache (and no $DW_CACHE_DIR) it is refused naming both.
func TestDiagnoseWritesOnlyItsDirectories(t *testing.T) {
	wd := outsideCheckout(t)
	t.Setenv("DW_CACHE_DIR", "")
	runs, cache, saved := t.TempDir(), t.TempDir(), t.TempDir()
	if _, err := dw(t, "train", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full,dw", "-seed", "0", "-runs", runs, "-cache", cache); err != nil {
		t.Fatal(err)
	}
	before := filesUnder(t, runs)
	_, err := dw(t, "diagnose", "-profile", "quick", "-testbed", "mackey-glass", "-what", "utility", "-runs", runs)
	if err == nil || !strings.Contains(err.Error(), "-cache DIR") || !strings.Contains(err.Error(), "DW_CACHE_DIR") {
		t.Errorf("diagnose outside a checkout without -cache: %v, want an error naming -cache and DW_CACHE_DIR", err)
	}
	cacheBefore := filesUnder(t, cache)
	if _, err := dw(t, "diagnose", "-profile", "quick", "-testbed", "mackey-glass", "-what", "utility,noise", "-runs", runs, "-cache", cache, "-save", "-results", saved); err != nil {
		t.Fatal(err)
	}
	if f := filesUnder(t, wd); len(f) > 0 {
		t.Errorf("diagnose wrote %v in its working directory", f)
	}
	if after := filesUnder(t, runs); !slices.Equal(after, before) {
		t.Errorf("diagnose changed the runs directory: %v, was %v", after, before)
	}
	var measured []string
	for _, f := range filesUnder(t, cache) {
		if !slices.Contains(cacheBefore, f) && filepath.Base(f) != runcache.LogFile { // the lookups' log is no measurement
			measured = append(measured, f)
		}
	}
	if len(measured) != 2 || !strings.HasPrefix(measured[0], "runs"+string(filepath.Separator)+"appdiag-") {
		t.Errorf("new files under -cache: %v, want the two measurements under runs/", measured)
	}
	if f := filesUnder(t, saved); !slices.Equal(f, []string{"diagnose-quick-mackey-glass-s0.md"}) {
		t.Errorf("-results holds %v", f)
	}
}

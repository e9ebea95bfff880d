package kernelext

import (
	"os"
	"slices"
	"testing"

	"github.com/internal-dw/dwgo/kernelext/runcache"
)

func TestCached(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(runcache.DirEnv, dir)
	t.Setenv(runcache.VersionEnv, "test")
	t.Setenv(runcache.ModeEnv, "")
	type cfg struct{ N int }
	calls := 0
	compute := func() ([]float64, error) { calls++; return []float64{1, 2}, nil }
	for range 3 {
		got, err := Cached("sq", cfg{N: 2}, 1, compute)
		if err != nil || len(got) != 2 || got[1] != 2 {
			t.Fatalf("Cached() = %v, %v", got, err)
		}
	}
	if calls != 1 {
		t.Errorf("computed %d times, want 1", calls)
	}
	entries, _ := os.ReadDir(dir)
	entries = slices.DeleteFunc(entries, func(e os.DirEntry) bool { return e.Name() == runcache.LogFile }) // the lookups' log
	if len(entries) != 1 {
		t.Errorf("cache dir has %d entries, want 1", len(entries))
	}
}

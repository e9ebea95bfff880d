package kernelext

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestNotebookClock(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	name := "00-clock-test"
	if _, err := WallTime(name); err == nil || !strings.Contains(err.Error(), "was not started") {
		t.Errorf("WallTime before StartClock: %v, want a not-started error", err)
	}
	before := time.Now()
	if err := StartClock(name); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	d, err := WallTime(name)
	if err != nil {
		t.Fatal(err)
	}
	if d < 20*time.Millisecond || d > time.Since(before) {
		t.Errorf("WallTime %v, want between 20ms and %v", d, time.Since(before))
	}
	f, _ := clockFile(name)
	if err := os.WriteFile(f, []byte("yesterday"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WallTime(name); err == nil || !strings.Contains(err.Error(), f) {
		t.Errorf("WallTime of a corrupt clock file: %v, want an error naming %s", err, f)
	}
	for _, bad := range []string{"", "a/b", `a\b`, "..", "."} {
		if err := StartClock(bad); err == nil {
			t.Errorf("StartClock(%q): no error", bad)
		}
	}
}

package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// A CSV run whose name changed only because -drive differs from the runs of the same file says so
// and names them; the same spec again says nothing.
func TestCSVSiblingNote(t *testing.T) {
	dir, runs := t.TempDir(), t.TempDir()
	csv := hourlyCSV(t, dir, 1000)
	base := []string{"train", "-method", "full", "-profile", "quick", "-data", csv, "-runs", runs, "-stop-after", "1"}
	if _, logs, err := dwLogs(t, append(base, "-drive", "temperature")...); !errors.Is(err, experiment.ErrStopped) || strings.Contains(logs, "note:") {
		t.Fatalf("first run: %v\n%s", err, logs)
	}
	_, logs, err := dwLogs(t, base...)
	if !errors.Is(err, experiment.ErrStopped) {
		t.Fatalf("second run: %v\n%s", err, logs)
	}
	for _, want := range []string{"dw: note: csv-hourly-", "is a new data set name", `drive ["temperature"] ≠ (none)`, "/full-K8-s0"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	if _, logs, _ := dwLogs(t, append(base, "-drive", "temperature", "-resume")...); strings.Contains(logs, "note:") {
		t.Errorf("the same spec again is no new name:\n%s", logs)
	}
}

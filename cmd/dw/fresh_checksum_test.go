package main

import (
	"strings"
	"testing"
)

// TestFreshRunIsChecked: a run trained now carries its checksum; dw train does not call it
// "read without an integrity check" (the note is for results written before checksums existed).
func TestFreshRunIsChecked(t *testing.T) {
	dir := t.TempDir()
	_, logs, err := dwLogs(t, "train", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-runs", dir, "-cache", dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs, "without an integrity check") {
		t.Errorf("a fresh run was reported unchecked:\n%s", logs)
	}
}

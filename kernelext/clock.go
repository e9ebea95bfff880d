package kernelext

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A notebook's cells run as separate programs, so its wall time cannot live in a variable: the
// first cell writes the time to a file (StartClock) and the last reads it back (ShowWallTime).

// clockFile is where StartClock keeps a notebook's start time.
func clockFile(notebook string) (string, error) {
	if notebook == "" || strings.ContainsAny(notebook, `/\`) || notebook == "." || notebook == ".." {
		return "", fmt.Errorf("kernelext: notebook clock: name %q, want a plain file name such as \"07-across-regimes\"", notebook)
	}
	return filepath.Join(os.TempDir(), "dwgo-"+notebook+".start"), nil
}

// StartClock records now as the start of the notebook's run (its first cell calls it).
func StartClock(notebook string) error {
	f, err := clockFile(notebook)
	if err != nil {
		return err
	}
	return os.WriteFile(f, []byte(time.Now().Format(time.RFC3339Nano)), 0o644)
}

// WallTime is the time since the notebook's StartClock.
func WallTime(notebook string) (time.Duration, error) {
	f, err := clockFile(notebook)
	if err != nil {
		return 0, err
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return 0, fmt.Errorf("kernelext: notebook clock of %q was not started (StartClock in its first cell): %w", notebook, err)
	}
	t0, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		return 0, fmt.Errorf("kernelext: notebook clock file %s: %w", f, err)
	}
	return time.Since(t0), nil
}

// ShowWallTime prints the notebook's wall time and profile (its last cell calls it): the cost of
// reproducing the notebook's outputs, with whatever it read back from caches and archives.
func ShowWallTime(notebook string) error {
	d, err := WallTime(notebook)
	if err != nil {
		return err
	}
	fmt.Printf("Notebook wall time: %s (notebook profile %s).\n", d.Round(time.Second), Profile())
	return nil
}

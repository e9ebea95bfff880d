package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// resultsDir resolves where -save writes (dir, or <repo>/data/results when dir is "") and checks,
// before any work, that a file can be written there: a sweep that trained for hours and then
// could not save its table (outside a checkout, or a read-only directory) would have to be run
// again only to be told where to write. It creates the directory, as saving would. flag names the
// command's option for the directory ("" when it has none), so that the error says what to give.
func resultsDir(dir, flag string) (string, error) {
	if dir == "" {
		root, err := data.FindRepoRoot("")
		if err != nil {
			if flag == "" {
				return "", usageError{fmt.Errorf("-save writes to <repo>/data/results: %w (run it inside a checkout)", err)}
			}
			return "", usageError{fmt.Errorf("-save writes to <repo>/data/results by default: %w; give the directory with %s DIR", err, flag)}
		}
		dir = filepath.Join(root, "data", "results")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("-save: %w", err)
	}
	f, err := os.CreateTemp(dir, ".dw-save-check-*")
	if err != nil {
		return "", fmt.Errorf("-save: cannot write to %s: %w", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return dir, nil
}

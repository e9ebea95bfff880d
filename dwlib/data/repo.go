package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// FindRepoRoot walks up from start (the working directory if empty) to the
// first directory containing go.mod. Default paths (<repo>/data/cache and
// <repo>/../shared/data/ett) are resolved from it so that commands and tests
// agree regardless of the directory they run in.
func FindRepoRoot(start string) (string, error) {
	if start == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("data: finding repository root: %w", err)
		}
		start = wd
	}
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("data: finding repository root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("data: finding repository root: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("data: no go.mod found above %s", start)
		}
		dir = parent
	}
}

// DefaultETTDir is <repo>/../shared/data/ett.
func DefaultETTDir() (string, error) {
	root, err := FindRepoRoot("")
	if err != nil {
		return "", needsSetting(err, "ETTDir")
	}
	return filepath.Join(filepath.Dir(root), "shared", "data", "ett"), nil
}

// DefaultCacheDir is <repo>/data/cache (git-ignored).
func DefaultCacheDir() (string, error) {
	root, err := FindRepoRoot("")
	if err != nil {
		return "", needsSetting(err, "CacheDir", "NoCache")
	}
	return filepath.Join(root, "data", "cache"), nil
}

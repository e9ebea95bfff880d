package data

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FileDigest identifies a data file by its base name and the SHA-256 of its bytes as stored
// (compressed or not: what sha256sum prints), so a run can refuse to mix two versions of its data.
// The directory is not part of it: the same file read from another place is the same data.
type FileDigest struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

func (d FileDigest) String() string { return d.Name + " (SHA-256 " + d.SHA256 + ")" }

// SourceFiles returns the digests of the files Load reads for the named testbed, without parsing
// them: nil for the generated testbeds, the CSV for ETT. It is the cheap check that a finished run's
// data file is still the one it was trained on.
func SourceFiles(name string, opt Options) ([]FileDigest, error) {
	if !strings.HasPrefix(name, "ett") {
		return nil, nil
	}
	dir, err := opt.ettDir()
	if err != nil {
		return nil, err
	}
	path, err := ettFile(dir, name)
	if err != nil {
		return nil, err
	}
	d, err := digestFile(path)
	if err != nil {
		return nil, err
	}
	return []FileDigest{d}, nil
}

func digestFile(path string) (FileDigest, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileDigest{}, fmt.Errorf("data: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return FileDigest{}, fmt.Errorf("data: reading %s: %w", path, err)
	}
	return FileDigest{Name: filepath.Base(path), SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// ManifestData is a run's real data set read through a JSON manifest (data.Manifest): the
// counterpart of CSVData for the paper's iEEG and movie-fMRI arrays. A run names it with the
// testbed "manifest:PATH" (dw train -testbed manifest:/data/m.json); resolving turns that into
// RunConfig.Data.Manifest and the testbed manifest-<name>-<hash8>, so the run directory never
// holds a path.
//
// SHA256 covers the manifest's bytes and every file it names, in the manifest's order: every load
// (training, resuming, evaluating) hashes them again and refuses them when they differ, so a
// run's numbers never come from other data. The path is not part of the run's identity (the
// same files moved are the same data; Options.DataFile reads the manifest from a new place).
type ManifestData struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Name   string `json:"name"`
	// UnitLen and TrainUnits describe participant 0's (or the subjects') units, for the checks of
	// K against the unit and for planning.
	UnitLen    int `json:"unit_len"`
	TrainUnits int `json:"train_units"`
}

// NewManifestData reads and checks a manifest and every file once (a broken file is reported
// now, before any run starts) and returns it with its hash.
func NewManifestData(path string) (*ManifestData, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("experiment: manifest: %w", err)
	}
	m, err := data.ReadManifest(abs)
	if err != nil {
		return nil, err
	}
	sum, err := hashManifest(abs, m)
	if err != nil {
		return nil, err
	}
	ds, err := data.LoadManifest(abs, data.Options{})
	if err != nil {
		return nil, err
	}
	return &ManifestData{Path: abs, SHA256: sum, Name: m.Name, UnitLen: ds.Train[0].Len(), TrainUnits: len(ds.Train)}, nil
}

// hashManifest is the SHA-256 of the manifest's bytes and each named file's bytes, each prefixed
// by its length so that no two file sets hash alike.
func hashManifest(path string, m *data.Manifest) (string, error) {
	h := sha256.New()
	for _, p := range append([]string{path}, m.Files(filepath.Dir(path))...) {
		f, err := os.Open(p)
		if err != nil {
			return "", fmt.Errorf("experiment: manifest %s: %w", path, err)
		}
		st, err := f.Stat()
		if err == nil {
			fmt.Fprintf(h, "%d\n", st.Size())
			_, err = io.Copy(h, f)
		}
		f.Close()
		if err != nil {
			return "", fmt.Errorf("experiment: manifest %s: reading %s: %w", path, p, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Testbed is the data set's name in run directories and tables: manifest-<name>-<hash8>.
func (d *ManifestData) Testbed() string {
	return fmt.Sprintf("manifest-%s-%s", d.Name, d.SHA256[:8])
}

// check validates a manifest data set as read back from a configuration.
func (d *ManifestData) check(testbed string) error {
	if b, err := hex.DecodeString(d.SHA256); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("experiment: data.manifest.sha256 %q is not a hex SHA-256", d.SHA256)
	}
	if d.UnitLen < 1 {
		return fmt.Errorf("experiment: data.manifest.unit_len %d must be >= 1", d.UnitLen)
	}
	if want := d.Testbed(); testbed != want {
		return fmt.Errorf("experiment: testbed %q does not match its manifest, whose name is %q", testbed, want)
	}
	return nil
}

// dataset reads the manifest (from path, or d.Path when path is ""), refuses it unless its hash
// is the run's, and builds the data set for the run's participant and seed.
func (d *ManifestData) dataset(cfg RunConfig, path string) (*data.Dataset, error) {
	if path == "" {
		path = d.Path
	}
	m, err := data.ReadManifest(path)
	if err != nil {
		return nil, &data.SettingError{Err: fmt.Errorf("%w; if the manifest moved, say where it is now", err), Settings: []string{"experiment.Options.DataFile"}}
	}
	sum, err := hashManifest(path, m)
	if err != nil {
		return nil, err
	}
	if sum != d.SHA256 {
		return nil, fmt.Errorf("experiment: manifest %s: its files' SHA-256 is %s, but the run %s was made with %s: the manifest or a file it names changed; train the new data as a new run",
			path, sum, cfg.Testbed, d.SHA256)
	}
	ds, err := data.LoadManifest(path, data.Options{Seed: cfg.Seed, Participant: cfg.Data.Participant, ScalarNorm: cfg.Data.ScalarNorm})
	if err != nil {
		return nil, err
	}
	ds.Name = cfg.Testbed
	return ds, nil
}

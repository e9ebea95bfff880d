package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// CSVData is a run's own data set: a time-series CSV file, identified by
// the SHA-256 of its bytes, and the spec that reads it. It takes the place
// of a built-in testbed (RunConfig.Data.CSV, with RunConfig.Testbed set to
// its Testbed name), so a user's series gets the same run directories,
// resume, evaluation, baselines and tables.
//
// The hash is what makes the run reproducible: every load of the data
// (training, resuming, dw eval, baselines) hashes the file again and
// refuses it when it differs, so a run's numbers can never silently come
// from another version of the file. The path is only where to find it: it
// is recorded for dw eval but is not part of the run's identity (a file
// moved with its content unchanged is the same data; Options.DataFile
// reads it from its new place).
type CSVData struct {
	Path   string       `json:"path"`   // absolute path the file was read from
	SHA256 string       `json:"sha256"` // hex SHA-256 of the file's bytes (compressed ones for .csv.gz)
	Spec   data.CSVSpec `json:"spec"`   // resolved by data.ReadCSV: every column, the step, split and unit length explicit
}

// NewCSVData reads and checks a CSV file once (every malformed row is
// reported now, before any run starts) and returns it with its hash and
// the spec resolved against it.
func NewCSVData(path string, spec data.CSVSpec) (*CSVData, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("experiment: data file: %w", err)
	}
	b, sum, err := readHashed(abs)
	if err != nil {
		return nil, err
	}
	tab, err := data.ParseCSV(abs, bytes.NewReader(b), spec)
	if err != nil {
		return nil, err
	}
	return &CSVData{Path: abs, SHA256: sum, Spec: tab.Spec}, nil
}

// Testbed is the data set's name in run directories and tables:
// csv-<name>-<hash8>, with the spec's name (by default the file's) and the
// first 8 hex digits of the SHA-256 of the file's hash and the resolved
// spec. Another file, or the same file read with other columns, split or
// unit length, gets another directory; the same file and spec always get
// the same one, wherever the file lies.
func (d *CSVData) Testbed() string {
	spec, _ := json.Marshal(d.Spec)
	h := sha256.Sum256(append([]byte(d.SHA256+"\n"), spec...))
	return fmt.Sprintf("csv-%s-%x", d.Spec.Name, h[:4])
}

// check validates a CSV data set as read back from a configuration.
func (d *CSVData) check(testbed string) error {
	if b, err := hex.DecodeString(d.SHA256); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("experiment: data.csv.sha256 %q is not a hex SHA-256", d.SHA256)
	}
	if d.Spec.Name == "" {
		return fmt.Errorf("experiment: data.csv.spec.name is empty (the spec must be resolved, as NewCSVData does)")
	}
	if err := d.Spec.Validate(); err != nil {
		return fmt.Errorf("experiment: data.csv.spec: %w", err)
	}
	if want := d.Testbed(); testbed != want {
		return fmt.Errorf("experiment: testbed %q does not match its CSV data set, whose name is %q", testbed, want)
	}
	return nil
}

// unitLen is the unit length the spec gives.
func (d *CSVData) unitLen() int {
	if d.Spec.UnitLen > 0 {
		return d.Spec.UnitLen
	}
	return data.DefaultCSVUnitLen
}

// dataset reads the file (from path, or from d.Path when path is ""),
// refuses it unless its SHA-256 is the run's, and builds the data set with
// units of length rows (0: the spec's), named name.
func (d *CSVData) dataset(name string, length int, path string) (*data.Dataset, error) {
	if path == "" {
		path = d.Path
	}
	b, sum, err := readHashed(path)
	if err != nil {
		return nil, &data.SettingError{Err: fmt.Errorf("%w; if the file moved, say where it is now", err), Settings: []string{"experiment.Options.DataFile"}}
	}
	if sum != d.SHA256 {
		return nil, fmt.Errorf("experiment: %s: the file's SHA-256 is %s, but the run %s was made with %s: the file changed. "+
			"A run's data cannot change under it; train the new file as a new run (-data FILE gives it its own directory)",
			path, sum, name, d.SHA256)
	}
	tab, err := data.ParseCSV(path, bytes.NewReader(b), d.Spec)
	if err != nil {
		return nil, err
	}
	tab.Spec.Name = name
	if length > 0 {
		tab.Spec.UnitLen = length
	}
	return tab.Dataset()
}

// readHashed returns a file's bytes and their hex SHA-256.
func readHashed(path string) ([]byte, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("experiment: data file: %w", err)
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:]), nil
}

// identity is the part of the configuration a run is identified by: all
// of it except where a CSV file lies (its content is identified by its
// hash). A finished result and a checkpoint are matched on it.
func (c RunConfig) identity() RunConfig {
	if c.Data.CSV != nil {
		csv := *c.Data.CSV
		csv.Path = ""
		c.Data.CSV = &csv
	}
	if c.Data.Manifest != nil {
		m := *c.Data.Manifest
		m.Path = ""
		c.Data.Manifest = &m
	}
	return c
}

// loadDataset loads the run's data: its CSV file (opt.DataFile, if set,
// instead of the recorded path) or its built-in testbed.
func loadDataset(cfg RunConfig, opt Options) (*data.Dataset, error) {
	if cfg.Data.CSV != nil {
		return cfg.Data.CSV.dataset(cfg.Testbed, cfg.Data.Length, opt.DataFile)
	}
	if cfg.Data.Manifest != nil {
		return cfg.Data.Manifest.dataset(cfg, opt.DataFile)
	}
	do := cfg.dataOptions()
	do.CacheDir, do.ETTDir = opt.DataCache, opt.ETTDir
	return data.Load(cfg.Testbed, do)
}

// csvTrainUnits is the number of training units of a CSV run (0 when its data cannot be read: the
// run itself then reports why). Only planning uses it, so it reads the recorded path.
func csvTrainUnits(cfg RunConfig) int {
	ds, err := cfg.Data.CSV.dataset(cfg.Testbed, cfg.Data.Length, "")
	if err != nil {
		return 0
	}
	return len(ds.Train)
}

package experiment

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CSVSibling is a finished or started run of the same CSV file as a new run, under another name
// because the spec that reads the file differs (a CSV run's name hashes the file and its spec).
type CSVSibling struct {
	Run  string   // the existing run's name, profile/csv-<name>-<hash8>/<run>
	Diff []string // the spec fields that differ, "drive [\"load\"] ≠ (none)", the existing run's value first
}

// CSVSiblings lists the runs, under opt's runs directory and archive, of the same profile and the
// same file (its SHA-256) as the CSV run cfg but with another spec, when cfg itself has not run:
// the runs a user who changed -drive, -state, -split or -unit-len may think this one continues,
// with what differs. nil for a built-in testbed or a run that exists.
func CSVSiblings(cfg RunConfig, opt Options) ([]CSVSibling, error) {
	if cfg.Data.CSV == nil {
		return nil, nil
	}
	if st, err := StateOf(cfg, opt); err == nil && (st.Finished != "" || st.Epoch > 0) {
		return nil, nil
	}
	var roots []string
	if dir, err := opt.Dir(cfg); err == nil {
		roots = append(roots, filepath.Dir(filepath.Dir(dir))) // <runs>/<profile>
	}
	if a := opt.archiveDir(); a != "" {
		roots = append(roots, filepath.Join(a, cfg.Profile))
	}
	seen := map[string]bool{}
	var out []CSVSibling
	for _, root := range roots {
		dirs, _ := filepath.Glob(filepath.Join(root, "csv-*", "*"))
		for _, d := range dirs {
			other, ok := runConfigIn(d)
			if !ok || other.Data.CSV == nil || other.Data.CSV.SHA256 != cfg.Data.CSV.SHA256 || other.Testbed == cfg.Testbed || seen[other.Name()] {
				continue
			}
			seen[other.Name()] = true
			out = append(out, CSVSibling{Run: other.Name(), Diff: specDiff(other.Data.CSV, cfg.Data.CSV)})
		}
	}
	slices.SortFunc(out, func(a, b CSVSibling) int { return strings.Compare(a.Run, b.Run) })
	return out, nil
}

// runConfigIn reads the configuration of the run in dir: its config.json, else its result's
// (an archived run has only result.json.gz). Anything unreadable is skipped: this is a hint.
func runConfigIn(dir string) (RunConfig, bool) {
	if b, err := os.ReadFile(filepath.Join(dir, ConfigFile)); err == nil {
		var c RunConfig
		return c, json.Unmarshal(b, &c) == nil
	}
	for _, name := range []string{ResultFile, ArchivedResultFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		var r io.Reader = bytes.NewReader(b)
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(r)
			if err != nil {
				continue
			}
			r = zr
		}
		var res struct {
			Config RunConfig `json:"config"`
		}
		if json.NewDecoder(r).Decode(&res) == nil {
			return res.Config, true
		}
	}
	return RunConfig{}, false
}

// specDiff names the spec fields in which a (the existing run's) and b differ, as in the spec's
// JSON, both values.
func specDiff(a, b *CSVData) []string {
	fields := func(d *CSVData) map[string]json.RawMessage {
		m := map[string]json.RawMessage{}
		j, _ := json.Marshal(d.Spec)
		json.Unmarshal(j, &m)
		return m
	}
	fa, fb := fields(a), fields(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	show := func(v json.RawMessage) string {
		if v == nil {
			return "(none)"
		}
		return string(v)
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if k != "name" && !bytes.Equal(fa[k], fb[k]) {
			out = append(out, fmt.Sprintf("%s %s ≠ %s", k, show(fa[k]), show(fb[k])))
		}
	}
	return out
}

package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/internal/canonjson"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// runIdentity is what a run's checkpoints (last.ckpt and best.ckpt) carry as their meta, and what
// resuming or loading them must match: the whole RunConfig (method, profile, testbed, seed, every
// setting) and the data files the run read, with their SHA-256. The generated testbeds read no
// file: their identity is the RunConfig alone, as JSON exactly as before data files were recorded,
// so their older checkpoints still resume and load. An ETT checkpoint without data files is
// refused (nothing says which CSV it was trained on): re-run it.
type runIdentity struct {
	RunConfig
	DataFiles []data.FileDigest `json:"data_files,omitempty"`
}

// identityOf is the identity of run cfg on dataset ds. A CSV run's file is identified by its
// SHA-256 in the configuration, not by where it lies (RunConfig.identity), so a moved file is the
// same run.
func identityOf(cfg RunConfig, ds *data.Dataset) runIdentity {
	return runIdentity{RunConfig: cfg.identity(), DataFiles: ds.Files}
}

// explainIdentity turns a train.IdentityError about a run's checkpoint into a message naming both
// runs and saying what to do; other errors pass unchanged.
func explainIdentity(err error, cfg RunConfig, mine runIdentity) error {
	var ie *train.IdentityError
	if !errors.As(err, &ie) {
		return err
	}
	var theirs runIdentity
	if json.Unmarshal(ie.CheckpointMeta, &theirs) != nil || theirs.Testbed == "" {
		return fmt.Errorf("experiment: %s was not written by an experiment run (it has no run identity); run %s again with Force: %w", ie.Path, cfg.Name(), err)
	}
	switch {
	case len(theirs.DataFiles) == 0 && len(mine.DataFiles) > 0:
		return fmt.Errorf("experiment: %s was written before checkpoints recorded the data files' SHA-256, so it cannot be checked against %s; run %s again with Force",
			ie.Path, fileList(mine.DataFiles), cfg.Name())
	case !slices.Equal(theirs.DataFiles, mine.DataFiles) && theirs.Name() == cfg.Name():
		return fmt.Errorf("experiment: %s was trained on %s, but the data file now is %s; put the original file back, or run %s again with Force",
			ie.Path, fileList(theirs.DataFiles), fileList(mine.DataFiles), cfg.Name())
	case theirs.Name() != cfg.Name():
		return fmt.Errorf("experiment: %s belongs to run %s, not to %s (%s); it cannot be used for this run",
			ie.Path, theirs.Name(), cfg.Name(), diffSummary(ie.Diffs))
	}
	return fmt.Errorf("experiment: %s belongs to another configuration of run %s (%s); resume with the configuration it was written with, or start over with Force",
		ie.Path, cfg.Name(), diffSummary(ie.Diffs))
}

func fileList(fs []data.FileDigest) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return strings.Join(s, ", ")
}

// diffSummary shows at most 6 differing fields. The meta is the whole RunConfig, so when it
// differs the rest of the checkpoint's identity repeats it: only its fields are shown, named as in
// config.json.
func diffSummary(d []string) string {
	var meta []string
	for _, s := range d {
		if rest, ok := strings.CutPrefix(s, "meta."); ok {
			meta = append(meta, rest)
		}
	}
	if len(meta) > 0 {
		d = meta
	}
	if len(d) > 6 {
		d = append(d[:6:6], fmt.Sprintf("and %d more", len(d)-6))
	}
	return strings.Join(d, "; ")
}

// sameConfig reports whether two run configurations are identical (as canonical JSON, integers
// exact).
func sameConfig(a, b RunConfig) bool {
	return string(mustCanonical(a.identity())) == string(mustCanonical(b.identity()))
}

// configDiff names the fields in which two run configurations differ, as in config.json, with
// both values ("fit.epochs 3 ≠ 2"), a for the first and b for the second.
func configDiff(a, b RunConfig) []string {
	tree := func(c RunConfig) any {
		var v any
		dec := json.NewDecoder(strings.NewReader(string(mustCanonical(c.identity()))))
		dec.UseNumber()
		dec.Decode(&v)
		return v
	}
	var out []string
	var walk func(path string, x, y any)
	walk = func(path string, x, y any) {
		mx, okx := x.(map[string]any)
		my, oky := y.(map[string]any)
		if okx && oky {
			keys := map[string]bool{}
			for k := range mx {
				keys[k] = true
			}
			for k := range my {
				keys[k] = true
			}
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				walk(dotted(path, k), mx[k], my[k])
			}
			return
		}
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		if string(jx) != string(jy) {
			out = append(out, fmt.Sprintf("%s %s ≠ %s", path, jx, jy))
		}
	}
	walk("", tree(a), tree(b))
	return out
}

// mustCanonical is canonjson.Marshal for values that always encode.
func mustCanonical(v any) []byte {
	b, _ := canonjson.Marshal(v)
	return b
}

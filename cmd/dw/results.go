package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// runSummary is one run's line in data/results/<profile>-<label>.json: small enough to commit.
type runSummary struct {
	Run             string    `json:"run"`
	TestRelL2       float64   `json:"test_rel_l2"`
	PerHorizon      []float64 `json:"test_per_horizon"`
	BestEpoch       int       `json:"best_epoch"`
	Epochs          int       `json:"epochs"`
	BestVal         float64   `json:"best_val"`
	SecondsPerEpoch float64   `json:"seconds_per_epoch"`
	WallSeconds     float64   `json:"wall_seconds"`
	Parameters      int       `json:"parameters"`
}

// noteUnchecked says which results were read without an integrity check: those written before
// results carried a checksum (experiment.Result.HasChecksum), read back as they are.
func noteUnchecked(rs []*experiment.Result) {
	var names []string
	for _, r := range rs {
		if !r.HasChecksum() {
			names = append(names, r.Config.Name())
		}
	}
	if len(names) == 0 {
		return
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(names)-3))
	}
	fmt.Fprintf(stderr, "dw: read without an integrity check (written before results carried a checksum): %s\n", strings.Join(names, ", "))
}

// commandLine is this process's command line as "dw ARGS", for the saved tables.
func commandLine() string {
	return strings.Join(append([]string{"dw"}, os.Args[1:]...), " ")
}

// runBackends names the backends the runs were trained on, as their results record them, with
// counts when there are several ("go:ops_sequential (4), go:parallelism=-1 (2)"): a sweep that
// only reads finished runs back did not train them, so its own backend says nothing.
func runBackends(rs []*experiment.Result) string {
	var names []string
	count := map[string]int{}
	for _, r := range rs {
		b := r.Backend
		if b == "" {
			b = "unrecorded"
		}
		if count[b] == 0 {
			names = append(names, b)
		}
		count[b]++
	}
	if len(names) == 1 {
		return names[0]
	}
	for i, n := range names {
		names[i] = fmt.Sprintf("%s (%d)", n, count[n])
	}
	return strings.Join(names, ", ")
}

// saveTable writes the sweep's table (Markdown), per-run summaries (JSON) and, when there are
// any, the baselines (JSON) under dir ("": <repo>/data/results) as <profile>-<label>.md, .json
// and -baselines.json. The Markdown names the grid's runs that are missing (dw table of a grid
// still in progress). elapsed, when not 0, is the sweep's own time from start to end: with -jobs
// above 1 it is less than the runs' summed wall time, which the header also gives.
func saveTable(dir, profile, label, table string, elapsed time.Duration, jobs int, rs []*experiment.Result, sets []*experiment.BaselineSet, missing ...string) error {
	dir, err := resultsDir(dir, "-results")
	if err != nil {
		return err
	}
	base := filepath.Join(dir, fmt.Sprintf("%s-%s", profile, label))
	wall, epochs := 0.0, 0.0
	for _, r := range rs {
		wall += r.WallSeconds
		epochs += r.EpochSeconds()
	}
	header := fmt.Sprintf("# %s: %s\n\nWritten %s by `%s` (runs trained on backend %s). Test rel-L2 is eq. (8) over h = 1..ceil(1.5K) on the test split, for the minimum-validation checkpoint; s/epoch is the median training-loop time per epoch. %d runs spent %.1f min in their epochs (training and validation, every process of a resumed run) and %.1f min of wall time from data to result (a resumed run's last process only).",
		profile, label, time.Now().UTC().Format("2006-01-02"), commandLine(), runBackends(rs), len(rs), epochs/60, wall/60)
	if elapsed > 0 {
		header += fmt.Sprintf(" The sweep itself, %d run(s) at a time, took %.1f min from start to end (runs read back, not trained, count as nothing).", jobs, elapsed.Minutes())
	}
	if len(sets) > 0 {
		header += " The baselines (zero forecast, damped persistence fitted on train, ridge AR with W and lambda chosen on validation) are scored by the same eq. (8) evaluator on the same test units, seeds and protocol (dwlib/baseline); a method only shows skill where it beats them."
	}
	if len(missing) > 0 {
		header += fmt.Sprintf(" Not finished when this was written, so left out: %s.", strings.Join(missing, ", "))
	}
	header += "\n\n"
	if err := os.WriteFile(base+".md", []byte(header+table), 0o644); err != nil {
		return err
	}
	var runs []runSummary
	for _, r := range rs {
		runs = append(runs, runSummary{Run: r.Config.Name(), TestRelL2: r.Test.RelL2, PerHorizon: r.Test.PerHorizon,
			BestEpoch: r.BestEpoch, Epochs: len(r.Epochs), BestVal: r.BestVal, SecondsPerEpoch: r.SecondsPerEpoch,
			WallSeconds: r.WallSeconds, Parameters: r.Parameters})
	}
	b, err := json.MarshalIndent(runs, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	if len(sets) == 0 {
		fmt.Fprintf(stderr, "dw: wrote %s.md and %s.json\n", base, base)
		return nil
	}
	if b, err = json.MarshalIndent(sets, "", " "); err != nil {
		return err
	}
	if err := os.WriteFile(base+"-baselines.json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "dw: wrote %s.md, %s.json and %s-baselines.json\n", base, base, base)
	return nil
}

// saveResult writes content to <repo>/data/results/name (the committed summaries) and says so.
func saveResult(name, content string) error { return writeResult("", name, content) }

// writeResult writes content to dir/name (dir "": <repo>/data/results) and says so.
func writeResult(dir, name, content string) error {
	dir, err := resultsDir(dir, "-results")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "dw: wrote %s\n", path)
	return nil
}

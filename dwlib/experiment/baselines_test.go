package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// directBaselines scores cfg's baselines with baseline.Score itself, for comparison.
func directBaselines(t *testing.T, cfg RunConfig, opt Options) []baseline.Result {
	t.Helper()
	ds, err := LoadData(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := baseline.Score(ds, BaselineProtocol(cfg), baseline.Grid{})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// sameScores fails unless the set holds exactly the directly computed baselines.
func sameScores(t *testing.T, what string, got *BaselineSet, want []baseline.Result) {
	t.Helper()
	if len(got.Scores) != len(want) {
		t.Fatalf("%s: %d baselines, want %d", what, len(got.Scores), len(want))
	}
	for i, w := range want {
		g := got.Scores[i]
		if g.Name != w.Name || g.Test.RelL2 != w.Test.RelL2 || g.ValRelL2 != w.Val.RelL2 || g.Params != w.Params() ||
			len(g.Test.PerHorizon) != len(w.Test.PerHorizon) {
			t.Errorf("%s: %s test %v val %v (%s), want %s test %v val %v (%s)", what, g.Name, g.Test.RelL2, g.ValRelL2, g.Params,
				w.Name, w.Test.RelL2, w.Val.RelL2, w.Params())
		}
	}
}

// rewrite edits the cached file at path through its JSON.
func rewrite(t *testing.T, path string, edit func(*BaselineSet)) {
	t.Helper()
	s, err := ReadBaselines(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(s)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBaselinesCache: the cached file is reused while its key matches (whatever the method), and
// rescored when the protocol, the data fingerprint or the file itself is wrong, or when forced.
func TestBaselinesCache(t *testing.T) {
	cfg, err := Resolve(Quick, "driven-mg", "full", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	opt := quickOptions(t)
	opt.Log = &log
	first, err := RunBaselines(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := BaselinesPath(cfg, opt)
	if want := filepath.Join(opt.RunsDir, "quick", "driven-mg", "baselines-K8-s1.json"); path != want || first.Path != want {
		t.Fatalf("cache file %q (set says %q), want %q", path, first.Path, want)
	}
	if first.Reused || !strings.Contains(log.String(), "(new)") {
		t.Errorf("first call: reused = %v, log %q", first.Reused, log.String())
	}
	sameScores(t, "first call", first, directBaselines(t, cfg, opt))
	if first.Scores[2].Drive != true || first.Key.H != cfg.HEval || first.Key.History != cfg.EvalWindow {
		t.Errorf("driven-MG ridge without drive or wrong key: %+v", first.Key)
	}

	// A valid file is read back, not rescored: a marker written into it comes back, for any method.
	const marker = 0.123456
	rewrite(t, path, func(s *BaselineSet) { s.Scores[0].Test.RelL2 = marker })
	dwCfg, err := Resolve(Quick, "driven-mg", "dw", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []RunConfig{cfg, dwCfg} {
		again, err := RunBaselines(c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !again.Reused || again.Scores[0].Test.RelL2 != marker {
			t.Errorf("%s: valid cache not reused: reused = %v, zero %v", c.Train.Method, again.Reused, again.Scores[0].Test.RelL2)
		}
	}

	// A changed protocol (same file name) is rescored, with the new protocol's numbers.
	changed := cfg
	changed.EvalOrigins = 3
	log.Reset()
	got, err := RunBaselines(changed, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.Reused || got.Key.MaxOrigins != 3 || !strings.Contains(log.String(), "stale: [max_origins]") {
		t.Errorf("changed protocol: reused = %v, key %+v, log %q", got.Reused, got.Key, log.String())
	}
	sameScores(t, "changed protocol", got, directBaselines(t, changed, opt))
	if onDisk, err := ReadBaselines(path); err != nil || onDisk.Key.MaxOrigins != 3 {
		t.Errorf("the rescored set was not written: %v", err)
	}
	changedWindow := cfg
	changedWindow.EvalWindow = 2
	if got, err := RunBaselines(changedWindow, opt); err != nil || got.Reused || got.Key.History != 2 {
		t.Errorf("changed history window: %v; want rescored with history 2", err)
		if err == nil {
			t.Errorf("reused = %v, history %d", got.Reused, got.Key.History)
		}
	}

	// Back to the original protocol: rescored again, the same numbers as the first time.
	back, err := RunBaselines(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if back.Reused {
		t.Error("original protocol after a change: stale file reused")
	}
	sameScores(t, "back", back, directBaselines(t, cfg, opt))

	// Other data (same options), a corrupt file, another version, and Force: all rescored.
	for _, tc := range []struct {
		what  string
		spoil func()
		force bool
	}{
		{"data fingerprint", func() { rewrite(t, path, func(s *BaselineSet) { s.Key.DataSHA256 = "00" }) }, false},
		{"corrupt file", func() { os.WriteFile(path, []byte(`{"version": 1, "key": {`), 0o644) }, false},
		{"old version", func() { rewrite(t, path, func(s *BaselineSet) { s.Version = 0 }) }, false},
		{"missing baseline", func() { rewrite(t, path, func(s *BaselineSet) { s.Scores = s.Scores[:2] }) }, false},
		{"force", func() { rewrite(t, path, func(s *BaselineSet) { s.Scores[0].Test.RelL2 = marker }) }, true},
	} {
		tc.spoil()
		o := opt
		o.Force = tc.force
		got, err := RunBaselines(cfg, o)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		if got.Reused {
			t.Errorf("%s: reused", tc.what)
		}
		sameScores(t, tc.what, got, directBaselines(t, cfg, opt))
		if _, err := ReadBaselines(path); err != nil {
			t.Errorf("%s: rescored file unreadable: %v", tc.what, err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
	bad := cfg
	bad.Testbed = "lorenz"
	if _, err := RunBaselines(bad, opt); err == nil || !strings.Contains(err.Error(), `unknown testbed "lorenz"`) {
		t.Errorf("unknown testbed: %v", err)
	}
}

// fakeResult is a finished run with a given test score: Summarize reads only these fields.
func fakeResult(t *testing.T, method string, seed uint64, K int, rel float64) *Result {
	t.Helper()
	c, err := Resolve(Quick, "mackey-glass", method, seed, K)
	if err != nil {
		t.Fatal(err)
	}
	return &Result{Version: resultVersion, Config: c, Test: TestScore{RelL2: rel}, SecondsPerEpoch: 1,
		Epochs: make([]train.EpochRecord, c.Fit.Epochs)}
}

// TestSummaryHasBaselines: with the results' baselines, the summary has one row per baseline
// and protocol with baseline.Score's own numbers over the results' seeds, each method row is
// compared with the best baseline on its own seeds, and the Markdown shows both.
func TestSummaryHasBaselines(t *testing.T) {
	opt := quickOptions(t)
	rs := []*Result{
		fakeResult(t, "full", 0, 0, 0.30), fakeResult(t, "full", 1, 0, 0.32),
		fakeResult(t, "dw", 0, 0, 0.31), fakeResult(t, "dw", 1, 0, 0.35),
		fakeResult(t, "clip", 0, 0, 0.29),
		fakeResult(t, "tbptt", 1, 4, 0.40), // another K: another protocol, its own baselines
	}
	s, err := SummarizeWithBaselines(rs, opt)
	if err != nil {
		t.Fatal(err)
	}
	direct := map[string][]baseline.Result{} // by K and seed
	for _, r := range rs {
		k := fmt.Sprintf("K%d-s%d", r.Config.Train.K, r.Config.Seed)
		if direct[k] == nil {
			direct[k] = directBaselines(t, r.Config, opt)
		}
	}
	if len(s.Baselines) != 6 {
		t.Fatalf("%d baseline rows, want 3 at K = 4 and 3 at K = 8:\n%s", len(s.Baselines), s.Markdown())
	}
	md := s.Markdown()
	for i, row := range s.Baselines {
		K, seeds := 4, []uint64{1}
		if i >= 3 {
			K, seeds = 8, []uint64{0, 1}
		}
		if row.Testbed != "mackey-glass" || row.Name != BaselineNames()[i%3] || row.Protocol.H != int(math.Ceil(1.5*float64(K))) ||
			fmt.Sprint(row.Seeds) != fmt.Sprint(seeds) {
			t.Errorf("baseline row %d: %s %s H=%d seeds %v", i, row.Testbed, row.Name, row.Protocol.H, row.Seeds)
			continue
		}
		var vals []float64
		for j, seed := range seeds {
			w := direct[fmt.Sprintf("K%d-s%d", K, seed)][i%3]
			vals = append(vals, w.Test.RelL2)
			if row.Values[j] != w.Test.RelL2 || row.Params[j] != w.Params() {
				t.Errorf("%s K=%d seed %d: %v (%s), baseline.Score gives %v (%s)", row.Name, K, seed, row.Values[j], row.Params[j], w.Test.RelL2, w.Params())
			}
		}
		mean, sd := 0.0, math.NaN()
		for _, v := range vals {
			mean += v / float64(len(vals))
		}
		if len(vals) == 2 {
			sd = math.Abs(vals[0]-vals[1]) / math.Sqrt2
		}
		line := fmt.Sprintf("| mackey-glass | %s | %d | %s |", row.Name, len(seeds), meanSD(mean, sd))
		if !strings.Contains(md, line) {
			t.Errorf("table lacks %q:\n%s", line, md)
		}
	}
	for _, w := range []string{"over h = 1..12 from 4 observed states, burn-in 4, at most 8 origins", "over h = 1..6 from 4 observed states",
		"| vs best baseline |", "W=", "phi="} {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
	// Method rows: the best baseline over the row's own seeds and protocol.
	for _, row := range s.Rows {
		var runs []*Result
		for _, r := range rs {
			if r.Config.Train.Method == row.Method {
				runs = append(runs, r)
			}
		}
		best, bestName := math.Inf(1), ""
		for i, name := range BaselineNames() {
			m := 0.0
			for _, r := range runs {
				m += direct[fmt.Sprintf("K%d-s%d", r.Config.Train.K, r.Config.Seed)][i].Test.RelL2 / float64(len(runs))
			}
			if m < best {
				best, bestName = m, name
			}
		}
		if row.BestBaseline != bestName || math.Abs(row.BaselineMean-best) > 1e-15 || math.Abs(row.VsBaseline-row.Mean/best) > 1e-12 {
			t.Errorf("%s: best baseline %s %v ratio %v, want %s %v ratio %v", row.Method, row.BestBaseline, row.BaselineMean, row.VsBaseline, bestName, best, row.Mean/best)
		}
		cell := fmt.Sprintf("| %.3f (%s %.4f) |", row.Mean/best, bestName, best)
		if !strings.Contains(md, cell) {
			t.Errorf("%s row lacks %q:\n%s", row.Method, cell, md)
		}
	}

	// The sets of seeds without results are left out; without sets the table is as before.
	sets, err := ResultBaselines(rs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 3 {
		t.Errorf("%d baseline sets for K8 s0, K8 s1 and K4 s1, want 3", len(sets))
	}
	for _, set := range sets {
		if !set.Reused {
			t.Errorf("%s s%d H=%d was rescored instead of read back", set.Key.Testbed, set.Key.Seed, set.Key.H)
		}
	}
	only := Summarize(rs[:1], sets...)
	if len(only.Baselines) != 3 || len(only.Baselines[0].Seeds) != 1 || only.Baselines[0].Seeds[0] != 0 {
		t.Errorf("baselines of seeds without results were tabulated: %+v", only.Baselines)
	}
	plain := Summarize(rs).Markdown()
	if strings.Contains(plain, "baseline") || !strings.HasPrefix(plain, "| testbed | method | seeds | test rel-L2 (mean ± sd) | "+PaperColumn+" | epochs | s/epoch |\n") {
		t.Errorf("the table without baselines changed:\n%s", plain)
	}
}

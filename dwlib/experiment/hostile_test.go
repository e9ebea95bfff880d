package experiment

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/train"
)

// TestReadConfigHostile is the hostile-input suite of issue 40 for -config files: a key given
// twice (encoding/json would keep the last silently), an oversized file, and names too long to
// name a directory are refused by name, before anything is built, and the error stays short.
func TestReadConfigHostile(t *testing.T) {
	cfg := quickCfg(t, "jreg", 2)
	js := cfg.JSON()
	dup := func(key, extra string) []byte { // the first "key": line followed by a second one
		i := bytes.Index(js, []byte(`"`+key+`":`))
		if i < 0 {
			t.Fatalf("no %q in %s", key, js)
		}
		return append(append(append([]byte{}, js[:i]...), fmt.Sprintf(`"%s": %s, `, key, extra)...), js[i:]...)
	}
	long := strings.Repeat("a", 5000)
	for _, tc := range []struct {
		name    string
		content []byte
		wants   []string
	}{
		{"epochs twice", dup("epochs", "1"), []string{`field "fit.epochs" is given twice`}},
		{"profile twice", dup("profile", `"other"`), []string{`field "profile" is given twice`}},
		{"file over the size limit", append(bytes.Repeat([]byte(" "), 2<<20), js...), []string{"bytes", "at most"}},
		{"long profile", editJSON(t, js, func(m map[string]any) { m["profile"] = long }), []string{"profile", "5000 bytes", "at most"}},
		{"long testbed", editJSON(t, js, func(m map[string]any) { m["testbed"] = long }), []string{"testbed", "5000 bytes", "at most"}},
		{"long method", editJSON(t, js, func(m map[string]any) { m["train"].(map[string]any)["method"] = long }), []string{"method", "5000 bytes", "at most"}},
		{"no calendar off ETT", editJSON(t, js, func(m map[string]any) {
			d, _ := m["data"].(map[string]any)
			if d == nil {
				d = map[string]any{}
			}
			d["no_calendar"] = true
			m["data"] = d
		}), []string{"data.no_calendar", "ettm1 and ettm2 only", cfg.Testbed}},
		{"unknown shift", editJSON(t, js, func(m map[string]any) {
			m["model"].(map[string]any)["shift"] = "median"
			m["train"].(map[string]any)["loss"] = "mse"
		}), []string{"model.shift", `"median"`, `"last"`}},
		{"shift with rel-L2", editJSON(t, js, func(m map[string]any) {
			m["model"].(map[string]any)["shift"] = "last"
		}), []string{"model.shift", `train.loss "mse"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.json")
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadConfig(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append([]string{path}, tc.wants...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if len(err.Error()) > 1000 {
				t.Errorf("error of %d bytes: a refused value must not be echoed whole", len(err.Error()))
			}
		})
	}
}

// TestRunDirectoryFollowsNoSymlink (issue 40, defect 13): a symbolic link planted in a run
// directory under the name of a file the run writes (the lock, config.json, result.json, the
// checkpoints) is refused by name before anything is read or written through it: its target is
// left as it was, and so is the link.
func TestRunDirectoryFollowsNoSymlink(t *testing.T) {
	for _, name := range []string{LockFile, ConfigFile, ResultFile, CheckpointFile, BestFile} {
		t.Run(name, func(t *testing.T) {
			cfg := quickCfg(t, "full", 0)
			opt := quickOptions(t)
			dir, err := opt.Dir(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(t.TempDir(), "precious")
			const content = "not yours\n"
			if err := os.WriteFile(target, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, name)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			_, err = Run(cfg, opt)
			if b, _ := os.ReadFile(target); string(b) != content {
				t.Fatalf("the link's target was written: %q", b)
			}
			if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("Run with a link named %s: %v, want a refusal naming %s as a symbolic link", name, err, link)
			}
			if fi, lerr := os.Lstat(link); lerr != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the refused link was removed or replaced: %v", lerr)
			}
		})
	}
}

// TestHugeSizesRefusedByMemory (issue 40, defect 6): sizes whose lower-bound memory estimate
// exceeds the machine are refused by Run before anything is built or written, naming the fields
// and the estimate; the profiles' own sizes pass with room to spare.
func TestHugeSizesRefusedByMemory(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name string
		edit func(*RunConfig)
		want string // "": fits in 1 GiB
	}{
		{"quick as resolved", func(*RunConfig) {}, ""},
		{"hidden 100000", func(c *RunConfig) { c.Model.Hidden = 100000 }, "model.hidden and model.layers need at least"},
		{"hidden 1e9", func(c *RunConfig) { c.Model.Hidden = 1e9 }, "model.hidden and model.layers need at least"},
		{"layers 1000000", func(c *RunConfig) { c.Model.Layers = 1000000 }, "need at least"},
		{"num_traj 1e9", func(c *RunConfig) { c.Data.NumTraj = 1e9 }, "data.num_traj and data.length need at least"},
		{"eval_batch 1e9", func(c *RunConfig) { c.Fit.EvalBatch = 1e9 }, "fit.eval_batch need at least"},
		{"batch_size 1e9", func(c *RunConfig) { c.Train.BatchSize = 1e9 }, "train.batch_size need at least"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := quickCfg(t, "dw", 0)
			tc.edit(&c)
			err := c.checkMemoryOf(gib)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "1 GiB of memory") {
				t.Fatalf("checkMemoryOf(1 GiB): %v, want an error containing %q", err, tc.want)
			}
			if tc.name != "hidden 1e9" {
				return
			}
			opt := quickOptions(t) // beyond any machine: Run refuses it and writes nothing
			if _, err := Run(c, opt); err == nil || !strings.Contains(err.Error(), "model.hidden") {
				t.Errorf("Run: %v, want the memory refusal", err)
			}
			if e := dirEntries(t, opt.RunsDir); len(e) > 0 {
				t.Errorf("the refused run wrote %v", e)
			}
		})
	}
	paper, err := Resolve(Paper, "mackey-glass", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := paper.checkMemoryOf(4 * gib); err != nil {
		t.Errorf("the paper profile does not fit in 4 GiB by the estimate: %v", err)
	}
}

// TestJobCap (issue 40, minor): a sweep's concurrent runs are capped at what the machine's memory
// holds, counting each run at its estimate plus the measured overhead of a quick run.
func TestJobCap(t *testing.T) {
	cfgs := []RunConfig{quickCfg(t, "full", 0), quickCfg(t, "dw", 0)}
	for _, tc := range []struct {
		memory   float64
		min, max int
	}{
		{1 << 30, 30, 64}, // 1 GiB: at most 64 runs of 16 MiB overhead each
		{14e9, 400, 834},  // the 13.9 GB 1000 quick runs took
		{1 << 20, 1, 1},   // less than one run: still one
	} {
		if got := jobCap(cfgs, tc.memory); got < tc.min || got > tc.max {
			t.Errorf("jobCap(%s) = %d, want %d..%d", formatBytes(tc.memory), got, tc.min, tc.max)
		}
	}
}

// TestConfigMismatchNamesFields (issue 40, minor): a result of another configuration in a run's
// directory is refused naming the fields that differ, with both values.
func TestConfigMismatchNamesFields(t *testing.T) {
	cfg := quickCfg(t, "full", 0)
	other := cfg
	other.Fit.Epochs, other.Train.LR = cfg.Fit.Epochs+1, cfg.Train.LR*2
	r := &Result{Version: resultVersion, Config: other, Test: TestScore{RelL2: 1, PerHorizon: make([]float64, other.HEval)}, Epochs: []train.EpochRecord{{Epoch: 1}}}
	path := filepath.Join(t.TempDir(), ResultFile)
	err := sameRun(r, cfg, Options{}, path)
	for _, want := range []string{path, fmt.Sprintf("fit.epochs %d ≠ %d", other.Fit.Epochs, cfg.Fit.Epochs), "train.lr", "use Force"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("sameRun: %v, want it to mention %q", err, want)
		}
	}
	if d := configDiff(cfg, cfg); len(d) != 0 {
		t.Errorf("configDiff of a configuration with itself: %v", d)
	}
}

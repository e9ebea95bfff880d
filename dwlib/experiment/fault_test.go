package experiment

// The fault suite of issue 13: runs that cannot be corrupted. Each test is one kind of fault (a
// concurrent run, a failed write, a refused resume, a damaged or foreign checkpoint, a changed
// data file, a loose config, a divergence, an interruption, a kill at a random point), and checks
// what the user sees and that nothing on disk was damaged. Everything runs in the quick profile.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/train"
)

// quickCfg is a 3-epoch quick run on Mackey–Glass.
func quickCfg(t *testing.T, method string, seed uint64) RunConfig {
	t.Helper()
	cfg, err := Resolve(Quick, "mackey-glass", method, seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Fit.Epochs = 3
	return cfg
}

// dirEntries lists the names under dir, recursively, relative to it.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// blockingLog is a Log that holds its Run at the first epoch line until released.
type blockingLog struct {
	once              sync.Once
	started, released chan struct{}
}

func (b *blockingLog) Write(p []byte) (int, error) {
	b.once.Do(func() {
		close(b.started)
		<-b.released
	})
	return len(p), nil
}

// TestRunDirectoryLock: while a Run works in a directory, a second Run there is refused at once,
// naming the first (this process); the lock goes with the first Run, and the directory is usable
// again.
func TestRunDirectoryLock(t *testing.T) {
	cfg := quickCfg(t, "full", 0)
	opt := quickOptions(t)
	log := &blockingLog{started: make(chan struct{}), released: make(chan struct{})}
	first := opt
	first.Log = log
	done := make(chan error)
	go func() {
		_, err := Run(cfg, first)
		done <- err
	}()
	<-log.started
	t0 := time.Now()
	_, err := Run(cfg, opt)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("a second Run on a directory in use: %v, want a *LockedError", err)
	}
	for _, want := range []string{fmt.Sprintf("in use by pid %d on ", os.Getpid()), " since ", os.Args[0]} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not name the holder (%q)", err, want)
		}
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("the refusal took %v: it must not wait", d)
	}
	close(log.released)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	dir, _ := opt.Dir(cfg)
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left after the run: %v", err)
	}
	if _, err := Run(cfg, opt); err != nil {
		t.Errorf("the finished run cannot be read back: %v", err)
	}
}

// TestRunDirectoryLockAcrossProcesses: a directory locked by another process is refused with that
// process's pid; once the holder is killed (kill -9, no clean-up) the directory is free again.
func TestRunDirectoryLockAcrossProcesses(t *testing.T) {
	cfg := quickCfg(t, "full", 0)
	opt := quickOptions(t)
	dir, _ := opt.Dir(cfg)
	cmd, _, lines := helper(t, "DW_TEST_HELPER=lock", "DW_TEST_DIR="+dir)
	if l := waitLine(t, lines); l != "locked" {
		t.Fatalf("helper: %s", l)
	}
	_, err := Run(cfg, opt)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("in use by pid %d ", cmd.Process.Pid)) {
		t.Fatalf("Run on a directory another process holds: %v, want the holder's pid %d", err, cmd.Process.Pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, LockFile)); err != nil {
		t.Fatalf("the killed holder's lock file: %v (the test expects it left behind)", err)
	}
	if _, err := Run(cfg, opt); err != nil {
		t.Errorf("Run after the holder was killed: %v", err)
	}
}

// TestWritesLeaveNoTempFiles: a write that fails leaves no temporary file, and concurrent writers
// of one file never collide on a temporary name.
func TestWritesLeaveNoTempFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, ResultFile)
	if err := os.MkdirAll(filepath.Join(target, "occupied"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(target, []byte("{}\n")); err == nil {
		t.Fatal("writing over a non-empty directory succeeded")
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				errs <- writeFileAtomic(filepath.Join(dir, ConfigFile), fmt.Appendf(nil, "writer %d, write %d\n", w, i))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent write: %v", err)
		}
	}
	for _, e := range dirEntries(t, dir) {
		if strings.Contains(e, "tmp") {
			t.Errorf("temporary file left: %s", e)
		}
	}
}

// TestRefusedRunsWriteNothing: a run refused by its checks leaves the runs directory as it was.
func TestRefusedRunsWriteNothing(t *testing.T) {
	good := quickCfg(t, "full", 0)
	ett, err := Resolve(Quick, "ettm1", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	hugeK := good
	hugeK.Train.K, hugeK.HEval = math.MaxInt, math.MaxInt
	for _, tc := range []struct {
		name string
		cfg  RunConfig
		opt  func(*Options)
		want string
	}{
		{"resume and force", good, func(o *Options) { o.Resume, o.Force = true, true }, "Resume and Force contradict each other"},
		{"negative stop-after", good, func(o *Options) { o.StopAfter = -3 }, "StopAfter = -3, must be >= 0"},
		{"huge K", hugeK, func(*Options) {}, "K = 9223372036854775807 is too long for mackey-glass: units have 96 steps"},
		{"missing data file", ett, func(o *Options) { o.ETTDir = t.TempDir() }, "neither ETTm1.csv.gz nor ETTm1.csv found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := quickOptions(t)
			tc.opt(&opt)
			_, err := Run(tc.cfg, opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Run: %v, want an error containing %q", err, tc.want)
			}
			if e := dirEntries(t, opt.RunsDir); len(e) > 0 {
				t.Errorf("a refused run wrote %v", e)
			}
		})
	}
}

// TestRefusedResumeChangesNothing: resuming with another configuration is refused, naming the
// run and the differing field, before config.json or a checkpoint is touched.
func TestRefusedResumeChangesNothing(t *testing.T) {
	cfg := quickCfg(t, "dw", 1)
	opt := quickOptions(t)
	opt.StopAfter = 1
	if _, err := Run(cfg, opt); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	dir, _ := opt.Dir(cfg)
	before := map[string][]byte{}
	for _, f := range []string{ConfigFile, CheckpointFile, BestFile} {
		before[f], _ = os.ReadFile(filepath.Join(dir, f))
	}
	other := cfg
	other.Train.LR = 1e-3
	opt.StopAfter, opt.Resume = 0, true
	_, err := Run(other, opt)
	for _, want := range []string{"last.ckpt belongs to another configuration of run quick/mackey-glass/dw-K8-s1", "train.lr: checkpoint 0.003, this run 0.001"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("resume with another learning rate: %v, want an error containing %q", err, want)
		}
	}
	for f, b := range before {
		if now, _ := os.ReadFile(filepath.Join(dir, f)); !bytes.Equal(now, b) {
			t.Errorf("%s changed by a refused resume", f)
		}
	}
}

// TestBestCheckpointRepairedOnResume: on resume, a best.ckpt that is missing, truncated, of another
// run or of a later epoch (a kill between the two checkpoint writes) is rewritten from the best
// parameters last.ckpt holds; the run ends as an uninterrupted one and dw eval reads its best.
func TestBestCheckpointRepairedOnResume(t *testing.T) {
	cfg := quickCfg(t, "dw", 1)
	cache := t.TempDir()
	whole, err := Run(cfg, Options{RunsDir: t.TempDir(), DataCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	// A best.ckpt of another run with the same architecture, and one of a later epoch.
	fullOpt := Options{RunsDir: t.TempDir(), DataCache: cache}
	if _, err := Run(quickCfg(t, "full", 1), fullOpt); err != nil {
		t.Fatal(err)
	}
	fullDir, _ := fullOpt.Dir(quickCfg(t, "full", 1))
	foreign, _ := os.ReadFile(filepath.Join(fullDir, BestFile))
	later := Options{RunsDir: t.TempDir(), DataCache: cache, StopAfter: 2}
	if _, err := Run(cfg, later); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	laterDir, _ := later.Dir(cfg)
	stale, _ := os.ReadFile(filepath.Join(laterDir, BestFile))

	for _, tc := range []struct {
		name   string
		damage func(path string) error
	}{
		{"missing", os.Remove},
		{"truncated", func(p string) error { b, _ := os.ReadFile(p); return os.WriteFile(p, b[:len(b)/3], 0o644) }},
		{"another run's", func(p string) error { return os.WriteFile(p, foreign, 0o644) }},
		{"a later epoch's", func(p string) error { return os.WriteFile(p, stale, 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			opt := Options{RunsDir: t.TempDir(), DataCache: cache, StopAfter: 1, Log: &log}
			if _, err := Run(cfg, opt); !errors.Is(err, ErrStopped) {
				t.Fatal(err)
			}
			dir, _ := opt.Dir(cfg)
			if err := tc.damage(filepath.Join(dir, BestFile)); err != nil {
				t.Fatal(err)
			}
			opt.StopAfter, opt.Resume = 0, true
			r, err := Run(cfg, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(log.String(), "best.ckpt is not this run's best checkpoint") {
				t.Errorf("the rewrite was not logged:\n%s", log.String())
			}
			if r.Test.RelL2 != whole.Test.RelL2 || r.BestEpoch != whole.BestEpoch {
				t.Errorf("resumed run: test %v best epoch %d; uninterrupted %v, %d", r.Test.RelL2, r.BestEpoch, whole.Test.RelL2, whole.BestEpoch)
			}
			_, score, err := EvaluateRun(dir, 0, 0, opt)
			if err != nil || score.RelL2 != whole.Test.RelL2 {
				t.Errorf("EvaluateRun after the repair: %v, %v; want %v", score.RelL2, err, whole.Test.RelL2)
			}
		})
	}
}

// TestCheckpointOfAnotherRunRefused: the best checkpoint of one method, copied into another
// method's run directory (same architecture), is refused by EvaluateRun and LoadBest, naming both.
func TestCheckpointOfAnotherRunRefused(t *testing.T) {
	opt := quickOptions(t)
	full, dw := quickCfg(t, "full", 0), quickCfg(t, "dw", 0)
	for _, c := range []RunConfig{full, dw} {
		if _, err := Run(c, opt); err != nil {
			t.Fatal(err)
		}
	}
	fullDir, _ := opt.Dir(full)
	dwDir, _ := opt.Dir(dw)
	b, _ := os.ReadFile(filepath.Join(fullDir, BestFile))
	if err := os.WriteFile(filepath.Join(dwDir, BestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "belongs to run quick/mackey-glass/full-K8-s0, not to quick/mackey-glass/dw-K8-s0 (train.method: checkpoint \"full\", this run \"dw\""
	if _, _, err := EvaluateRun(dwDir, 0, 0, opt); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("EvaluateRun with Full's best.ckpt in a DW run: %v, want %q", err, want)
	}
	if _, _, err := LoadBest(dw, opt); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("LoadBest with Full's best.ckpt in a DW run: %v, want %q", err, want)
	}
}

// TestSeedsBeyond2To53: seeds 2^64-1 and 2^64-2 are different runs (float64 would make them one).
func TestSeedsBeyond2To53(t *testing.T) {
	a, b := quickCfg(t, "full", math.MaxUint64), quickCfg(t, "full", math.MaxUint64-1)
	if sameConfig(a, b) {
		t.Fatal("seeds 2^64-1 and 2^64-2 compare as one configuration")
	}
	opt := quickOptions(t)
	opt.StopAfter = 1
	if _, err := Run(a, opt); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	da, _ := opt.Dir(a)
	db, _ := opt.Dir(b)
	for _, f := range []string{CheckpointFile, BestFile} {
		raw, _ := os.ReadFile(filepath.Join(da, f))
		if err := os.MkdirAll(db, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(db, f), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opt.StopAfter, opt.Resume = 0, true
	_, err := Run(b, opt)
	if err == nil || !strings.Contains(err.Error(), "belongs to run quick/mackey-glass/full-K8-s18446744073709551615, not to quick/mackey-glass/full-K8-s18446744073709551614") {
		t.Errorf("resuming seed 2^64-2 from seed 2^64-1's checkpoint: %v", err)
	}
}

// TestETTDataFileInIdentity: an ETT run records its CSV's SHA-256; resuming it, or reading its
// result back, with another CSV is refused, naming both files.
func TestETTDataFileInIdentity(t *testing.T) {
	ettDir := t.TempDir()
	writeETT(t, ettDir, 0)
	cfg, err := Resolve(Quick, "ettm1", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{RunsDir: t.TempDir(), ETTDir: ettDir, StopAfter: 1}
	if _, err := Run(cfg, opt); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	writeETT(t, ettDir, 1)
	opt.StopAfter, opt.Resume = 0, true
	if _, err := Run(cfg, opt); err == nil || !strings.Contains(err.Error(), "last.ckpt was trained on ETTm1.csv.gz (SHA-256 ") || !strings.Contains(err.Error(), "but the data file now is ETTm1.csv.gz (SHA-256 ") {
		t.Fatalf("resume with another CSV: %v", err)
	}
	writeETT(t, ettDir, 0)
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatalf("resume with the original CSV: %v", err)
	}
	if len(r.DataFiles) != 1 || r.DataFiles[0].Name != "ETTm1.csv.gz" || len(r.DataFiles[0].SHA256) != 64 {
		t.Errorf("result data files %v", r.DataFiles)
	}
	writeETT(t, ettDir, 1)
	if _, err := Run(cfg, opt); err == nil || !strings.Contains(err.Error(), "result.json was computed from ETTm1.csv.gz") {
		t.Errorf("reading the result back with another CSV: %v", err)
	}
}

// TestReadConfigStrict: a -config file is taken literally, so absent fields, unknown or
// miscased names and zeros that would run as defaults are refused with the field named, and a
// meaningful zero (no weight decay) is kept.
func TestReadConfigStrict(t *testing.T) {
	cfg := quickCfg(t, "jreg", 2)
	set := func(path string, v any) func(map[string]any) {
		return func(m map[string]any) {
			keys := strings.Split(path, ".")
			for _, k := range keys[:len(keys)-1] {
				m = m[k].(map[string]any)
			}
			if v == nil {
				delete(m, keys[len(keys)-1])
			} else {
				m[keys[len(keys)-1]] = v
			}
		}
	}
	for _, tc := range []struct {
		name string
		edit func(map[string]any)
		want string // "" accepted
	}{
		{"as printed", func(map[string]any) {}, ""},
		{"no weight decay", set("train.weight_decay", 0), ""},
		{"absent learning rate", set("train.lr", nil), `field "train.lr" is absent`},
		{"absent data", set("data", nil), `field "data" is absent`},
		{"zero learning rate", set("train.lr", 0), `field "train.lr" is 0, which would run as the default 0.0001`},
		{"zero epochs", set("fit.epochs", 0), `field "fit.epochs" is 0, which would run as the default 100`},
		{"no method", set("train.method", ""), `field "train.method" is "", which would run as the default "full"`},
		{"absent JReg epsilon", set("train.jreg_eps", nil), `field "train.jreg_eps" is 0, which would run as the default 0.001`},
		{"zero model width", set("model.hidden", 0), `field "model.hidden" is 0, which would run as the default 128`},
		{"empty dtype", set("model.dtype", ""), `field "model.dtype" is empty`},
		{"miscased name", func(m map[string]any) { f := m["fit"].(map[string]any); f["Epochs"] = f["epochs"]; delete(f, "epochs") }, `unknown field "fit.Epochs"`},
		{"unknown field", set("fit.epoch", 3), `unknown field "fit.epoch"`},
		{"null section", func(m map[string]any) { m["train"] = nil }, `field "train" is null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.json")
			if err := os.WriteFile(path, editJSON(t, cfg.JSON(), tc.edit), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadConfig(path)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("ReadConfig: %v", err)
			case tc.want == "":
				want := cfg
				if tc.name == "no weight decay" {
					want.Train.WeightDecay = 0
				}
				if !sameConfig(got, want) {
					t.Errorf("read back\n%s\nwant\n%s", got.JSON(), want.JSON())
				}
			case err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path):
				t.Errorf("ReadConfig: %v, want an error naming the file and containing %q", err, tc.want)
			}
		})
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, append(cfg.JSON(), "{}"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadConfig(path); err == nil || !strings.Contains(err.Error(), "text after") {
		t.Errorf("a file with trailing text: %v", err)
	}
}

// TestValidateRefusesHugeSizes: sizes beyond the units are refused by name before ceil(1.5 K) or
// any sum of sizes is computed, however large.
func TestValidateRefusesHugeSizes(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*RunConfig)
		want string
	}{
		{"K = MaxInt", func(c *RunConfig) { c.Train.K = math.MaxInt }, "K = 9223372036854775807 is too long for mackey-glass: units have 96 steps"},
		{"K = MaxInt/2", func(c *RunConfig) { c.Train.K, c.HEval = math.MaxInt/2, math.MaxInt }, "K = 4611686018427387903 is too long"},
		{"test context", func(c *RunConfig) { c.EvalWindow = math.MaxInt }, "EvalWindow = 9223372036854775807 is too long"},
		{"data length", func(c *RunConfig) { c.Data.Length = math.MaxInt }, "data length 9223372036854775807 is too long"},
	} {
		c := quickCfg(t, "dw", 0)
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Resolve(Quick, "mackey-glass", "dw", 0, math.MaxInt); err == nil || !strings.Contains(err.Error(), "is too long") {
		t.Errorf("Resolve with K = MaxInt: %v", err)
	}
}

// TestSweepRefusesEmptyAndDuplicateJobs: an empty grid is an error, and so is a run listed twice.
func TestSweepRefusesEmptyAndDuplicateJobs(t *testing.T) {
	for _, tc := range []struct {
		name string
		jobs []Job
		want string
	}{
		{"empty", Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"dw"}}.Jobs(), "no runs"},
		{"seed twice", Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"dw"}, Seeds: []uint64{0, 0}}.Jobs(), "jobs 1 (mackey-glass dw s0) and 2 (mackey-glass dw s0) are the same run quick/mackey-glass/dw-K8-s0"},
		{"the profile's K given", []Job{{Testbed: "mackey-glass", Method: "dw"}, {Testbed: "mackey-glass", Method: "dw", K: 8}}, "are the same run quick/mackey-glass/dw-K8-s0"},
	} {
		opt := quickOptions(t)
		if _, err := Sweep(Quick, tc.jobs, opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Sweep = %v, want an error containing %q", tc.name, err, tc.want)
		}
		if e := dirEntries(t, opt.RunsDir); len(e) > 0 {
			t.Errorf("%s: a refused sweep wrote %v", tc.name, e)
		}
	}
}

// cancelAt is a Log that cancels a context at the first line of the given epoch.
type cancelAt struct {
	epoch  int
	cancel context.CancelFunc
}

func (c cancelAt) Write(p []byte) (int, error) {
	if strings.Contains(string(p), fmt.Sprintf(": epoch %d/", c.epoch)) {
		c.cancel()
	}
	return len(p), nil
}

// TestInterruptAndResume: an interruption (what SIGINT does in dw) stops the run with the last
// finished epoch named; its checkpoint resumes to the numbers of an uninterrupted run. A sweep
// stops at the interrupted run.
func TestInterruptAndResume(t *testing.T) {
	cfg := quickCfg(t, "dw", 1)
	cache := t.TempDir()
	whole, err := Run(cfg, Options{RunsDir: t.TempDir(), DataCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{RunsDir: t.TempDir(), DataCache: cache, Context: ctx, Log: cancelAt{1, cancel}}
	_, err = Run(cfg, opt)
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Epoch != 1 || !strings.Contains(err.Error(), "quick/mackey-glass/dw-K8-s1 interrupted after epoch 1; resume to continue") {
		t.Fatalf("interrupted run: %v", err)
	}
	opt.Context, opt.Log, opt.Resume = nil, nil, true
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.ResumedAt != 1 || r.Test.RelL2 != whole.Test.RelL2 {
		t.Errorf("resumed at %d with test %v; uninterrupted %v", r.ResumedAt, r.Test.RelL2, whole.Test.RelL2)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	jobs := Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0}}.Jobs()
	outs, err := Sweep(Quick, jobs, Options{RunsDir: t.TempDir(), DataCache: cache, Context: ctx, Log: cancelAt{1, cancel}})
	if !errors.Is(err, ErrInterrupted) || len(outs) != 1 {
		t.Errorf("interrupted sweep: %d outcomes, %v", len(outs), err)
	}
}

// TestDivergenceNamedInEveryMethod: a learning rate far too large makes every method diverge, and
// the error says so, with the epoch and the learning rate, never as a calibration failure.
func TestDivergenceNamedInEveryMethod(t *testing.T) {
	for _, method := range Methods() {
		t.Run(method, func(t *testing.T) {
			cfg := quickCfg(t, method, 0)
			cfg.Train.LR = 1e30
			opt := quickOptions(t)
			_, err := Run(cfg, opt)
			if !errors.Is(err, train.ErrDiverged) {
				t.Fatalf("Run at lr 1e30: %v, want a divergence", err)
			}
			for _, want := range []string{"diverged at epoch 1 (", "try a smaller learning rate than lr = 1e+30"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "calib:") {
				t.Errorf("divergence reported as a calibration failure: %v", err)
			}
		})
	}
}

// TestKillAtRandomPoints: a run killed (SIGKILL) at random moments, writing checkpoints or not,
// and resumed each time, ends with exactly the numbers of an uninterrupted run.
func TestKillAtRandomPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("starts several processes")
	}
	cfg := quickCfg(t, "dw", 3)
	cfg.Fit.Epochs = 6
	cache := t.TempDir()
	whole, err := Run(cfg, Options{RunsDir: t.TempDir(), DataCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	runs, cfgPath := t.TempDir(), writeConfigFile(t, cfg)
	rng := rand.New(rand.NewPCG(13, 1))
	env := []string{"DW_TEST_HELPER=run", "DW_TEST_CONFIG=" + cfgPath, "DW_TEST_RUNS=" + runs, "DW_TEST_CACHE=" + cache}
	deadline := time.Now().Add(2 * time.Minute)
	for kill := 0; kill < 4 && time.Now().Before(deadline); kill++ {
		cmd, _, lines := helper(t, env...)
		// Wait for the helper's first epoch line, then kill it within the next epoch or two.
		line, ok := "", true
		for ok && !strings.Contains(line, ": epoch ") {
			if line, ok = <-lines; ok {
				t.Logf("helper %d: %s", kill, line)
			}
		}
		if !ok {
			cmd.Wait()
			t.Logf("helper %d finished the run", kill)
			break
		}
		delay := time.Duration(rng.IntN(400)) * time.Millisecond
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		t.Logf("killed helper %d %v after that line", kill, delay)
	}
	r, err := Run(cfg, Options{RunsDir: runs, DataCache: cache, Resume: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if r.Test.RelL2 != whole.Test.RelL2 || r.BestEpoch != whole.BestEpoch || len(r.Epochs) != len(whole.Epochs) {
		t.Fatalf("after kills: test %v, best epoch %d, %d epochs; uninterrupted %v, %d, %d",
			r.Test.RelL2, r.BestEpoch, len(r.Epochs), whole.Test.RelL2, whole.BestEpoch, len(whole.Epochs))
	}
	for i := range whole.Epochs {
		if whole.Epochs[i].ValLoss != r.Epochs[i].ValLoss || whole.Epochs[i].TrainLoss != r.Epochs[i].TrainLoss {
			t.Errorf("epoch %d: %v/%v after kills, %v/%v uninterrupted", i+1, r.Epochs[i].TrainLoss, r.Epochs[i].ValLoss, whole.Epochs[i].TrainLoss, whole.Epochs[i].ValLoss)
		}
	}
	dir, _ := Options{RunsDir: runs}.Dir(cfg)
	for _, e := range dirEntries(t, dir) {
		if strings.Contains(e, "tmp") {
			t.Errorf("temporary file left by a killed run: %s", e)
		}
	}
}

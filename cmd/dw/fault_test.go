package main

// The command line's part of the fault suite of issue 13 (dwlib/experiment/fault_test.go has the
// library's): contradictory flags, exit codes, signals, and checks that run before anything is
// loaded or written. Tests that need a real process run this test binary as dw (DW_RUN_MAIN=1).

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/train"
)

func TestMain(m *testing.M) {
	if os.Getenv("DW_RUN_MAIN") == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// dwProcess starts this test binary as "dw args..." with extra environment.
func dwProcess(t *testing.T, env []string, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "DW_RUN_MAIN=1"), env...)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, bufio.NewScanner(errPipe)
}

// quickConfigFile writes the quick Mackey–Glass Full configuration with edits as a -config file.
func quickConfigFile(t *testing.T, edit func(*experiment.RunConfig)) string {
	t.Helper()
	c, err := experiment.Resolve(experiment.Quick, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	edit(&c)
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, c.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConflictingFlagsRefused: flags that contradict each other, or that a -config file would
// silently override, are refused as usage errors before anything is written.
func TestConflictingFlagsRefused(t *testing.T) {
	runs := t.TempDir()
	cfg := quickConfigFile(t, func(*experiment.RunConfig) {})
	train := []string{"train", "-testbed", "mackey-glass", "-method", "dw", "-runs", runs}
	grid := []string{"sweep", "-testbeds", "mackey-glass", "-methods", "dw", "-runs", runs}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-config", cfg, "-K", "16", "-seed", "3", "-runs", runs}, "-config replaces -testbed/-data/-method/-seed/-K/-profile, but -K, -seed given too"},
		{[]string{"train", "-config", cfg, "-profile", "quick", "-runs", runs}, "but -profile given too"},
		{[]string{"train", "-config", cfg, "-testbed", "narma5", "-runs", runs}, "but -testbed given too"},
		{[]string{"config", "-config", cfg, "-method", "dw"}, "but -method given too"},
		{append(train, "-resume", "-force"), "-resume continues a run's checkpoint and -force discards it"},
		{append(grid, "-resume", "-force"), "-resume continues a run's checkpoint and -force discards it"},
		{append(train, "-stop-after", "-3"), "-stop-after -3: must be >= 1"},
		{append(grid, "-seeds", "0,0"), "-seeds: seed 0 is given twice"},
		{append(grid, "-seeds", ""), "-seeds is empty"},
		{append(grid, "-K", "8,8"), "-K: 8 is given twice"},
		{[]string{"sweep", "-testbeds", ",", "-methods", "dw", "-runs", runs}, "the grid is empty"},
		{[]string{"table", "-testbeds", "mackey-glass", "-methods", " ", "-runs", runs}, "the grid is empty"},
	} {
		_, err := dw(t, tc.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("dw %q: %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	if e, _ := os.ReadDir(runs); len(e) != 0 {
		t.Errorf("refused commands wrote %d entries under -runs", len(e))
	}
}

// TestStopAfterExitCode: -stop-after ends with its own exit code (75, EX_TEMPFAIL), distinct from failures.
func TestStopAfterExitCode(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	cfg := quickConfigFile(t, func(c *experiment.RunConfig) { c.Fit.Epochs = 3 })
	_, err := dw(t, "train", "-config", cfg, "-runs", runs, "-cache", cache, "-stop-after", "1")
	if !errors.Is(err, experiment.ErrStopped) || exitCode(err) != exitStopped {
		t.Errorf("-stop-after 1: %v, exit code %d, want %d", err, exitCode(err), exitStopped)
	}
	if _, err := dw(t, "train", "-config", cfg, "-runs", runs, "-cache", cache, "-resume"); err != nil || exitCode(err) != 0 {
		t.Errorf("-resume after -stop-after: %v", err)
	}
}

// TestDivergenceHint: a diverging run names the epoch and how to lower the learning rate.
func TestDivergenceHint(t *testing.T) {
	cfg := quickConfigFile(t, func(c *experiment.RunConfig) { c.Train.LR = 1e30 })
	_, err := dw(t, "train", "-config", cfg, "-runs", t.TempDir(), "-cache", t.TempDir())
	for _, want := range []string{"diverged at epoch 1 (", "try a smaller learning rate than lr = 1e+30",
		"dw config -profile quick -testbed mackey-glass -method full -seed 0 -K 8 > run.json"} {
		if !errors.Is(err, train.ErrDiverged) || !strings.Contains(err.Error(), want) {
			t.Errorf("diverging run: %v, want %q", err, want)
		}
	}
}

// TestBackendCheckedFirst: a backend that cannot start is reported before any data is generated
// or any directory is made.
func TestBackendCheckedFirst(t *testing.T) {
	runs, cache := t.TempDir(), t.TempDir()
	cmd, stderr := dwProcess(t, []string{"GOMLX_BACKEND=nosuchbackend"}, "train", "-profile", "quick", "-testbed", "mackey-glass", "-method", "full", "-runs", runs, "-cache", cache)
	var out []string
	for stderr.Scan() {
		out = append(out, stderr.Text())
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(strings.Join(out, "\n"), "backend") {
		t.Fatalf("dw train on a bad backend: %v\n%s", err, strings.Join(out, "\n"))
	}
	for _, d := range []string{runs, cache} {
		if e, _ := os.ReadDir(d); len(e) != 0 {
			t.Errorf("%s has %d entries after a refused backend", d, len(e))
		}
	}
}

var interruptedAt = regexp.MustCompile(`dw: interrupted after epoch (\d+) of quick/mackey-glass/full-K8-s0 \(its checkpoint is kept\); -resume continues`)

// TestSignalStopsTrain: SIGINT and SIGTERM stop dw train between minibatches with exit code 130
// and a message naming the last finished epoch, whose checkpoint -resume continues.
func TestSignalStopsTrain(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			runs, cache := t.TempDir(), t.TempDir()
			cfg := quickConfigFile(t, func(c *experiment.RunConfig) { c.Fit.Epochs, c.Fit.Patience = 1000, 1000 })
			cmd, stderr := dwProcess(t, nil, "train", "-config", cfg, "-runs", runs, "-cache", cache)
			var log []string
			deadline := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
			defer deadline.Stop()
			for stderr.Scan() {
				log = append(log, stderr.Text())
				if strings.Contains(stderr.Text(), ": epoch 2/1000") {
					break
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			for stderr.Scan() {
				log = append(log, stderr.Text())
			}
			err := cmd.Wait()
			all := strings.Join(log, "\n")
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("dw train after %v: %v, want exit code 130\n%s", sig, err, all)
			}
			m := interruptedAt.FindStringSubmatch(all)
			if m == nil {
				t.Fatalf("no interruption message in\n%s", all)
			}
			dir := filepath.Join(runs, "quick", "mackey-glass", "full-K8-s0")
			info, err := train.Inspect(filepath.Join(dir, experiment.CheckpointFile))
			if err != nil {
				t.Fatal(err)
			}
			if m[1] != strconv.Itoa(info.Epoch) || info.Epoch < 2 {
				t.Errorf("last.ckpt holds epoch %d; the message says %s", info.Epoch, m[1])
			}
			if _, err := os.Stat(filepath.Join(dir, experiment.LockFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock file after the interruption: %v", err)
			}
		})
	}
}

// TestCPUProfile: $DW_CPUPROFILE writes a CPU profile of the whole command (a gzip-compressed
// pprof protobuf), and a profile file that cannot be created fails the command, naming it.
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dw.prof")
	cmd, logs := dwProcess(t, []string{cpuProfileEnv + "=" + path}, "train", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-runs", t.TempDir(), "-cache", t.TempDir())
	for logs.Scan() { // drain stderr: the process must not block on a full pipe
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("dw train with a CPU profile: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile %s: %d bytes, %v; want a gzip-compressed pprof profile", path, len(b), err)
	}
	bad := filepath.Join(t.TempDir(), "missing", "dw.prof")
	cmd, lines := dwProcess(t, []string{cpuProfileEnv + "=" + bad}, "list")
	var said strings.Builder
	for lines.Scan() {
		said.WriteString(lines.Text())
	}
	if err := cmd.Wait(); err == nil || !strings.Contains(said.String(), bad) {
		t.Errorf("unwritable profile: %v, stderr %q; want a failure naming %s", err, said.String(), bad)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// slurmRoundLimit bounds one submission of the test's array (four quick runs, two at once, on a
// 2-core machine: about 10 s, most of it sbatch --wait's polling).
const slurmRoundLimit = 4 * time.Minute

// TestSlurmSweepEndToEnd submits a quick-profile sweep written by dw sweep -slurm to a real Slurm
// and checks that the table collected from its runs equals the local sweep's, and that every run's
// numbers equal the local run's bit for bit. The tasks stop after one of their two epochs, so the
// array goes through the stop/resubmit/resume cycle the documentation describes: the first
// submission ends with exit status 75 in every task, the second finishes them.
//
// It needs a running Slurm on this machine (bash scripts/slurm-setup.sh) and runs only with
// DW_SLURM=1, which scripts/test.sh sets once the setup has succeeded.
func TestSlurmSweepEndToEnd(t *testing.T) {
	if os.Getenv("DW_SLURM") != "1" {
		t.Skip("Slurm end-to-end test skipped: set DW_SLURM=1 with a Slurm running here (bash scripts/slurm-setup.sh starts one; scripts/test.sh does both)")
	}
	for _, c := range []string{"sbatch", "squeue", "scancel"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("DW_SLURM=1 but %s is missing: %v (run bash scripts/slurm-setup.sh)", c, err)
		}
	}
	start := time.Now()
	work := t.TempDir()
	bin := filepath.Join(work, "dw")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building dw: %v\n%s", err, out)
	}
	runs, local, cache := filepath.Join(work, "runs-slurm"), filepath.Join(work, "runs-local"), filepath.Join(work, "cache")
	sweepDir := filepath.Join(work, "sweep")
	grid := []string{"-profile", "quick", "-testbeds", "mackey-glass", "-methods", "full,dw", "-seeds", "0,1"}

	written, err := exec.Command(bin, append(append([]string{"sweep", "-slurm", sweepDir}, grid...),
		"-runs", runs, "-cache", cache, "-slurm-cpus", "1", "-slurm-mem", "1G", "-slurm-time", "10",
		"-slurm-stop-after", "1", "-slurm-max-running", "2")...).CombinedOutput()
	if err != nil {
		t.Fatalf("dw sweep -slurm: %v\n%s", err, written)
	}
	script := filepath.Join(sweepDir, "sweep.sbatch")
	collect := printedCommand(t, string(written), "collect the table")

	for round, want := range []struct {
		code int
		log  string
	}{{exitStopped, "stopped early (exit 75)"}, {0, "slurm task %s: done"}} {
		id, code := sbatchWait(t, script)
		logs, _ := filepath.Glob(filepath.Join(sweepDir, "logs", id+"_*.out"))
		if code != want.code || len(logs) != 4 {
			t.Fatalf("round %d (job %s): sbatch --wait exit %d, want %d; %d logs, want 4\n%s", round+1, id, code, want.code, len(logs), tails(logs))
		}
		for _, l := range logs {
			task := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(l), id+"_"), ".out")
			b, _ := os.ReadFile(l)
			if !strings.Contains(string(b), strings.Replace(want.log, "%s", task, 1)) {
				t.Errorf("round %d: log %s lacks %q:\n%s", round+1, l, want.log, b)
			}
		}
	}

	table, err := exec.Command(collect[0], collect[1:]...).Output()
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(collect, " "), err)
	}
	sweep, err := dw(t, append([]string{"sweep"}, append(grid, "-runs", local, "-cache", cache)...)...)
	if err != nil {
		t.Fatalf("local sweep: %v\n%s", err, sweep)
	}
	got, want := withoutTimings(string(table)), withoutTimings(sweep)
	if rest, ok := strings.CutPrefix(want, got); !ok || !strings.HasPrefix(rest, "\n4 runs (quick profile") {
		t.Errorf("the table of the Slurm runs differs from the local sweep's:\n%s\nvs\n%s", got, want)
	}
	cfgs, err := experiment.ResolveJobs(experiment.Quick, experiment.Grid{Testbeds: []string{"mackey-glass"},
		Methods: []string{"full", "dw"}, Seeds: []uint64{0, 1}}.Jobs())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		a, b := numbers(t, runs, c), numbers(t, local, c)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the Slurm run's result differs from the local run's:\n%s\nvs\n%s", c.Name(), a, b)
		}
	}
	t.Logf("Slurm end-to-end (build, two array rounds, collect, local sweep): %s", time.Since(start).Round(time.Second))
}

// sbatchWait submits the script, waits for the whole array and returns its job id and sbatch's exit
// status (the highest of the tasks'). Past slurmRoundLimit it cancels the array and fails.
func sbatchWait(t *testing.T, script string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), slurmRoundLimit)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, "sbatch", "--wait", "--parsable", script)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	if ctx.Err() != nil {
		queue, _ := exec.Command("squeue", "-a").CombinedOutput()
		if id != "" {
			exec.Command("scancel", id).Run()
		}
		t.Fatalf("array %q not finished after %s (cancelled); squeue:\n%s", id, slurmRoundLimit, queue)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if id == "" {
			t.Fatalf("sbatch: %v\n%s", err, errOut.String())
		}
		return id, ee.ExitCode()
	case err != nil:
		t.Fatalf("sbatch: %v\n%s", err, errOut.String())
	}
	return id, 0
}

// printedCommand is the indented command line printed after the line starting with heading.
func printedCommand(t *testing.T, out, heading string) []string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, heading) && i+1 < len(lines) {
			return strings.Fields(lines[i+1])
		}
	}
	t.Fatalf("no %q in:\n%s", heading, out)
	return nil
}

// numbers is a run's result.json without what depends on the machine's speed or on how the run
// was split over processes: timings and the epoch it resumed at.
func numbers(t *testing.T, runs string, c experiment.RunConfig) []byte {
	t.Helper()
	r, err := experiment.ReadResult(filepath.Join(runs, filepath.FromSlash(c.Name()), experiment.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	// The timings differ between the two runs, and so does the checksum over them.
	r.SecondsPerEpoch, r.WallSeconds, r.ResumedAt, r.Checksum = 0, 0, 0, ""
	for i := range r.Epochs {
		r.Epochs[i].TrainSeconds, r.Epochs[i].ValSeconds = 0, 0
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withoutTimings blanks the s/epoch column of every Markdown table in s.
func withoutTimings(s string) string {
	lines := strings.Split(s, "\n")
	col := -1
	for i, l := range lines {
		cells := strings.Split(l, "|")
		switch {
		case !strings.HasPrefix(l, "|"):
			col = -1
		case col < 0:
			for j, c := range cells {
				if strings.TrimSpace(c) == "s/epoch" {
					col = j
				}
			}
		case col < len(cells):
			cells[col] = " s "
			lines[i] = strings.Join(cells, "|")
		}
	}
	return strings.Join(lines, "\n")
}

func tails(logs []string) string {
	var b strings.Builder
	for _, l := range logs {
		s, _ := os.ReadFile(l)
		lines := strings.Split(strings.TrimSpace(string(s)), "\n")
		b.WriteString("--- " + l + "\n" + strings.Join(lines[max(0, len(lines)-5):], "\n") + "\n")
	}
	return b.String()
}

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
)

// fakeExecutable makes the written scripts run /opt/dw/bin/dw instead of the test binary.
func fakeExecutable(t *testing.T, path string) {
	t.Helper()
	old := executable
	executable = func() (string, error) { return path, nil }
	t.Cleanup(func() { executable = old })
}

// TestSweepSlurmWrites: dw sweep -slurm writes the script and the job list of the grid, with the
// resources, paths and backend of the command line, prints how to submit and collect, and runs
// nothing.
func TestSweepSlurmWrites(t *testing.T) {
	fakeExecutable(t, "/opt/dw/bin/dw")
	dir, runs, cache, ett := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for _, tc := range []struct {
		name        string
		backend     string // "-": unset
		args        []string
		jobs        []string // lines of jobs.txt
		want, not   []string // in the script
		wantOut     []string // on stdout
		tableSuffix string
	}{
		{
			name: "grid", backend: "go:ops_sequential",
			args: []string{"-testbeds", "mackey-glass,narma5", "-methods", "full,dw", "-seeds", "0,1", "-K", "8",
				"-slurm-time", "30", "-slurm-cpus", "1", "-slurm-mem", "1G", "-slurm-max-running", "3", "-slurm-stop-after", "5",
				"-slurm-partition", "short", "-slurm-gpus", "1", "-slurm-extra", "--account=proj", "-slurm-extra=--qos=long", "-baselines=false"},
			jobs: []string{
				"-profile quick -testbed mackey-glass -method full -seed 0 -K 8",
				"-profile quick -testbed mackey-glass -method full -seed 1 -K 8",
				"-profile quick -testbed mackey-glass -method dw -seed 0 -K 8",
				"-profile quick -testbed mackey-glass -method dw -seed 1 -K 8",
				"-profile quick -testbed narma5 -method full -seed 0 -K 8",
				"-profile quick -testbed narma5 -method full -seed 1 -K 8",
				"-profile quick -testbed narma5 -method dw -seed 0 -K 8",
				"-profile quick -testbed narma5 -method dw -seed 1 -K 8",
			},
			want: []string{
				"#SBATCH --job-name=dw-quick\n", "#SBATCH --array=0-7%3\n", "#SBATCH --output=" + dir + "/logs/%A_%a.out\n",
				"#SBATCH --time=30\n", "#SBATCH --cpus-per-task=1\n", "#SBATCH --mem=1G\n", "#SBATCH --partition=short\n",
				"#SBATCH --gpus=1\n", "#SBATCH --account=proj\n", "#SBATCH --qos=long\n",
				"export GOMLX_BACKEND=go:ops_sequential\n", `export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"`,
				"COMMAND=(/opt/dw/bin/dw train)\n",
				"TRAILING=(-runs " + runs + " -cache " + cache + " -ett " + ett + " -resume -stop-after 5)\n",
				"  75) echo",
			},
			wantOut: []string{
				"wrote a Slurm job array of 8 runs (quick profile, at most 3 at once)",
				"submit:\n  sbatch " + dir + "/sweep.sbatch\n",
				"each task stops after 5 epochs with exit status 75",
				"sbatch --dependency=afterany:<job id> " + dir + "/sweep.sbatch",
				"  /opt/dw/bin/dw table -profile quick -testbeds mackey-glass,narma5 -methods full,dw -seeds 0,1 -K 8 -runs " + runs +
					" -cache " + cache + " -ett " + ett + " -baselines=false\n",
			},
		},
		{
			name: "preset with defaults", backend: "-",
			args: []string{"-preset", "known-snr", "-slurm-name", "ksnr"},
			want: []string{
				"#SBATCH --job-name=ksnr\n", "#SBATCH --array=0-14\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --mem=4G\n",
				"unset GOMLX_BACKEND\n", "TRAILING=(-runs " + runs + " -cache " + cache + " -ett " + ett + " -resume)\n",
			},
			not:     []string{"--time", "--partition", "--gpus", "-stop-after"},
			wantOut: []string{"/opt/dw/bin/dw table -profile quick -preset known-snr -runs ", "hits its time limit keeps its last epoch's checkpoint"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.backend == "-" {
				old, had := os.LookupEnv(backend.EnvVar)
				os.Unsetenv(backend.EnvVar)
				if had {
					t.Cleanup(func() { os.Setenv(backend.EnvVar, old) })
				}
			} else {
				t.Setenv(backend.EnvVar, tc.backend)
			}
			d := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			for i, w := range tc.want {
				tc.want[i] = strings.ReplaceAll(w, dir+"/logs", d+"/logs")
			}
			for i, w := range tc.wantOut {
				tc.wantOut[i] = strings.ReplaceAll(w, dir+"/sweep", d+"/sweep")
			}
			args := append([]string{"sweep", "-profile", "quick", "-slurm", d, "-runs", runs, "-cache", cache, "-ett", ett}, tc.args...)
			out, err := dw(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			b, err := os.ReadFile(filepath.Join(d, "sweep.sbatch"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("script lacks %q:\n%s", w, b)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(string(b), n) {
					t.Errorf("script has %q:\n%s", n, b)
				}
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			list, err := os.ReadFile(filepath.Join(d, "jobs.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.jobs != nil && string(list) != strings.Join(tc.jobs, "\n")+"\n" {
				t.Errorf("jobs.txt:\n%s\nwant:\n%s", list, strings.Join(tc.jobs, "\n"))
			}
		})
	}
	if entries, _ := os.ReadDir(runs); len(entries) != 0 {
		t.Errorf("-slurm ran something: %d entries in the runs directory", len(entries))
	}
}

// TestSweepSlurmResolvesPaths: relative -slurm and -runs become absolute, since the tasks start
// wherever sbatch was called.
func TestSweepSlurmResolvesPaths(t *testing.T) {
	fakeExecutable(t, "/opt/dw/bin/dw")
	t.Chdir(t.TempDir())
	wd, _ := os.Getwd()
	out, err := dw(t, "sweep", "-profile", "quick", "-testbeds", "narma5", "-methods", "dw", "-seeds", "0", "-slurm", "sw", "-runs", "r", "-cache", "c")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(wd, "sw", "sweep.sbatch"))
	for _, w := range []string{"#SBATCH --output=" + wd + "/sw/logs/%A_%a.out", "TRAILING=(-runs " + wd + "/r -cache " + wd + "/c ", "TASKS=" + wd + "/sw/jobs.txt"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("script lacks %q:\n%s", w, b)
		}
	}
	// Another grid into the same directory would change what a submitted array's tasks run.
	if _, err := dw(t, "sweep", "-profile", "quick", "-testbeds", "narma5", "-methods", "full", "-seeds", "0", "-slurm", "sw", "-runs", "r", "-cache", "c"); err == nil || !strings.Contains(err.Error(), "lists other tasks") {
		t.Errorf("another grid into the same -slurm directory: %v", err)
	}
}

// TestSweepSlurmRefuses: bad -slurm-* values and flags that mean nothing for a job array are usage
// errors that name the flag and the value.
func TestSweepSlurmRefuses(t *testing.T) {
	fakeExecutable(t, "/opt/dw/bin/dw")
	dir, runs := t.TempDir(), t.TempDir()
	grid := []string{"sweep", "-profile", "quick", "-testbeds", "mackey-glass", "-methods", "dw", "-runs", runs, "-slurm", filepath.Join(dir, "sw")}
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"-slurm-time", "2h"}, `-slurm-time: "2h" is not a Slurm time limit`, true},
		{[]string{"-slurm-mem", "4GB"}, `-slurm-mem: "4GB" is not a memory size`, true},
		{[]string{"-slurm-gpus", "h100:0"}, `-slurm-gpus: "h100:0" is not a GPU request`, true},
		{[]string{"-slurm-partition", "a;b"}, `-slurm-partition: "a;b"`, true},
		{[]string{"-slurm-name", "my job"}, `-slurm-name: "my job"`, true},
		{[]string{"-slurm-extra", "account=proj"}, `-slurm-extra: "account=proj" is not an sbatch option`, true},
		{[]string{"-slurm-cpus", "0"}, "-slurm-cpus 0: must be >= 1", true},
		{[]string{"-slurm-max-running", "-1"}, "-slurm-max-running -1", true},
		{[]string{"-slurm-stop-after", "-2"}, "-slurm-stop-after -2", true},
		{[]string{"-archive-each"}, "-archive-each does not apply", true},
		{[]string{"-force"}, "-force does not apply", true},
		{[]string{"-jobs", "2"}, "-jobs does not apply", true},
		{[]string{"-plan"}, "-plan does not apply", true},
		{[]string{"-save"}, "-save does not apply", true},
		{[]string{"-slurm", filepath.Join(dir, "my sweep")}, "holds a space", true},
		{[]string{"-slurm", filepath.Join(dir, "100%")}, "-slurm:", true},
		{[]string{"-methods", "dw,magic"}, `unknown method "magic"`, true},
	} {
		_, err := dw(t, append(grid, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.args, err, tc.want)
			continue
		}
		var ue usageError
		if errors.As(err, &ue) != tc.usage {
			t.Errorf("%v: usage error = %v, want %v", tc.args, !tc.usage, tc.usage)
		}
	}
	// Without -slurm the sweep would run here and ignore them.
	if _, err := dw(t, "sweep", "-profile", "quick", "-preset", "table", "-runs", runs, "-slurm-time", "30", "-slurm-cpus", "1"); err == nil ||
		!strings.Contains(err.Error(), "-slurm-cpus, -slurm-time: only with -slurm DIR") {
		t.Errorf("-slurm-* without -slurm: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sw")); !os.IsNotExist(err) {
		t.Errorf("refused commands wrote the -slurm directory: %v", err)
	}
	// A `go run` build is deleted when go run exits, long before the tasks start.
	fakeExecutable(t, "/tmp/go-build1234/b001/exe/dw")
	if _, err := dw(t, grid...); err == nil || !strings.Contains(err.Error(), "temporary `go run` build") {
		t.Errorf("go run binary: %v", err)
	}
}

// TestStoppedExitCode: a run that -stop-after ends early exits with 75, apart from failures (1).
func TestStoppedExitCode(t *testing.T) {
	_, err := dw(t, "train", "-profile", "quick", "-testbed", "narma5", "-method", "full", "-runs", t.TempDir(), "-cache", t.TempDir(), "-stop-after", "1")
	if got := exitCode(err); got != exitStopped || exitStopped != 75 {
		t.Errorf("stopped run: exit code %d (error %v), want 75", got, err)
	}
}

package slurm

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func base(tasks int) Array {
	a := Array{Name: "dw-quick", Dir: "/scratch/sweep", Command: []string{"/opt/dw/bin/dw", "train"}}
	for i := range tasks {
		a.Tasks = append(a.Tasks, []string{"-seed", string(rune('0' + i))})
	}
	return a
}

// TestScript checks the key lines of generated scripts: the array range and its limit, the
// resources, the environment, the command and the stopped-early branch.
func TestScript(t *testing.T) {
	for _, tc := range []struct {
		name      string
		edit      func(*Array)
		want, not []string
	}{
		{"defaults", func(*Array) {}, []string{
			"#!/bin/bash\n",
			"#SBATCH --job-name=dw-quick\n",
			"#SBATCH --array=0-2\n",
			"#SBATCH --output=/scratch/sweep/logs/%A_%a.out\n",
			`export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"`,
			"COMMAND=(/opt/dw/bin/dw train)\n",
			"TRAILING=()\n",
			"TASKS=/scratch/sweep/jobs.txt\n",
			`line="$(sed -n "$((task + 1))p" "$TASKS")"`,
			`"${COMMAND[@]}" "${args[@]}" "${TRAILING[@]}"`,
			"exit $rc\n",
		}, []string{"--time", "--cpus-per-task", "--mem", "--partition", "--gpus", "stopped early"}},
		{"resources", func(a *Array) {
			a.MaxRunning = 2
			a.Resources = Resources{Time: "1-12:00:00", CPUs: 4, Mem: "8G", Partition: "cpu,short", GPUs: "h100:1",
				Extra: []string{"--account=proj", "#SBATCH --qos=long"}}
		}, []string{
			"#SBATCH --array=0-2%2\n", "#SBATCH --time=1-12:00:00\n", "#SBATCH --cpus-per-task=4\n", "#SBATCH --mem=8G\n",
			"#SBATCH --partition=cpu,short\n", "#SBATCH --gpus=h100:1\n", "#SBATCH --account=proj\n", "#SBATCH --qos=long\n",
			`export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-4}"`,
		}, []string{"#SBATCH #SBATCH"}},
		{"environment", func(a *Array) {
			a.Env = []string{"GOMLX_BACKEND=go:ops_sequential", "XLA_FLAGS=--a --b", "OLD", "GOMAXPROCS=3"}
		}, []string{
			"export GOMLX_BACKEND=go:ops_sequential\n", "export XLA_FLAGS='--a --b'\n", "unset OLD\n", "export GOMAXPROCS=3\n",
		}, []string{"SLURM_CPUS_PER_TASK:-"}},
		{"stopped code and quoted paths", func(a *Array) {
			a.StoppedCode = 75
			a.Command = []string{"/opt/my dw/dw", "train"}
			a.Trailing = []string{"-runs", "/data/it's runs", "-resume"}
			a.Comment = []string{"first line", "second line"}
		}, []string{
			"#!/bin/bash\n# first line\n# second line\n#SBATCH --job-name",
			"COMMAND=('/opt/my dw/dw' train)\n",
			`TRAILING=(-runs '/data/it'\''s runs' -resume)`,
			"  75) echo \"slurm task $task: stopped early (exit 75); submit again to continue: sbatch --array=$task /scratch/sweep/sweep.sbatch\" ;;",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := base(3)
			tc.edit(&a)
			s, err := a.Script()
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("script lacks %q:\n%s", w, s)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("script has %q:\n%s", n, s)
				}
			}
			// sbatch stops reading #SBATCH lines at the first command.
			seenCommand := false
			for _, l := range strings.Split(s, "\n") {
				switch {
				case strings.HasPrefix(l, "#SBATCH") && seenCommand:
					t.Errorf("#SBATCH line after the first command: %q", l)
				case l != "" && !strings.HasPrefix(l, "#"):
					seenCommand = true
				}
			}
		})
	}
}

func TestValidateRefuses(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Array)
		want string
	}{
		{func(a *Array) { a.Command = []string{"dw", "train"} }, "must be an absolute path"},
		{func(a *Array) { a.Command = nil }, "must be an absolute path"},
		{func(a *Array) { a.Tasks = nil }, "no tasks"},
		{func(a *Array) { a.Tasks[1] = []string{"-testbed", "mackey glass"} }, `task 1: argument "mackey glass"`},
		{func(a *Array) { a.Tasks[2] = nil }, "task 2 has no arguments"},
		{func(a *Array) { a.Dir = "/scratch/100%" }, "--output directory"},
		{func(a *Array) { a.Dir = "/scratch/my sweep" }, "holds a space"},
		{func(a *Array) { a.Dir = "sweep" }, "not an absolute path"},
		{func(a *Array) { a.Time = "2h" }, `--time "2h" is not a Slurm time limit`},
		{func(a *Array) { a.Mem = "4GB" }, `--mem "4GB" is not a memory size`},
		{func(a *Array) { a.GPUs = "0" }, `--gpus "0" is not a GPU request`},
		{func(a *Array) { a.Partition = "a b" }, `--partition "a b"`},
		{func(a *Array) { a.Name = "my job" }, `--job-name "my job"`},
		{func(a *Array) { a.Extra = []string{"account=proj"} }, `extra option "account=proj" is not an sbatch option`},
		{func(a *Array) { a.CPUs = -1 }, "--cpus-per-task -1"},
		{func(a *Array) { a.MaxRunning = -2 }, "array limit -2"},
		{func(a *Array) { a.Env = []string{"1X=2"} }, `environment entry "1X=2"`},
	} {
		a := base(3)
		tc.edit(&a)
		if _, err := a.Script(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", a, err, tc.want)
		}
	}
}

func TestChecksAccept(t *testing.T) {
	for _, tc := range []struct {
		check  func(string) error
		values []string
	}{
		{CheckTime, []string{"", "30", "30:00", "4:00:00", "2-0", "2-12:00", "1-00:00:00", "INFINITE"}},
		{CheckMem, []string{"", "0", "4000", "500M", "4G", "1T"}},
		{CheckGPUs, []string{"", "1", "4", "h100:1", "a100-80g:2"}},
		{CheckPartition, []string{"", "gpu", "cpu,short", "long.q"}},
	} {
		for _, v := range tc.values {
			if err := tc.check(v); err != nil {
				t.Errorf("%q refused: %v", v, err)
			}
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/opt/dw/bin/dw": "/opt/dw/bin/dw", "go:parallelism=2": "go:parallelism=2", "": "''",
		"a b": "'a b'", "it's": `'it'\''s'`, "$HOME": "'$HOME'", "x;y": "'x;y'",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestScriptRunsItsLine runs a written script with bash as Slurm would for one task: it must pass
// that task's line and the trailing arguments to the command and return the command's status.
func TestScriptRunsItsLine(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	a := Array{Name: "t", Dir: dir, StoppedCode: 75,
		// The command writes its arguments, one a line, and exits with the first one.
		Command:  []string{"/bin/sh", "-c", `printf '%s\n' "$@" > "$0"; exit "$1"`, out},
		Tasks:    [][]string{{"0", "a"}, {"75", "b", "c"}, {"3"}},
		Trailing: []string{"-runs", "/x y"},
	}
	script, err := a.Write()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		task, args, log string
		code            int
	}{
		{"0", "0\na\n-runs\n/x y\n", "slurm task 0: done", 0},
		{"1", "75\nb\nc\n-runs\n/x y\n", "slurm task 1: stopped early (exit 75); submit again to continue: sbatch --array=1 " + script, 75},
		{"2", "3\n-runs\n/x y\n", "slurm task 2: failed (exit 3)", 3},
		{"3", "", "slurm task 3: no line 4 in", 2},
	} {
		os.Remove(out)
		cmd := exec.Command(bash, script)
		cmd.Env = append(os.Environ(), "SLURM_ARRAY_TASK_ID="+tc.task, "SLURM_ARRAY_JOB_ID=7")
		log, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(out)
		if code != tc.code || string(got) != tc.args || !strings.Contains(string(log), tc.log) {
			t.Errorf("task %s: exit %d (want %d), args %q (want %q), log:\n%s", tc.task, code, tc.code, got, tc.args, log)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, LogDir)); err != nil || !fi.IsDir() {
		t.Errorf("logs directory not created: %v", err)
	}
	if fi, err := os.Stat(script); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("script not executable: %v", err)
	}
	// The same tasks again: fine. Other tasks: refused, since a submitted array reads the list late.
	if _, err := a.Write(); err != nil {
		t.Errorf("rewriting the same tasks: %v", err)
	}
	a.Tasks = a.Tasks[:2]
	if _, err := a.Write(); err == nil || !strings.Contains(err.Error(), "lists other tasks") {
		t.Errorf("rewriting with other tasks: %v", err)
	}
}

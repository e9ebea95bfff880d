package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/internal-dw/dwgo/cmd/dw/internal/slurm"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// slurmFlags are dw sweep's -slurm flags: where to write a Slurm job array instead of running the
// sweep here, and what each of its tasks (one run each) asks of the cluster.
type slurmFlags struct {
	dir, time, mem, partition, gpus, name string
	cpus, maxRunning, stopAfter           int
	extra                                 listFlag
}

func (s *slurmFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.dir, "slurm", "", "write a Slurm job array for the sweep into this directory (sweep.sbatch, jobs.txt, logs/) instead of running it; submit it with sbatch")
	fs.StringVar(&s.time, "slurm-time", "", "-slurm: wall-time limit per task (minutes, HH:MM:SS or D-HH:MM:SS; default: the partition's)")
	fs.IntVar(&s.cpus, "slurm-cpus", 2, "-slurm: CPUs per task (GOMAXPROCS follows)")
	fs.StringVar(&s.mem, "slurm-mem", "4G", "-slurm: memory per task (e.g. 4G; empty: the cluster's default)")
	fs.StringVar(&s.partition, "slurm-partition", "", "-slurm: partition (default: the cluster's)")
	fs.StringVar(&s.gpus, "slurm-gpus", "", "-slurm: GPUs per task, [type:]count (default: none)")
	fs.Var(&s.extra, "slurm-extra", "-slurm: a further sbatch option for every task, e.g. --account=proj (repeatable)")
	fs.IntVar(&s.maxRunning, "slurm-max-running", 0, "-slurm: at most this many tasks at once (0: no limit)")
	fs.IntVar(&s.stopAfter, "slurm-stop-after", 0, "-slurm: each task stops after this many epochs (exit status 75) so it fits -slurm-time; submit again to continue (0: train to the end)")
	fs.StringVar(&s.name, "slurm-name", "", "-slurm: job name (default dw-<profile>)")
}

// needsDir refuses -slurm-* flags given without -slurm, which would otherwise be ignored while the
// sweep runs here.
func (s *slurmFlags) needsDir(fs *flag.FlagSet) error {
	var orphans []string
	fs.Visit(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "slurm-") && s.dir == "" {
			orphans = append(orphans, "-"+f.Name)
		}
	})
	if len(orphans) > 0 {
		return usageError{fmt.Errorf("%s: only with -slurm DIR (they describe the tasks of a job array)", strings.Join(orphans, ", "))}
	}
	return nil
}

// exitStopped is dw train's exit status when -stop-after ended a run before its last epoch: 75 is
// EX_TEMPFAIL of sysexits.h ("try again later"), which is what such a task asks for, and it keeps
// a stopped task apart from a failed one (1) in Slurm's job states and in sbatch --wait.
const exitStopped = 75

// check refuses bad -slurm-* values, naming the flag, and flags that mean nothing for a job array.
func (s *slurmFlags) check(profile string, conflicts map[string]bool) error {
	var errs []error
	for _, c := range []struct {
		flag, value string
		check       func(string) error
	}{
		{"-slurm-time", s.time, slurm.CheckTime},
		{"-slurm-mem", s.mem, slurm.CheckMem},
		{"-slurm-partition", s.partition, slurm.CheckPartition},
		{"-slurm-gpus", s.gpus, slurm.CheckGPUs},
	} {
		if err := c.check(c.value); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.flag, err))
		}
	}
	if s.name == "" {
		s.name = "dw-" + profile
	}
	if err := slurm.CheckName(s.name); err != nil {
		errs = append(errs, fmt.Errorf("-slurm-name: %w", err))
	}
	for _, x := range s.extra {
		if _, err := slurm.CheckExtra(x); err != nil {
			errs = append(errs, fmt.Errorf("-slurm-extra: %w", err))
		}
	}
	if s.cpus < 1 {
		errs = append(errs, fmt.Errorf("-slurm-cpus %d: must be >= 1", s.cpus))
	}
	if s.maxRunning < 0 {
		errs = append(errs, fmt.Errorf("-slurm-max-running %d: must be >= 1 (or 0: no limit)", s.maxRunning))
	}
	if s.stopAfter < 0 {
		errs = append(errs, fmt.Errorf("-slurm-stop-after %d: must be >= 1 (or 0: train to the end)", s.stopAfter))
	}
	for _, f := range []string{"-archive-each", "-force", "-jobs", "-plan", "-save"} {
		if conflicts[f] {
			errs = append(errs, fmt.Errorf("-slurm writes a job array and runs nothing here: %s does not apply (the tasks always -resume; collect with dw table, or save with dw sweep -resume -save once they are done)", f))
		}
	}
	if len(errs) > 0 {
		return usageError{errors.Join(errs...)}
	}
	return nil
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// executable is the dw binary the tasks run; tests replace it.
var executable = os.Executable

// dwBinary returns the absolute path of this dw binary, refusing a "go run" build: that lives in a
// temporary directory which is gone before the tasks start.
func dwBinary() (string, error) {
	exe, err := executable()
	if err != nil {
		return "", fmt.Errorf("-slurm: cannot find the dw binary for the tasks: %w", err)
	}
	if filepath.Base(filepath.Dir(exe)) == "exe" && strings.Contains(exe, "go-build") {
		return "", fmt.Errorf("-slurm: %s is a temporary `go run` build, gone before the tasks start: build dw (go build -o bin/dw ./cmd/dw) and run bin/dw", exe)
	}
	return filepath.Abs(exe)
}

// sweepSlurm writes the job array of the sweep's grid, one task per run, and prints how to submit
// it, continue it and collect its table.
func sweepSlurm(sf *slurmFlags, rf runFlags, gf gridFlags, baselines bool, conflicts map[string]bool) error {
	if err := sf.check(rf.profile, conflicts); err != nil {
		return err
	}
	jobs, _, err := gf.resolve(rf.profile)
	if err != nil {
		return err
	}
	exe, err := dwBinary()
	if err != nil {
		return err
	}
	paths, err := absPaths(rf)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(sf.dir)
	if err != nil {
		return fmt.Errorf("-slurm %q: %w", sf.dir, err)
	}
	if err := slurm.CheckLogDir(dir); err != nil {
		return usageError{fmt.Errorf("-slurm: %w", err)}
	}
	a := slurm.Array{
		Name: sf.name, Dir: dir, Command: []string{exe, "train"}, Tasks: make([][]string, len(jobs)),
		Trailing: append(paths, "-resume"), MaxRunning: sf.maxRunning, StoppedCode: exitStopped,
		Resources: slurm.Resources{Time: sf.time, CPUs: sf.cpus, Mem: sf.mem, Partition: sf.partition, GPUs: sf.gpus, Extra: sf.extra},
		Comment: []string{
			fmt.Sprintf("Written by `dw sweep -slurm`: %d runs of the %s profile, one array task each (task i runs line i+1 of %s).", len(jobs), rf.profile, slurm.TaskFile),
			"Submit: sbatch " + filepath.Join(dir, slurm.ScriptFile) + "   (submit it again to continue runs that stopped early or timed out)",
		},
	}
	if sf.stopAfter > 0 {
		a.Trailing = append(a.Trailing, "-stop-after", strconv.Itoa(sf.stopAfter))
	}
	// The backend is this command's: set as here, or unset for the default.
	if v, ok := os.LookupEnv(backend.EnvVar); ok {
		a.Env = append(a.Env, backend.EnvVar+"="+v)
	} else {
		a.Env = append(a.Env, backend.EnvVar)
	}
	for i, j := range jobs {
		a.Tasks[i] = trainArgs(rf.profile, j)
	}
	script, err := a.Write()
	if err != nil {
		return err
	}
	table := append([]string{exe, "table", "-profile", rf.profile}, gf.args()...)
	table = append(table, paths...)
	if !baselines {
		table = append(table, "-baselines=false")
	}
	printSlurmHelp(script, dir, len(jobs), rf.profile, sf, table)
	return nil
}

// trainArgs are the dw train flags that select job j: what one line of jobs.txt holds.
func trainArgs(profile string, j experiment.Job) []string {
	args := []string{"-profile", profile, "-testbed", j.Testbed, "-method", j.Method, "-seed", strconv.FormatUint(j.Seed, 10)}
	if j.K > 0 {
		args = append(args, "-K", strconv.Itoa(j.K))
	}
	if j.Sampler != "" && j.Method == "dw" {
		args = append(args, "-sampler", j.Sampler)
	}
	if j.Channels != 0 {
		args = append(args, "-channels", strconv.Itoa(j.Channels))
	}
	if j.Participant != 0 {
		args = append(args, "-participant", strconv.Itoa(j.Participant))
	}
	return args
}

// absPaths are the -runs, -cache and -ett flags with absolute paths (the defaults resolved here):
// the tasks start in whatever directory sbatch was called from, where the repository's defaults
// may name other directories or none. -ett is left out when there is no default to resolve and
// none was given (only the ETT testbeds need it).
func absPaths(rf runFlags) ([]string, error) {
	abs := func(flag, v string, def func() (string, error)) (string, error) {
		if v == "" {
			d, err := def()
			if err != nil {
				return "", fmt.Errorf("-slurm: give %s: %w", flag, err)
			}
			v = d
		}
		return filepath.Abs(v)
	}
	runs, err := abs("-runs", rf.runs, experiment.DefaultRunsDir)
	if err != nil {
		return nil, err
	}
	cache, err := abs("-cache", rf.cache, data.DefaultCacheDir)
	if err != nil {
		return nil, err
	}
	out := []string{"-runs", runs, "-cache", cache}
	if ett, err := abs("-ett", rf.ett, data.DefaultETTDir); err == nil {
		out = append(out, "-ett", ett)
	}
	return out, nil
}

// args are the grid flags that select the same jobs again (for the dw table command).
func (g *gridFlags) args() []string {
	if g.preset != "" {
		return []string{"-preset", g.preset}
	}
	out := []string{"-testbeds", g.testbeds, "-methods", g.methods, "-seeds", g.seeds}
	if g.ks != "" {
		out = append(out, "-K", g.ks)
	}
	if g.sampler != "" {
		out = append(out, "-sampler", g.sampler)
	}
	if g.synth.channels != 0 {
		out = append(out, "-channels", strconv.Itoa(g.synth.channels))
	}
	if g.synth.participant != 0 {
		out = append(out, "-participant", strconv.Itoa(g.synth.participant))
	}
	return out
}

func printSlurmHelp(script, dir string, n int, profile string, sf *slurmFlags, table []string) {
	limit := ""
	if sf.maxRunning > 0 {
		limit = fmt.Sprintf(", at most %d at once", sf.maxRunning)
	}
	w := stdout
	fmt.Fprintf(w, "wrote a Slurm job array of %d runs (%s profile%s):\n", n, profile, limit)
	fmt.Fprintf(w, "  %-40s the batch script (one array task per run)\n", script)
	fmt.Fprintf(w, "  %-40s line i+1: the run of task i\n", filepath.Join(dir, slurm.TaskFile))
	fmt.Fprintf(w, "  %-40s one log per task, <job id>_<task>.out\n", filepath.Join(dir, slurm.LogDir)+"/")
	fmt.Fprintf(w, "submit:\n  sbatch %s\n", slurm.Quote(script))
	if sf.stopAfter > 0 {
		fmt.Fprintf(w, "each task stops after %d epochs with exit status %d (checkpoint kept); continue by submitting again\n", sf.stopAfter, exitStopped)
	} else {
		fmt.Fprintln(w, "a task that hits its time limit keeps its last epoch's checkpoint; continue by submitting again")
	}
	fmt.Fprintf(w, "(finished runs exit at once, the others resume), now or queued behind the first array:\n")
	fmt.Fprintf(w, "  sbatch --dependency=afterany:<job id> %s\n", slurm.Quote(script))
	fmt.Fprintf(w, "collect the table when every task has finished:\n  %s\n", quoteWords(table))
}

func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = slurm.Quote(w)
	}
	return strings.Join(q, " ")
}

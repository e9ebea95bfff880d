// Package slurm writes Slurm job-array batch scripts: one array task per line of a task list, each
// running one command with that line's arguments. It knows nothing of what the command does; it
// only needs no Slurm to write the files (they are submitted by the user with sbatch).
//
// Why a task list beside the script rather than a case statement inside it: the list is the
// record of what index i means (a user who resubmits index 17 can read line 18), and it keeps the
// script the same size however many tasks there are.
package slurm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Files under Array.Dir.
const (
	ScriptFile = "sweep.sbatch" // the batch script to submit
	TaskFile   = "jobs.txt"     // line i+1: the arguments of array task i
	LogDir     = "logs"         // per-task logs, <array job id>_<task index>.out
)

// Resources are the sbatch requests of every task. Empty strings and zero leave the cluster's
// defaults.
type Resources struct {
	Time      string   // --time
	CPUs      int      // --cpus-per-task; the script also sets GOMAXPROCS to it
	Mem       string   // --mem
	Partition string   // --partition
	GPUs      string   // --gpus
	Extra     []string // further sbatch options, one #SBATCH line each (e.g. --account=proj)
}

// Array describes one job array.
type Array struct {
	// Name is the job name (--job-name).
	Name string
	// Dir (absolute) receives the script, the task list and the logs directory.
	Dir string
	// Command is the program (an absolute path) and its leading arguments, e.g. [/abs/dw train].
	Command []string
	// Tasks[i] are the arguments of array task i, after Command. No argument may hold white
	// space: the script splits its task's line on it.
	Tasks [][]string
	// Trailing arguments follow every task's own (shared paths, resume flags).
	Trailing []string
	// Env sets the tasks' environment, in this order: NAME=value exports, a bare NAME unsets.
	// sbatch passes the submitting shell's environment on; Env pins what must not depend on the
	// shell the script happens to be submitted from.
	Env []string
	// MaxRunning > 0 limits how many tasks run at once (the %M of --array).
	MaxRunning int
	// StoppedCode, when not 0, is the exit status with which the command says it stopped early and
	// wants to be run again; the log then says how to resubmit.
	StoppedCode int
	// Comment lines go at the top of the script (without the leading "# ").
	Comment []string
	Resources
}

// Validate checks everything the script is built from.
func (a Array) Validate() error {
	var errs []error
	add := func(option string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %w", option, err))
		}
	}
	add("--job-name", CheckName(a.Name))
	add("--output directory", CheckLogDir(filepath.Join(a.Dir, LogDir)))
	add("--time", CheckTime(a.Time))
	add("--mem", CheckMem(a.Mem))
	add("--gpus", CheckGPUs(a.GPUs))
	add("--partition", CheckPartition(a.Partition))
	for _, x := range a.Extra {
		_, err := CheckExtra(x)
		add("extra option", err)
	}
	if a.CPUs < 0 {
		errs = append(errs, fmt.Errorf("--cpus-per-task %d: must be >= 1 (or 0 for the default)", a.CPUs))
	}
	if a.MaxRunning < 0 {
		errs = append(errs, fmt.Errorf("array limit %d: must be >= 1 (or 0 for none)", a.MaxRunning))
	}
	if len(a.Command) == 0 || !filepath.IsAbs(a.Command[0]) {
		errs = append(errs, fmt.Errorf("command %q: the program must be an absolute path (tasks do not run in this directory)", a.Command))
	}
	if len(a.Tasks) == 0 {
		errs = append(errs, errors.New("no tasks"))
	}
	for i, args := range a.Tasks {
		if len(args) == 0 {
			errs = append(errs, fmt.Errorf("task %d has no arguments", i))
		}
		for _, arg := range args {
			if arg == "" || strings.ContainsAny(arg, " \t\n\r") {
				errs = append(errs, fmt.Errorf("task %d: argument %q is empty or holds white space", i, arg))
			}
		}
	}
	for _, e := range a.Env {
		if name, _, _ := strings.Cut(e, "="); !envNameRE.MatchString(name) {
			errs = append(errs, fmt.Errorf("environment entry %q is not NAME=value or NAME", e))
		}
	}
	return errors.Join(errs...)
}

// TaskList is the content of TaskFile: task i's arguments on line i+1, separated by spaces.
func (a Array) TaskList() string {
	var b strings.Builder
	for _, args := range a.Tasks {
		b.WriteString(strings.Join(args, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Script is the content of ScriptFile.
func (a Array) Script() (string, error) {
	if err := a.Validate(); err != nil {
		return "", err
	}
	script, tasks := filepath.Join(a.Dir, ScriptFile), filepath.Join(a.Dir, TaskFile)
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("#!/bin/bash")
	for _, c := range a.Comment {
		line("# %s", c)
	}
	// #SBATCH lines must come before the first command; sbatch reads no further.
	line("#SBATCH --job-name=%s", a.Name)
	array := fmt.Sprintf("0-%d", len(a.Tasks)-1)
	if a.MaxRunning > 0 {
		array += fmt.Sprintf("%%%d", a.MaxRunning)
	}
	line("#SBATCH --array=%s", array)
	// %A is the array's job id and %a the task index; stderr goes to the same file.
	line("#SBATCH --output=%s", filepath.Join(a.Dir, LogDir, "%A_%a.out"))
	if a.Time != "" {
		line("#SBATCH --time=%s", a.Time)
	}
	if a.CPUs > 0 {
		line("#SBATCH --cpus-per-task=%d", a.CPUs)
	}
	if a.Mem != "" {
		line("#SBATCH --mem=%s", a.Mem)
	}
	if a.Partition != "" {
		line("#SBATCH --partition=%s", a.Partition)
	}
	if a.GPUs != "" {
		line("#SBATCH --gpus=%s", a.GPUs)
	}
	for _, x := range a.Extra {
		x, _ = CheckExtra(x)
		line("#SBATCH %s", x)
	}
	line("")
	line("set -uo pipefail")
	for _, e := range a.Env {
		if name, value, ok := strings.Cut(e, "="); ok {
			line("export %s=%s", name, Quote(value))
		} else {
			line("unset %s", name)
		}
	}
	if !slices.ContainsFunc(a.Env, func(e string) bool { return e == "GOMAXPROCS" || strings.HasPrefix(e, "GOMAXPROCS=") }) {
		// Go sizes its scheduler from every CPU of the node unless the node confines the task
		// (cgroups or affinity); on a node shared by several tasks that oversubscribes the cores.
		cpus := max(a.CPUs, 1)
		line(`export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-%d}"`, cpus)
	}
	line("")
	line("COMMAND=(%s)", quoteAll(a.Command))
	line("TRAILING=(%s)", quoteAll(a.Trailing))
	line("TASKS=%s", Quote(tasks))
	line(`task="${SLURM_ARRAY_TASK_ID:?not set: submit this script with sbatch (it is a job array)}"`)
	line(`line="$(sed -n "$((task + 1))p" "$TASKS")"`)
	line(`if [[ -z "$line" ]]; then`)
	line(`  echo "slurm task $task: no line $((task + 1)) in $TASKS" >&2`)
	line(`  exit 2`)
	line(`fi`)
	line(`read -r -a args <<<"$line"`)
	line(`echo "slurm task $task of job ${SLURM_ARRAY_JOB_ID:-?} on $(hostname) at $(date -Iseconds): ${COMMAND[*]} $line ${TRAILING[*]}"`)
	line(`"${COMMAND[@]}" "${args[@]}" "${TRAILING[@]}"`)
	line(`rc=$?`)
	line(`case $rc in`)
	line(`  0) echo "slurm task $task: done" ;;`)
	if a.StoppedCode != 0 {
		line(`  %d) echo "slurm task $task: stopped early (exit %d); submit again to continue: sbatch --array=$task %s" ;;`,
			a.StoppedCode, a.StoppedCode, script)
	}
	line(`  *) echo "slurm task $task: failed (exit $rc)" >&2 ;;`)
	line(`esac`)
	line(`exit $rc`)
	return b.String(), nil
}

// Write writes the script (executable) and the task list under Dir and creates the logs
// directory, which Slurm does not create: a task whose --output directory is missing fails
// before it starts, with no log to say why. It refuses to replace a task list that differs (see
// below) and returns the script's path.
func (a Array) Write() (string, error) {
	s, err := a.Script()
	if err != nil {
		return "", err
	}
	list := filepath.Join(a.Dir, TaskFile)
	if old, err := os.ReadFile(list); err == nil && string(old) != a.TaskList() {
		// Pending tasks of an array already submitted from Dir read their line when they start:
		// a new list would silently give them other work.
		return "", fmt.Errorf("%s lists other tasks; an array submitted from it would run the new ones: choose another directory or remove it", list)
	}
	if err := os.MkdirAll(filepath.Join(a.Dir, LogDir), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(list, []byte(a.TaskList()), 0o644); err != nil {
		return "", err
	}
	path := filepath.Join(a.Dir, ScriptFile)
	if err := os.WriteFile(path, []byte(s), 0o755); err != nil {
		return "", err
	}
	return path, os.Chmod(path, 0o755)
}

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Quote returns s as one shell word: single-quoted unless it is made only of characters no shell
// treats specially.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}

// Command dw trains, evaluates and sweeps Internal-DW forecasting runs.
//
//	dw list                                       testbeds, methods, profiles and presets
//	dw config (-testbed T | -data FILE.csv) -method M [-seed S] [-K K] [-profile P]
//	                                              print a run's full configuration (JSON)
//	dw train  (-testbed T | -data FILE.csv) -method M [-seed S] [-K K] [-profile P] | -config FILE
//	          [-resume | -force] [-stop-after N]  train one run, evaluate it, write result.json
//	dw eval   -run DIR [-H H] [-origins N] [-data FILE]
//	                                              evaluate a run's best checkpoint on its test split
//	dw sweep  -profile P (-preset NAME | (-testbeds a,b | -data FILE.csv) -methods x,y -seeds 0,1,2 [-K 32,64])
//	          [-resume] [-plan] [-save]           run a grid and print its table
//	dw sweep  -slurm DIR [-slurm-time T -slurm-cpus N -slurm-mem M -slurm-stop-after E ...] (grid flags)
//	                                              write a Slurm job array of the grid (one task per run)
//	dw table  -profile P (-preset NAME | grid flags)
//	                                              print the table of finished runs
//	dw select -profile P -testbeds a,b [-methods clip,jreg,tbptt,static] [-jobs N] [-seeds 0,1,2] [-plan]
//	                                              select the controls' values on seed-0 validation loss
//	                                              (Table 4), then run the selected values on -seeds
//	dw baselines -profile P (-testbeds a,b [-seeds 0,1,2] [-K k] | -preset NAME)
//	                                              print the zero, damped-persistence and ridge-AR baselines
//	dw regime -profiles p1,p2 [-testbed T]        the regime map: DW − Full per training budget
//	dw attribution -profile P -testbed T [-at best,init]
//	                                              where DW's noise moment comes from (appdiag)
//	dw runtime -profile P -testbeds a,b           time Full against DW (paired repeats, paper protocol)
//	dw ksweep -profile P -testbed T -K 8,16,32 -H 48 [-train]
//	                                              training-horizon sweep and fitted K* (Figure 7)
//	dw results-doc [-check]                       regenerate docs/results.md and README.md's
//	                                              results block from data/results
//
// The flags that select runs have the same names everywhere, singular or plural, each a
// comma-separated list: -testbed/-testbeds, -method/-methods, -seed/-seeds (and -K). dw train
// -method full,dw -seed 0,1,2 trains the six runs in turn; dw sweep does the same grid with a table,
// -jobs and -slurm. Every command that takes seeds defaults to seed 0 (-seeds 0,1,2 for the paper's
// three runs per row).
//
// Your own data: wherever a command takes -testbed(s), -data FILE.csv takes its place (train,
// config, sweep, table, baselines; the two are mutually exclusive). The file (plain or gzip) is
// read as -data-spec SPEC.json (a data.CSVSpec) says, with -time, -state, -drive, -split and
// -unit-len overriding its fields: a time column (by default the first, when named date, time,
// datetime or timestamp), the state columns to forecast (by default all others), observed-drive
// columns, a calendar drive from the timestamps, the step inferred and checked row by row, and a
// chronological split (0.7,0.15,0.15 by default) into units of 256 rows. Malformed rows are
// refused with their file, line and field. The run is named csv-<name>-<hash8> after the file
// and a hash of its content and spec, and records the file's SHA-256: a run never trains,
// resumes or evaluates on a file that changed. dw eval -data FILE finds a file that moved.
//
// sweep and table show the baselines beside the trained models: scored by the same eq. (8)
// evaluator on the same test units, seeds and protocol, and cached in
// <runs>/<profile>/<testbed>/baselines-K<K>-s<seed>.json (rescored when the protocol, the data
// options or the data change; -baselines=false leaves them out).
//
// dw archive copies the result.json of finished runs (no checkpoints: kilobytes, not megabytes)
// into data/results/runs/<profile>/<testbed>/<run>/, which is committed: wherever a run directory
// holds no result, train, table, regime and the notebooks read it from there, so a fresh clone
// shows the project's finished runs without training them again (-archive DIR reads another;
// -force ignores it).
//
// Runs live under data/runs/<profile>/<testbed>/<method>-K<K>-s<seed>/ (config.json, result.json,
// last.ckpt, best.ckpt, and while a run works there its lock file); -runs changes the root. A
// second dw on a directory in use is refused, naming the first. Exit codes: 0 success, 1 failure,
// 2 a bad command line, 75 (EX_TEMPFAIL) -stop-after ended a run before its last epoch, 130
// interrupted (SIGINT or SIGTERM stop a run between minibatches, keeping its last epoch's
// checkpoint); after 75 and 130, -resume continues. $DW_CPUPROFILE=FILE writes a CPU profile of
// the command to FILE (go tool pprof). The backend is pure Go unless $GOMLX_BACKEND says otherwise
// (see environment.md). Long work shows a progress bar with ETA on the terminal (log lines when
// stderr is not a terminal).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// usageError marks errors in the command line (exit status 2).
type usageError struct{ error }

// cpuProfileEnv names a file to write a CPU profile of the whole command to (go tool pprof reads
// it): where a long run spends its time, without a rebuild.
const cpuProfileEnv = "DW_CPUPROFILE"

func main() {
	stop, err := startCPUProfile(os.Getenv(cpuProfileEnv))
	if err == nil {
		err = run(os.Args[1:])
		if perr := stop(); err == nil {
			err = perr
		}
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "dw:", explain(err))
	}
	os.Exit(exitCode(err))
}

// Exit codes besides 0 (success, and "dw CMD -h": the usage was printed, as asked) and 1 (any
// other failure); exitStopped (75) is in slurm.go, whose job arrays rely on it.
const (
	exitUsage       = 2   // an error in the command line
	exitInterrupted = 130 // SIGINT or SIGTERM (128 + SIGINT, the shell's convention); -resume continues
)

func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		return exitUsage
	case errors.Is(err, experiment.ErrInterrupted):
		return exitInterrupted
	case errors.Is(err, experiment.ErrStopped):
		return exitStopped
	}
	return 1
}

var commands = []struct {
	name, help string
	run        func(args []string) error
}{
	{"list", "list testbeds, methods, profiles and presets", cmdList},
	{"config", "print a run's full configuration as JSON", cmdConfig},
	{"train", "train and evaluate one run", cmdTrain},
	{"graphs", "list the graphs a run compiles (node counts, input shapes), compiling nothing", cmdGraphs},
	{"eval", "evaluate a run's best checkpoint on its test split", cmdEval},
	{"sweep", "run a grid of runs and print the table", cmdSweep},
	{"table", "print the table of finished runs", cmdTable},
	{"select", "the paper's control selection (Table 4): seed-0 validation loss over each control's grid", cmdSelect},
	{"baselines", "print the zero, damped-persistence and ridge-AR baselines", cmdBaselines},
	{"regime", "print the regime map (DW − Full per training budget) of finished runs", cmdRegime},
	{"compare", "print one method's finished runs across profiles (the trained recipe's ablations) with the baselines", cmdCompare},
	{"attribution", "measure where DW's noise moment comes from at runs' checkpoints", cmdAttribution},
	{"diagnose", "the paper's diagnostics of a data set: regime probes, held-out gradient utility, gains under noise", cmdDiagnose},
	{"runtime", "time Full BPTT against Internal-DW (the paper's paired protocol)", cmdRuntime},
	{"ksweep", "training-horizon sweep: runs at several K scored at one H, fitted K*", cmdKSweep},
	{"archive", "copy finished runs' results (no checkpoints) into the committed archive", cmdArchive},
	{"results-doc", "regenerate docs/results.md and README.md's results block from data/results (-check: compare only)", cmdResultsDoc},
}

func run(args []string) error {
	if len(args) == 0 {
		usage(stderr)
		return usageError{errors.New("no command")}
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stdout) // asked for: the answer, on stdout
		return nil
	}
	var names []string
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:])
		}
		names = append(names, c.name)
	}
	return usageError{fmt.Errorf("unknown command %q; commands: %s (dw -h says what each does)", args[0], strings.Join(names, ", "))}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dw <command> [flags]   (dw <command> -h for its flags)")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.help)
	}
	fmt.Fprintln(w, "Every command that takes -seed or -seeds defaults to seed 0 (-seeds 0,1,2 for the paper's three).")
}

// startCPUProfile starts a CPU profile into path ("": none) and returns the function that ends
// it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("$%s: %w", cpuProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("$%s: %w", cpuProfileEnv, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

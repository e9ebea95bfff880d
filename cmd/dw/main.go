// Command dw trains, evaluates and sweeps Internal-DW forecasting runs.
//
//	dw list                                       testbeds, methods, profiles and presets
//	dw config (-testbed T | -data FILE.csv) -method M [-seed S] [-K K] [-profile P]
//	                                              print a run's full configuration (JSON)
//	dw train  (-testbed T | -data FILE.csv) -method M [-seed S] [-K K] [-profile P] [-config FILE]
//	          [-resume] [-force] [-stop-after N]  train one run, evaluate it, write result.json
//	dw eval   -run DIR [-H H] [-origins N] [-data FILE]
//	                                              evaluate a run's best checkpoint on its test split
//	dw sweep  -profile P (-preset NAME | (-testbeds a,b | -data FILE.csv) -methods x,y -seeds 0,1,2 [-K 32,64])
//	          [-resume] [-plan] [-save]           run a grid and print its table
//	dw table  -profile P (-preset NAME | grid flags)
//	                                              print the table of finished runs
//	dw baselines -profile P (-testbeds a,b [-seeds 0,1,2] [-K k] | -preset NAME)
//	                                              print the zero, damped-persistence and ridge-AR baselines
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
// Runs live under data/runs/<profile>/<testbed>/<method>-K<K>-s<seed>/ (result.json, last.ckpt,
// best.ckpt); -runs changes the root. The backend is pure Go unless $GOMLX_BACKEND says otherwise
// (see environment.md). Long work shows a progress bar with ETA on the terminal (log lines when
// stderr is not a terminal).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

// usageError marks errors in the command line (exit status 2).
type usageError struct{ error }

func main() {
	err := run(os.Args[1:])
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "dw:", err)
	}
	os.Exit(exitCode(err))
}

// exitCode is 0 for success and for "dw CMD -h" (the usage was printed, as asked), 2 for an error
// in the command line, 1 for any other failure.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		return 2
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
	{"eval", "evaluate a run's best checkpoint on its test split", cmdEval},
	{"sweep", "run a grid of runs and print the table", cmdSweep},
	{"table", "print the table of finished runs", cmdTable},
	{"baselines", "print the zero, damped-persistence and ridge-AR baselines", cmdBaselines},
	{"regime", "print the regime map (DW − Full per training budget) of finished runs", cmdRegime},
}

func run(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return usageError{errors.New("no command")}
		}
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:])
		}
	}
	usage()
	return usageError{fmt.Errorf("unknown command %q", args[0])}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: dw <command> [flags]   (dw <command> -h for its flags)")
	fmt.Fprintln(os.Stderr, "commands:")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-9s %s\n", c.name, c.help)
	}
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// The command-line conventions every dw command shares (issue 38): a bad command line exits 2 with
// one line that names the bad value and the valid ones; -h prints the command's usage to stdout and
// exits 0; a misspelled flag is one line with the hint to -h, not the whole usage; every command
// has the same seed default.

// defaultSeeds is the seed list of every command that takes -seed or -seeds when none is given:
// one run each, the cheapest thing that answers; the paper's rows are -seeds 0,1,2.
const defaultSeeds = "0"

// seedsHelp is the -seed/-seeds help of every command.
const seedsHelp = "comma-separated seeds (split, initialisation, sampling); default 0 in every dw command, -seeds 0,1,2 for the paper's three"

// usages holds each flag set's usage printer: the flag package would print it to stderr on any
// error, so newFlags silences it and parse prints it only for -h, to stdout.
var usages sync.Map // *flag.FlagSet -> func(io.Writer)

func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet("dw "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	usages.Store(fs, func(w io.Writer) {
		fmt.Fprintf(w, "usage: dw %s %s\n", name, synopsis)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	})
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if u, ok := usages.Load(fs); ok {
				u.(func(io.Writer))(stdout)
			}
			return err
		}
		return usageError{fmt.Errorf("%v (%s -h lists the flags)", err, fs.Name())}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected arguments %q (%s -h lists the flags)", fs.Args(), fs.Name())}
	}
	if err := checkSynonyms(fs); err != nil {
		return err
	}
	return checkNames(fs)
}

// nameFlags are the flags whose values are names dw knows, with the kind of name and the valid
// ones: an unknown one is a usage error before anything is read or trained.
var nameFlags = []struct {
	flags []string
	kind  string
	valid func() []string
	also  string
}{
	{[]string{"profile", "profiles"}, "profile", experiment.Profiles, ""},
	{[]string{"testbed", "testbeds"}, "testbed", experiment.Testbeds, " (or your CSV file: -data FILE)"},
	{[]string{"method", "methods"}, "method", experiment.Methods, ""},
}

// checkNames refuses an unknown profile, testbed or method given on the command line, naming it
// and the valid ones in one line.
func checkNames(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, n := range nameFlags {
			if err != nil || !slices.Contains(n.flags, f.Name) {
				continue
			}
			for _, v := range splitList(f.Value.String()) {
				if !slices.Contains(n.valid(), v) {
					err = usageError{fmt.Errorf("unknown %s %q; valid %ss: %s%s", n.kind, v, n.kind, strings.Join(n.valid(), ", "), n.also)}
					return
				}
			}
		}
	})
	return err
}

// resolveJobs is experiment.ResolveJobs, without the "job 1 (...)" and "experiment:" prefixes when
// the command line names a single run: they locate a bad job among many and only repeat the
// command line for one. For built-in testbeds, whose configurations are resolved without reading
// any file, what it refuses (a K too long for the units, a run named twice) is in the command line:
// a usage error.
func resolveJobs(profile string, jobs []experiment.Job) ([]experiment.RunConfig, error) {
	cfgs, err := experiment.ResolveJobs(profile, jobs)
	if err == nil {
		return cfgs, nil
	}
	if inner := errors.Unwrap(err); inner != nil && len(jobs) == 1 {
		err = singleJobError{inner}
	}
	if !slices.ContainsFunc(jobs, func(j experiment.Job) bool { return j.Data != nil }) {
		err = usageError{err}
	}
	return cfgs, err
}

type singleJobError struct{ err error }

func (e singleJobError) Error() string { return strings.TrimPrefix(e.err.Error(), "experiment: ") }
func (e singleJobError) Unwrap() error { return e.err }

// minTestUnits is the fewest test units a CSV split may leave without a warning: with fewer, a
// test score rests on one or two stretches of the series.
const minTestUnits = 3

// runNotices says, before anything trains, what makes the runs' numbers weak: the quick profile
// is a smoke run, and a CSV split with fewer than minTestUnits test units is too small to score.
func runNotices(w io.Writer, cfgs []experiment.RunConfig, opt experiment.Options) {
	quick, seen := false, map[string]bool{}
	for _, c := range cfgs {
		quick = quick || experiment.IsSmoke(c.Profile)
		if c.Data.CSV == nil || seen[c.Testbed] {
			continue
		}
		seen[c.Testbed] = true
		csvSiblingNote(w, c, opt)
		ds, err := experiment.LoadData(c, opt)
		if err != nil || len(ds.Test) >= minTestUnits {
			continue // a file that cannot be read is reported by the run itself
		}
		fmt.Fprintf(w, "dw: warning: %s: the test split has %d unit(s) (fewer than %d): its test rel-L2 rests on very few windows; "+
			"give a longer file, a larger test share (-split) or shorter units (-unit-len)\n", c.Data.CSV.Path, len(ds.Test), minTestUnits)
	}
	if quick {
		fmt.Fprintln(w, "dw: the quick profiles (quick, shear-quick) are smoke runs: they check that everything runs, their numbers are not meaningful (-profile standard, paper-cpu or shear-cpu for results)")
	}
}

// csvSiblingNote says when a CSV run is new only because its spec differs from that of existing
// runs of the same file: a changed -drive (or -state, -split, -unit-len, -data-spec) names another
// data set, so the run starts from nothing rather than continuing or reading back those runs.
func csvSiblingNote(w io.Writer, c experiment.RunConfig, opt experiment.Options) {
	sibs, err := experiment.CSVSiblings(c, opt)
	if err != nil || len(sibs) == 0 {
		return
	}
	byTestbed := map[string][]string{}
	var order []string
	diff := map[string]string{}
	for _, s := range sibs {
		tb := strings.Split(s.Run, "/")[1]
		if _, ok := byTestbed[tb]; !ok {
			order = append(order, tb)
			diff[tb] = strings.Join(s.Diff, "; ")
		}
		byTestbed[tb] = append(byTestbed[tb], s.Run)
	}
	for _, tb := range order {
		fmt.Fprintf(w, "dw: note: %s is a new data set name for a file that has runs as %s, whose spec differs (%s): %s. "+
			"These runs start anew; give the spec of those runs to continue or read them back\n",
			c.Testbed, tb, diff[tb], strings.Join(byTestbed[tb], ", "))
	}
}

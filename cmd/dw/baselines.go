package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// stderr is where logs go; tests replace it.
var stderr io.Writer = os.Stderr

// stderrLog is stderr with prefix before every write (each write is one line).
func stderrLog(prefix string) io.Writer { return prefixed{prefix} }

type prefixed struct{ prefix string }

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := io.WriteString(stderr, p.prefix); err != nil {
		return 0, err
	}
	return stderr.Write(b)
}

// baselineJob is one (testbed or CSV data set, seed, K) whose baselines dw baselines scores.
type baselineJob struct {
	testbed string
	seed    uint64
	K       int
	csv     *experiment.CSVData
}

func cmdBaselines(args []string) error {
	fs := newFlags("baselines", "-profile P ((-testbeds a,b | "+dataSynopsis+") [-seeds 0,1,2] [-K k1,k2] | -preset NAME) [flags]")
	var rf runFlags
	var df dataFlags
	rf.register(fs)
	df.register(fs)
	fs.BoolVar(&rf.force, "force", false, "rescore even where a valid cached file exists")
	preset := fs.String("preset", "", "the testbeds, seeds and Ks of a named job list: "+strings.Join(experiment.PresetNames(), ", "))
	testbeds, seeds := new(string), new(string)
	pluralFlag(fs, testbeds, "testbeds", "", "comma-separated testbeds")
	pluralFlag(fs, seeds, "seeds", defaultSeeds, seedsHelp)
	ks := fs.String("K", "", "comma-separated training horizons (default: the profile's K); the horizon is ceil(1.5K)")
	if err := parse(fs, args); err != nil {
		return err
	}
	var jobs []baselineJob
	add := func(j baselineJob) {
		if !slices.Contains(jobs, j) {
			jobs = append(jobs, j)
		}
	}
	if *testbeds != "" && df.given() {
		return errTestbedAndData
	}
	if *preset != "" {
		given := df.given()
		fs.Visit(func(f *flag.Flag) {
			given = given || slices.Contains([]string{"testbed", "testbeds", "seed", "seeds", "K"}, f.Name)
		})
		if given {
			return usageError{errors.New("-preset replaces -testbeds/-seeds/-K and -data; give one or the other")}
		}
		pj, err := experiment.Preset(*preset)
		if err != nil {
			return usageError{err}
		}
		for _, j := range pj {
			add(baselineJob{j.Testbed, j.Seed, j.K, nil})
		}
	} else {
		if *testbeds == "" && !df.given() {
			return usageError{errors.New("give -testbeds (or -preset) or -data FILE; dw list shows the valid names")}
		}
		csv, err := df.csv()
		if err != nil {
			return err
		}
		tbs := splitList(*testbeds)
		if csv != nil {
			tbs = []string{csv.Testbed()}
		}
		sv, err := parseSeeds(*seeds)
		if err != nil {
			return err
		}
		if len(sv) == 0 {
			return usageError{fmt.Errorf("-seeds: %q lists no seed", *seeds)}
		}
		kv, err := parseKs(*ks)
		if err != nil {
			return err
		}
		if len(kv) == 0 {
			kv = []int{0}
		}
		for _, tb := range tbs {
			for _, k := range kv {
				for _, s := range sv {
					add(baselineJob{tb, s, k, csv})
				}
			}
		}
	}
	// Resolve everything first, so a bad name or K fails before any work. The method does not
	// change the baselines; "full" only completes the configuration.
	cfgs := make([]experiment.RunConfig, len(jobs))
	for i, j := range jobs {
		var c experiment.RunConfig
		var err error
		if j.csv != nil {
			c, err = experiment.ResolveCSV(rf.profile, j.csv, "full", j.seed, j.K)
		} else {
			c, err = experiment.Resolve(rf.profile, j.testbed, "full", j.seed, j.K)
			if err != nil { // a name or K of the command line: nothing was read
				return usageError{singleJobError{err}}
			}
		}
		if err != nil {
			return err
		}
		cfgs[i] = c
	}
	opt := experiment.Options{RunsDir: rf.runs, DataCache: rf.cache, ETTDir: rf.ett, Force: rf.force, Log: stderrLog("dw: ")}
	var sets []*experiment.BaselineSet
	var errs []error
	for _, c := range cfgs {
		b, err := experiment.RunBaselines(c, opt)
		if err != nil {
			errs = append(errs, fmt.Errorf("baselines of %s seed %d (K = %d): %w", c.Testbed, c.Seed, c.Train.K, err))
			continue
		}
		if b.Reused {
			fmt.Fprintf(stderr, "dw: baselines %s s%d (history %d, H %d): read back %s\n", c.Testbed, c.Seed, b.Key.History, b.Key.H, b.Path)
		}
		sets = append(sets, b)
	}
	if len(sets) > 0 {
		fmt.Fprint(stdout, experiment.BaselinesMarkdown(experiment.SummarizeBaselines(sets)))
		fmt.Fprint(stdout, "\nPer seed:\n\n| testbed | H | seed | baseline | val rel-L2 | test rel-L2 | chosen on train/val |\n|---|---|---|---|---|---|---|\n")
		for _, b := range sets {
			for _, sc := range b.Scores {
				params := sc.Params
				if params == "-" {
					params = "–"
				}
				fmt.Fprintf(stdout, "| %s | %d | %d | %s | %.4f | %.4f | %s |\n", b.Key.Testbed, b.Key.H, b.Key.Seed, sc.Name, sc.ValRelL2, sc.Test.RelL2, params)
			}
		}
	}
	return errors.Join(errs...)
}

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdRegime prints the regime map of finished runs: DW − Full per training budget (profile), with
// the baselines and what DW's controller did. It trains nothing.
func cmdRegime(args []string) error {
	fs := newFlags("regime", "-profiles p1,p2,... [-testbed T] [-seeds 0,1,2] [-save]")
	var rf runFlags
	rf.register(fs)
	profiles := fs.String("profiles", strings.Join([]string{experiment.PaperCPU, experiment.PaperCPUA1, experiment.PaperCPUA1Fast, experiment.PaperCPUA1Long}, ","),
		"comma-separated profiles, smallest training budget first")
	testbed, seedList := new(string), new(string)
	singleFlag(fs, testbed, "testbed", "mackey-glass", "testbed")
	pluralFlag(fs, seedList, "seeds", defaultSeeds, seedsHelp)
	save := fs.Bool("save", false, "also write the table to <repo>/data/results/regime-<testbed>[-<label>].md")
	label := fs.String("label", "", "with -save: a name for the table, so that a map of other profiles (an ablation) does not replace the main one")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *save {
		if _, err := resultsDir("", ""); err != nil { // before any work
			return err
		}
	}
	file, err := regimeFile(*testbed, *label)
	if err != nil {
		return err
	}
	if _, err := one(*testbed, "testbed", "regime"); err != nil {
		return err
	}
	seeds, err := parseSeeds(*seedList)
	if err != nil {
		return err
	}
	ps := splitList(*profiles)
	if err := knownProfiles(ps); err != nil {
		return err
	}
	if !slices.Contains(experiment.Testbeds(), *testbed) {
		return fmt.Errorf("unknown testbed %q; valid testbeds: %s", *testbed, strings.Join(experiment.Testbeds(), ", "))
	}
	opt := rf.options()
	pts, err := experiment.RegimeMap(opt, *testbed, ps, seeds)
	if err != nil {
		return err
	}
	bl, err := experiment.RegimeBaselines(opt, *testbed, pts)
	if err != nil {
		return err
	}
	table := experiment.RegimeMarkdown(*testbed, pts, bl)
	fmt.Fprint(stdout, table)
	if *save {
		header := fmt.Sprintf("# Regime map: %s\n\nWritten by `%s` from finished runs. Test rel-L2 is eq. (8) over h = 1..ceil(1.5K); DW − Full is the paired difference over matched seeds with its 95%% Student-t interval; tr R/tr T, the share of gains exactly 0 and the mean gains are DW's final controller state; the baselines are scored under each profile's test protocol.\n\n", *testbed, commandLine())
		if err := saveResult(file, header+table); err != nil {
			return err
		}
	}
	for _, p := range pts {
		if len(p.Seeds) < len(seeds) {
			return errors.New("some runs have not finished: the map shows the matched seeds that have (dw sweep -profile P -testbeds " + *testbed + " -methods full,dw -seeds ...)")
		}
	}
	return nil
}

// regimeFile is the name under data/results of the regime map of testbed: regime-<testbed>.md, or
// regime-<testbed>-<label>.md. A label may hold a-z, 0-9, '-' and '_' only.
func regimeFile(testbed, label string) (string, error) { return labelledFile("regime-"+testbed, label) }

// labelledFile is base.md, or base-<label>.md for a label of a-z, 0-9, '-' and '_' (it names a file).
func labelledFile(base, label string) (string, error) {
	if label == "" {
		return base + ".md", nil
	}
	for _, r := range label {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", usageError{fmt.Errorf("-label %q: use only a-z, 0-9, '-' and '_' (it names a file)", label)}
		}
	}
	return base + "-" + label + ".md", nil
}

// knownProfiles refuses, as a usage error, a list naming a profile that does not exist.
func knownProfiles(ps []string) error {
	for _, p := range ps {
		if !slices.Contains(experiment.Profiles(), p) {
			return usageError{fmt.Errorf("-profiles: unknown profile %q; valid profiles: %s", p, strings.Join(experiment.Profiles(), ", "))}
		}
	}
	return nil
}

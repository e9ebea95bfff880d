package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdCompare prints one method's finished runs on one testbed across profiles: what each profile
// changes, the best validation loss, the test rel-L2 and the baselines under each profile's
// protocol. It is how the trained recipe's ablations are read (docs/results.md, "Models worth
// using"). It trains nothing; dw train or dw sweep run the profiles.
func cmdCompare(args []string) error {
	fs := newFlags("compare", "[-profiles p1,p2,...] [-testbed T] [-method M] [-seeds 0,1,2] [-save [-label L]]")
	var rf runFlags
	rf.register(fs)
	profiles := fs.String("profiles", strings.Join(append([]string{experiment.Standard, experiment.Trained}, experiment.TrainedAblations()...), ","),
		"comma-separated profiles (default: standard, trained and the trained recipe's ablations)")
	testbed, method, seedList := new(string), new(string), new(string)
	singleFlag(fs, testbed, "testbed", "mackey-glass", "testbed")
	singleFlag(fs, method, "method", "full", "method")
	pluralFlag(fs, seedList, "seeds", defaultSeeds, seedsHelp)
	baselines := fs.Bool("baselines", true, "also score the zero, damped-persistence and ridge-AR baselines under each profile's protocol (cached under -runs)")
	save := fs.Bool("save", false, "also write the table to <repo>/data/results/compare-<testbed>-<method>[-<label>].md")
	label := fs.String("label", "", "with -save: a name for the table")
	if err := parse(fs, args); err != nil {
		return err
	}
	if _, err := one(*testbed, "testbed", "compare"); err != nil {
		return err
	}
	if _, err := one(*method, "method", "compare"); err != nil {
		return err
	}
	file, err := compareFile(*testbed, *method, *label)
	if err != nil {
		return err
	}
	if *save {
		if _, err := resultsDir("", ""); err != nil { // before any work
			return err
		}
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
		return usageError{fmt.Errorf("-testbed: unknown testbed %q; valid testbeds: %s", *testbed, strings.Join(experiment.Testbeds(), ", "))}
	}
	if !slices.Contains(experiment.Methods(), *method) {
		return usageError{fmt.Errorf("-method: unknown method %q; valid methods: %s", *method, strings.Join(experiment.Methods(), ", "))}
	}
	rows, err := experiment.Compare(rf.options(), *testbed, *method, ps, seeds, *baselines)
	if err != nil {
		return err
	}
	table := experiment.CompareMarkdown(*testbed, *method, rows)
	if len(rows) > 1 {
		// Which profile each validation rule picks (experiment.ChooseByValidation).
		for _, crit := range []struct{ name, what string }{
			{experiment.ByValLoss, "mean best validation loss (h = 1..K)"},
			{experiment.ByValAtTest, "mean validation score under the test protocol"},
		} {
			if c, err := experiment.ChooseByValidation(rows, crit.name); err == nil {
				var vals []string
				for i, r := range rows {
					vals = append(vals, fmt.Sprintf("`%s` %.4f", r.Profile, c.MeanVal[i]))
				}
				table += fmt.Sprintf("\nValidation (%s) chooses `%s`: %s over seeds %v: %s.\n", crit.name, c.Profile, crit.what, c.Seeds, strings.Join(vals, ", "))
			}
		}
	}
	fmt.Fprint(stdout, table)
	if *save {
		header := fmt.Sprintf("# Profiles compared: %s, %s\n\nWritten by `%s` from finished runs. Test rel-L2 is eq. (8) over h = 1..ceil(1.5K) on the test split for the minimum-validation checkpoint; best val is that checkpoint's validation loss (eq. (8) over h = 1..K from the training context, whatever the training loss: comparable between profiles with the same K and context); val at test is the same checkpoint on the validation split under the test protocol (– where a result does not record it: dw eval -record); the baselines are scored under each profile's test protocol on the same seeds, and vs best baseline divides the mean test rel-L2 by the best of them (below 1: the model beats every baseline).\n\n", *testbed, *method, commandLine())
		if err := saveResult(file, header+table); err != nil {
			return err
		}
	}
	return nil
}

// compareFile is the name under data/results of a saved comparison:
// compare-<testbed>-<method>[-<label>].md.
func compareFile(testbed, method, label string) (string, error) {
	return labelledFile("compare-"+testbed+"-"+method, label)
}

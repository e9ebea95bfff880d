package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/kernelext/runcache"
	"github.com/internal-dw/dwgo/runmeasure"
)

// cmdAttribution measures where DW-Generic's noise moment comes from (appdiag.NoiseAttribution) at
// the best checkpoints of finished runs and at their initial parameters. It trains nothing.
func cmdAttribution(args []string) error {
	fs := newFlags("attribution", "-profile P -testbed T [-methods full,dw] [-seeds 0,1,2] [-K k] [-at best,last,init] [-windows 32] [-save]")
	var rf runFlags
	rf.register(fs)
	testbed, seedList, methods := new(string), new(string), new(string)
	singleFlag(fs, testbed, "testbed", "mackey-glass", "testbed")
	pluralFlag(fs, seedList, "seeds", defaultSeeds, seedsHelp)
	pluralFlag(fs, methods, "methods", "full,dw", "comma-separated methods")
	K := fs.Int("K", 0, "training horizon of the runs (0: the profile's)")
	at := fs.String("at", "best,init", "comma-separated parameters to measure at: best (the minimum-validation checkpoint), last (the last finished epoch), init (before any step)")
	var acfg appdiag.AttributionConfig
	fs.IntVar(&acfg.Windows, "windows", appdiag.DefaultAttributionWindows, "training windows probed")
	fs.Uint64Var(&acfg.Seed, "window-seed", 1, "seed of the draw of the windows")
	save := fs.Bool("save", false, "also write the table to <repo>/data/results/attribution-<profile>-<testbed>.md")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *save {
		if _, err := resultsDir("", ""); err != nil { // before any work
			return err
		}
	}
	if _, err := one(*testbed, "testbed", "attribution"); err != nil {
		return err
	}
	if !slices.Contains(experiment.Testbeds(), *testbed) {
		return usageError{fmt.Errorf("-testbed: unknown testbed %q; valid testbeds: %s", *testbed, strings.Join(experiment.Testbeds(), ", "))}
	}
	seeds, err := parseSeeds(*seedList)
	if err != nil {
		return err
	}
	var points []appdiag.Checkpoint
	for _, a := range splitList(*at) {
		c := appdiag.Checkpoint(a)
		if c != appdiag.AtBest && c != appdiag.AtLast && c != appdiag.AtInit {
			return usageError{fmt.Errorf("-at: %q, want %s, %s or %s", a, appdiag.AtBest, appdiag.AtLast, appdiag.AtInit)}
		}
		points = append(points, c)
	}
	if err := acfg.Defaults().Validate(); err != nil {
		return usageError{err}
	}
	opt := rf.options()
	// Kept where the notebooks keep theirs ($DW_CACHE_DIR, else <repo>/data/cache/runs), so a
	// measurement made by one is read back by the other.
	mcache, err := runcache.Default()
	if err != nil {
		return err
	}
	var rows []appdiag.AttributionRow
	for _, c := range points {
		ms := splitList(*methods)
		if c == appdiag.AtInit { // every method of a seed starts from the same parameters: measure once, as DW's
			if slices.Contains(ms, "dw") {
				ms = []string{"dw"}
			} else {
				ms = ms[:1]
			}
		}
		for _, m := range ms {
			for _, seed := range seeds {
				cfg, err := experiment.Resolve(rf.profile, *testbed, m, seed, *K)
				if err != nil {
					return usageError{err}
				}
				a, logged, err := runmeasure.AttributionOf(mcache, cfg, c, acfg, opt, newReporter())
				if err != nil {
					return err
				}
				row := appdiag.AttributionRow{Method: m, Seed: seed, At: c, A: a, Logged: logged}
				if c == appdiag.AtInit {
					row.Method = "every method"
				}
				rows = append(rows, row)
			}
		}
	}
	title := fmt.Sprintf("%s, profile %s: where the generic sampler's noise moment comes from (%d training windows, window seed %d)",
		*testbed, rf.profile, acfg.Defaults().Windows, acfg.Seed)
	table := appdiag.AttributionMarkdown(title, rows)
	fmt.Fprint(stdout, table)
	if *save {
		header := fmt.Sprintf("# Noise attribution: %s\n\nWritten by `%s` (appdiag.NoiseAttribution).\n\n", *testbed, commandLine())
		return saveResult(fmt.Sprintf("attribution-%s-%s.md", rf.profile, *testbed), header+table)
	}
	return nil
}

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdSelect is the paper's control selection (Table 4): the seed-0 grid of each control method,
// the value with the lowest validation loss, and with -seeds the runs of the selected values on
// those seeds. Finished runs are read back, so the command can be repeated at no cost, and a
// selected value that is the profile's own reuses the runs that exist.
func cmdSelect(args []string) error {
	fs := newFlags("select", "-profile P -testbeds T1,T2 [-methods clip,jreg,tbptt,static] [-jobs N] [-seeds 0,1,2] [-plan] [flags]")
	var rf runFlags
	rf.register(fs)
	fs.BoolVar(&rf.force, "force", false, "train the candidates anew, discarding their results and checkpoints")
	var testbeds, methods, seeds string
	pluralFlag(fs, &testbeds, "testbeds", "", "comma-separated testbeds: "+strings.Join(experiment.Testbeds(), ", "))
	pluralFlag(fs, &methods, "methods", strings.Join(experiment.ControlMethods(), ","), "comma-separated control methods to select")
	pluralFlag(fs, &seeds, "seeds", "", "after selecting (always on seed 0), also run the selected values on these seeds, e.g. 0,1,2 (default: none)")
	parallel := fs.Int("jobs", 1, "runs trained at once in this process (results equal -jobs 1)")
	plan := fs.Bool("plan", false, "only list the candidate runs and where each stands (finished here or in the archive, part-way, not started)")
	archiveEach := registerArchiveEach(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *parallel < 1 {
		return usageError{fmt.Errorf("-jobs %d: need at least 1", *parallel)}
	}
	tbs, err := uniqueList("testbeds", testbeds)
	if err != nil {
		return err
	}
	if len(tbs) == 0 {
		return usageError{errors.New("-testbeds is required (dw list shows the testbeds)")}
	}
	ms, err := uniqueList("methods", methods)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if !slices.Contains(experiment.ControlMethods(), m) {
			return usageError{fmt.Errorf("-methods: %q has no selected hyperparameter; control methods: %s", m, strings.Join(experiment.ControlMethods(), ", "))}
		}
	}
	if len(ms) == 0 {
		return usageError{errors.New("-methods is empty: give at least one of " + strings.Join(experiment.ControlMethods(), ", "))}
	}
	var seedList []uint64
	if seeds != "" {
		if seedList, err = parseSeeds(seeds); err != nil {
			return err
		}
	}
	opt := rf.options()
	if *plan {
		_, cfgs, err := experiment.SelectionPlan(rf.profile, tbs, ms)
		if err != nil {
			return usageError{err}
		}
		return printPlan(cfgs, opt)
	}
	opt.Reporter = newReporter()
	opt.Jobs = *parallel
	if *archiveEach {
		opt.AfterRun = experiment.ArchiveAfterRun(opt)
	}
	ctx, stop := interruptible()
	defer stop()
	opt.Context = ctx
	if rf.profile == experiment.Quick {
		runNotices(stderr, []experiment.RunConfig{{Profile: experiment.Quick}}, opt)
	}
	sel, err := experiment.SelectControls(opt, rf.profile, tbs, ms)
	if errors.Is(err, experiment.ErrInterrupted) {
		return interrupted(err)
	}
	if sel == nil {
		return err
	}
	fmt.Fprint(stdout, sel.Markdown())
	if err != nil || len(seedList) == 0 {
		return err
	}
	opt.Force = false // the candidates were trained anew; the selected runs on other seeds are read back where they exist
	outs, err := experiment.RunSelected(opt, sel, seedList)
	if errors.Is(err, experiment.ErrInterrupted) {
		return interrupted(err)
	}
	if err != nil {
		return err
	}
	rs, failed := experiment.Results(outs)
	noteUnchecked(rs)
	fmt.Fprintf(stdout, "\nThe selected values on seeds %s (%s profile, backend %s):\n\n%s", seeds, rf.profile, backend.Config(), experiment.Summarize(rs).Markdown())
	return failed
}

// uniqueList is listElems refusing a name given twice (it would train the same runs twice at once).
func uniqueList(flag, list string) ([]string, error) {
	vs, err := listElems(flag, list)
	if err != nil {
		return nil, err
	}
	for i, v := range vs {
		if slices.Contains(vs[:i], v) {
			return nil, usageError{fmt.Errorf("-%s: %q is given twice", flag, v)}
		}
	}
	return vs, nil
}

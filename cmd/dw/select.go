package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdSelect is the paper's control selection (Table 4): the seed-0 grid of each control method,
// the value with the lowest validation loss, and with -seeds the runs of the selected values on
// those seeds. Finished runs are read back, so the command can be repeated at no cost, and a
// selected value that is the profile's own reuses the runs that exist.
func cmdSelect(args []string) error {
	fs := newFlags("select", "-profile P -testbeds T1,T2 [-methods clip,jreg,tbptt,static] [-jobs N] [-seeds 0,1,2] [-plan] [-save [-label L]] [flags]")
	var rf runFlags
	rf.register(fs)
	fs.BoolVar(&rf.force, "force", false, "train the candidates anew, discarding their results and checkpoints")
	var testbeds, methods, seeds string
	pluralFlag(fs, &testbeds, "testbeds", "", "comma-separated testbeds: "+strings.Join(experiment.Testbeds(), ", "))
	pluralFlag(fs, &methods, "methods", strings.Join(experiment.ControlMethods(), ","), "comma-separated control methods to select")
	pluralFlag(fs, &seeds, "seeds", "", "after selecting (always on seed 0), also run the selected values on these seeds, e.g. 0,1,2 (default: none)")
	parallel := fs.Int("jobs", 1, "runs trained at once in this process (results equal -jobs 1)")
	plan := fs.Bool("plan", false, "only list the candidate runs and where each stands (finished here or in the archive, part-way, not started), then the selection as far as the finished ones reach")
	archiveEach := registerArchiveEach(fs)
	save := fs.Bool("save", false, "also write the selection to <repo>/data/results/select-<profile>-<label>.md (and .json) and, with -seeds, the selected values' runs to <profile>-select-<label>.md (and .json)")
	label := fs.String("label", "", "with -save: the files' name (default: the testbeds joined by '-')")
	results := fs.String("results", "", "directory -save writes to (default <repo>/data/results)")
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
	if *label == "" {
		*label = strings.Join(tbs, "-")
	}
	file, err := labelledFile("select-"+rf.profile, *label)
	if err != nil {
		return err
	}
	if *save && *plan {
		return usageError{errors.New("-save with -plan: the plan trains and reads nothing to save; drop -plan to select (finished candidates are read back, not retrained)")}
	}
	if *save {
		if _, err := resultsDir(*results, "-save"); err != nil { // before any work
			return err
		}
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
		if err := printPlan(cfgs, opt); err != nil {
			return err
		}
		sel, err := experiment.ReadSelection(opt, rf.profile, tbs, ms)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nThe selection so far (—: not finished; a control is selected once its whole grid has finished):\n\n%s", sel.Markdown())
		return nil
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
	if *save && err == nil {
		if err := saveSelection(*results, file, sel); err != nil {
			return err
		}
	}
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
	full, err := finishedFull(sel, seedList, opt)
	if err != nil {
		return err
	}
	rs = append(full, rs...)
	noteUnchecked(rs)
	sets, berr := resultBaselines(true, rs, rf)
	var chosen []string
	for _, ch := range sel.Choices {
		chosen = append(chosen, fmt.Sprintf("%s %s %g", ch.Testbed, ch.Method, ch.Selected))
	}
	table := fmt.Sprintf("Each control row runs the value selected in %s: %s. Full is read back where it has finished (never trained here), so the paired differences are control − Full on the same seeds.\n\n", file, strings.Join(chosen, ", ")) +
		experiment.Summarize(rs, sets...).Markdown()
	fmt.Fprintf(stdout, "\nThe selected values on seeds %s (%s profile, backend %s):\n\n%s", seeds, rf.profile, backend.Config(), table)
	if *save && failed == nil {
		if err := saveTable(*results, rf.profile, "select-"+*label, table, 0, 0, rs, sets); err != nil {
			return err
		}
	}
	return errors.Join(failed, berr)
}

// finishedFull reads back Full's finished runs on the selection's testbeds and seeds, at the
// selection's K, so that the selected controls can be judged against Full on the same seeds. A run
// that has not finished is left out: the selection never trains Full.
func finishedFull(sel *experiment.Selection, seeds []uint64, opt experiment.Options) ([]*experiment.Result, error) {
	type key struct {
		testbed string
		K       int
	}
	var done []key
	var rs []*experiment.Result
	for _, ch := range sel.Choices {
		k := key{ch.Testbed, ch.K}
		if slices.Contains(done, k) {
			continue
		}
		done = append(done, k)
		for _, s := range seeds {
			c, err := experiment.Resolve(sel.Profile, ch.Testbed, "full", s, ch.K)
			if err != nil {
				return nil, err
			}
			r, _, err := experiment.ReadFinished(c, opt)
			if err != nil {
				return nil, err
			}
			if r != nil {
				rs = append(rs, r)
			}
		}
	}
	return rs, nil
}

// saveSelection writes the selection's table (Markdown, with a header saying how it was made) and
// the Selection itself (JSON, each candidate's run and validation loss) under data/results.
func saveSelection(dir, file string, sel *experiment.Selection) error {
	grids, err := gridText(sel)
	if err != nil {
		return err
	}
	header := fmt.Sprintf("# Control selection: %s profile\n\nWritten %s by `%s` from finished runs. Each candidate is the seed-%d run of one value of Table 4's grid (%s) at the profile's K; the value with the lowest best validation loss is selected (ties: the profile's value, then the smaller). The test split plays no part. Table 4's values are at the paper's K and model, which a code profile does not share.\n\n",
		sel.Profile, time.Now().UTC().Format("2006-01-02"), commandLine(), experiment.SelectionSeed, grids)
	if err := writeResult(dir, file, header+sel.Markdown()); err != nil {
		return err
	}
	b, err := json.MarshalIndent(sel, "", " ")
	if err != nil {
		return err
	}
	return writeResult(dir, strings.TrimSuffix(file, ".md")+".json", string(b)+"\n")
}

// gridText renders the grids the selection searched, from experiment.ControlGrid, so that the
// saved header cannot drift from what ran: "clip {0.1, 0.3, 1}, tbptt {16, 32} at K = 64, ...".
func gridText(sel *experiment.Selection) (string, error) {
	var parts []string
	for _, m := range experiment.ControlMethods() {
		var ks []int
		for _, ch := range sel.Choices {
			if ch.Method == m && !slices.Contains(ks, ch.K) {
				ks = append(ks, ch.K)
			}
		}
		slices.Sort(ks)
		for _, k := range ks {
			g, err := experiment.ControlGrid(m, k)
			if err != nil {
				return "", err
			}
			vs := make([]string, len(g))
			for i, v := range g {
				vs[i] = fmt.Sprintf("%g", v)
			}
			part := fmt.Sprintf("%s {%s}", m, strings.Join(vs, ", "))
			if m == "tbptt" {
				part += fmt.Sprintf(" at K = %d", k)
			}
			parts = append(parts, part)
			if m != "tbptt" {
				break // the other grids do not depend on K
			}
		}
	}
	return strings.Join(parts, ", "), nil
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

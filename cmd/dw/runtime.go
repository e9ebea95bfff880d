package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdRuntime times Full BPTT against Internal-DW with the paper's protocol (paired repeats in
// alternating order, warm-up epochs discarded, median of the timed epochs) on fresh runs that are
// never written to disk. Only meaningful on an otherwise idle machine.
func cmdRuntime(args []string) error {
	fs := newFlags("runtime", "-profile P -testbeds a,b [-repeats 3] [-warmup 1] [-timed 3] [-seed S] [-save]")
	var rf runFlags
	rf.register(fs)
	testbeds := new(string)
	pluralFlag(fs, testbeds, "testbeds", "mackey-glass", "comma-separated testbeds")
	p := experiment.PaperRuntimeProtocol
	fs.IntVar(&p.Repeats, "repeats", p.Repeats, "paired repeats (order alternates)")
	fs.IntVar(&p.Warmup, "warmup", p.Warmup, "epochs discarded at the start of each run")
	fs.IntVar(&p.Timed, "timed", p.Timed, "epochs timed after the warm-up (their median is the run's s/epoch)")
	seedFlag := new(string)
	singleFlag(fs, seedFlag, "seed", defaultSeeds, "seed of the timed runs (default 0, as in every dw command)")
	save := fs.Bool("save", false, "also write the table to <repo>/data/results/runtime-<profile>.md")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *save {
		if _, err := resultsDir("", ""); err != nil { // before any work
			return err
		}
	}
	if err := p.Validate(); err != nil {
		return usageError{err}
	}
	seedOne, err := one(*seedFlag, "seed", "runtime")
	if err != nil {
		return err
	}
	seedList, err := parseSeeds(seedOne)
	if err != nil {
		return err
	}
	seed := seedList[0]
	opt := rf.options()
	opt.Log = stderrLog("dw: ")
	tbs := splitList(*testbeds)
	for _, tb := range tbs {
		if !slices.Contains(experiment.Testbeds(), tb) {
			return usageError{fmt.Errorf("-testbeds: unknown testbed %q; valid testbeds: %s", tb, strings.Join(experiment.Testbeds(), ", "))}
		}
	}
	// One bar over every epoch of every testbed (an ETT comparison in paper-cpu is about half an hour).
	bar := newReporter()
	bar.Start(len(tbs)*p.ProtocolEpochs(), fmt.Sprintf("runtime (%s, %d testbeds)", rf.profile, len(tbs)))
	defer bar.Finish()
	opt.Reporter = bar
	var cs []experiment.RuntimeComparison
	for _, tb := range tbs {
		full, err := experiment.Resolve(rf.profile, tb, "full", seed, 0)
		if err != nil {
			return err
		}
		dw, err := experiment.Resolve(rf.profile, tb, "dw", seed, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "dw: timing %s/%s: %d repeats of Full and DW, %d+%d epochs each\n", rf.profile, tb, p.Repeats, p.Warmup, p.Timed)
		c, err := experiment.CompareRuntime(full, dw, p, experiment.TrainingClock(opt))
		if err != nil {
			return err
		}
		cs = append(cs, c)
	}
	table := experiment.RuntimeMarkdown(cs)
	fmt.Fprint(stdout, table)
	if *save {
		header := fmt.Sprintf("# Training time, Full BPTT vs Internal-DW\n\nWritten by `%s` (backend %s). s/epoch is the training loop; \"with validation\" adds each epoch's validation.\n\n", commandLine(), backend.Config())
		if err := saveResult("runtime-"+rf.profile+".md", header+table); err != nil {
			return err
		}
	}
	return nil
}

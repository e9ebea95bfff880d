package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// cmdKSweep is the training-horizon experiment: runs at several K (trained first with -train),
// each best checkpoint scored at one fixed horizon H, quadratic fits per seed and pooled, K*.
func cmdKSweep(args []string) error {
	fs := newFlags("ksweep", "-profile P -testbed T -K k1,k2,k3,... -H H [-seeds 0,1,2] [-methods full,dw] [-train [-jobs N]] [-save]")
	var rf runFlags
	rf.register(fs)
	rf.registerResume(fs)
	testbed := new(string)
	singleFlag(fs, testbed, "testbed", "mackey-glass", "testbed")
	ks := fs.String("K", "", "comma-separated training horizons, at least 3 (each at most H)")
	H := fs.Int("H", 0, "the fixed evaluation horizon every checkpoint is scored at")
	origins := fs.Int("origins", 0, "test origins per unit (0: each run's own)")
	seedList, methods := new(string), new(string)
	pluralFlag(fs, seedList, "seeds", defaultSeeds, seedsHelp)
	pluralFlag(fs, methods, "methods", "full,dw", "comma-separated methods")
	trainFirst := fs.Bool("train", false, "train the grid's missing runs first, continuing interrupted ones (Ctrl-C stops at the next minibatch, keeping each run's last epoch); without it only finished runs are scored")
	parallel := fs.Int("jobs", 1, "with -train: runs trained at once")
	archiveEach := registerArchiveEach(fs)
	save := fs.Bool("save", false, "also write the table to <repo>/data/results/ksweep-<profile>-<testbed>.md")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *save {
		if _, err := resultsDir("", ""); err != nil { // before any work
			return err
		}
	}
	if _, err := one(*testbed, "testbed", "ksweep"); err != nil {
		return err
	}
	Ks, err := parseKs(*ks)
	if err != nil {
		return err
	}
	if len(Ks) < 3 {
		return usageError{fmt.Errorf("-K %q: need at least 3 horizons for a quadratic fit", *ks)}
	}
	if *H < 1 {
		return usageError{fmt.Errorf("-H %d: give the fixed evaluation horizon (at least the largest K)", *H)}
	}
	seeds, err := parseSeeds(*seedList)
	if err != nil {
		return err
	}
	ms := splitList(*methods)
	if !slices.Contains(experiment.Testbeds(), *testbed) {
		return usageError{fmt.Errorf("-testbed: unknown testbed %q; valid testbeds: %s", *testbed, strings.Join(experiment.Testbeds(), ", "))}
	}
	opt := rf.options()
	if *trainFirst {
		jobs, err := experiment.HorizonSweepToTrain(opt, rf.profile, *testbed, ms, Ks, seeds, *H, *origins)
		if err != nil {
			return err
		}
		// A run whose result alone is archived is trained again: scoring it at H needs its checkpoint.
		// An interrupted one continues from its last epoch: a sweep outlives sessions, and -train
		// promises "train (or resume)" without asking for -resume as well.
		train := opt
		train.NoArchive, train.Resume, train.Reporter, train.Jobs = true, !rf.force, newReporter(), *parallel
		// Each run is scored at H as soon as it finishes, while its checkpoint is surely here.
		var keep func(experiment.Outcome) error
		if *archiveEach {
			keep = experiment.ArchiveAfterRun(train)
		}
		train.AfterRun = experiment.ScoreAfterRun(*H, *origins, train, keep)
		if len(jobs) > 0 {
			ctx, stop := interruptible()
			defer stop()
			train.Context = ctx
			outs, err := experiment.Sweep(rf.profile, jobs, train)
			if err != nil {
				return interruptedContinuedBy(err, "the same dw ksweep -train continues")
			}
			if _, err := experiment.Results(outs); err != nil {
				fmt.Fprintln(stderr, "dw:", err)
			}
		}
	}
	s, err := experiment.RunHorizonSweep(opt, rf.profile, *testbed, ms, Ks, seeds, *H, *origins)
	if err != nil {
		return err
	}
	table := s.Markdown()
	fmt.Fprint(stdout, table)
	if *save {
		header := fmt.Sprintf("# Training-horizon sweep: %s\n\nWritten by `%s`. Each checkpoint (minimum validation) is scored by eq. (8) at h = 1..H on the test split; curves are least-squares quadratics with non-negative curvature (eval.FitHorizonCurve).\n\n", *testbed, commandLine())
		if err := saveResult(fmt.Sprintf("ksweep-%s-%s.md", rf.profile, *testbed), header+table); err != nil {
			return err
		}
	}
	if len(s.Missing) > 0 {
		return errors.New("some runs are not scored (listed under the table; -train trains them)")
	}
	return nil
}

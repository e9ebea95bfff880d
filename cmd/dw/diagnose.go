package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/regime"
	"github.com/internal-dw/dwgo/kernelext/runcache"
	"github.com/internal-dw/dwgo/runmeasure"
)

// The diagnostics dw diagnose knows, in the order it runs them.
const (
	diagRegime  = "regime"
	diagUtility = "utility"
	diagNoise   = "noise"
)

// cmdDiagnose asks the paper's application questions of one data set, a built-in testbed or a
// user's CSV file: does history predict beyond the observed drive (Section 4's regime probes, on
// the data alone), are distant gradients useful on held-out data (A(k) and U(k) at a finished Full
// BPTT run's best checkpoint), and do DW's gains close as noise is added (at a finished DW run's
// best checkpoint). It trains nothing; measurements at checkpoints are kept in the run cache
// ($DW_CACHE_DIR, else <-cache>/runs, else <repo>/data/cache/runs), so a notebook and a second
// call read them back; it writes nowhere else but -runs, -cache and, with -save, -results.
func cmdDiagnose(args []string) error {
	fs := newFlags("diagnose", "-profile P (-testbed T | "+dataSynopsis+") [-seed 0] [-K k] [-what regime,utility,noise] [-save]")
	var rf runFlags
	var df dataFlags
	rf.register(fs)
	df.register(fs)
	testbed := new(string)
	singleFlag(fs, testbed, "testbed", "", "built-in testbed (dw list)")
	seed := fs.Uint64("seed", 0, "seed of the Full and DW runs measured (the paper: 0)")
	K := fs.Int("K", 0, "training horizon of the runs (0: the profile's)")
	what := fs.String("what", "regime,utility,noise", "comma-separated diagnostics: regime (the data alone), utility (needs the finished Full run), noise (needs the finished DW run)")
	pairs := fs.Int("pairs", appdiag.DefaultPairs, "utility: train–test pairs")
	batches := fs.Int("noise-batches", 0, "noise: calibration batches per added-noise level (0: the authors' 480; the quick profile 60)")
	save := fs.Bool("save", false, "also write the report to <results>/diagnose-<profile>-<testbed>-s<seed>.md")
	results := fs.String("results", "", "directory -save writes to (default <repo>/data/results)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *save {
		dir, err := resultsDir(*results, "-results") // before any work
		if err != nil {
			return err
		}
		*results = dir
	}
	explicit := false
	fs.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "what" })
	kinds := splitList(*what)
	for _, k := range kinds {
		if !slices.Contains([]string{diagRegime, diagUtility, diagNoise}, k) {
			return usageError{fmt.Errorf("-what: %q, want a list of %s, %s and %s", k, diagRegime, diagUtility, diagNoise)}
		}
	}
	if len(kinds) == 0 {
		return usageError{errors.New("-what lists no diagnostic")}
	}
	if *pairs < 1 {
		return usageError{fmt.Errorf("-pairs %d: want at least 1", *pairs)}
	}
	if *batches < 0 || *batches == 1 {
		return usageError{fmt.Errorf("-noise-batches %d: want 0 (the default) or at least 2 (the first batch only fills the sampler)", *batches)}
	}
	tb, err := one(*testbed, "testbed", "diagnose")
	if err != nil {
		return err
	}
	if tb != "" && df.given() {
		return errTestbedAndData
	}
	csv, err := df.csv()
	if err != nil {
		return err
	}
	if tb == "" && csv == nil {
		return usageError{errors.New("give -testbed T (dw list) or -data FILE.csv")}
	}
	resolve := func(method string) (experiment.RunConfig, error) {
		if csv != nil {
			return experiment.ResolveCSV(rf.profile, csv, method, *seed, *K)
		}
		return experiment.Resolve(rf.profile, tb, method, *seed, *K)
	}
	full, err := resolve("full")
	if err != nil {
		return usageError{err}
	}
	dwCfg, err := resolve("dw")
	if err != nil {
		return usageError{err}
	}
	opt := rf.options()
	// The checkpoint measurements are kept in $DW_CACHE_DIR, else <-cache>/runs, else
	// <repo>/data/cache/runs: resolved before any work, so that a command given its own
	// directories writes nowhere else, and one outside a checkout is told what to give.
	var mcache *runcache.Cache
	if slices.Contains(kinds, diagUtility) || slices.Contains(kinds, diagNoise) {
		dir := ""
		if rf.cache != "" {
			dir = filepath.Join(rf.cache, "runs")
		}
		if mcache, err = runcache.DefaultIn(dir); err != nil {
			return usageError{fmt.Errorf("%w, or give -cache DIR (measurements are kept in DIR/runs)", err)}
		}
	}
	var report strings.Builder
	fmt.Fprintf(&report, "%s, profile %s, seed %d (K = %d): the paper's diagnostics of a data set (Section 4, Fig. 5)\n\n",
		full.Testbed, rf.profile, *seed, full.Train.K)
	// trainHint is the command line that trains a missing run: the same data (a CSV file with its
	// flags as given), profile, seed and K.
	trainHint := func(method string) string {
		data := "-testbed " + tb
		if csv != nil {
			data = strings.Join(df.args(), " ")
		}
		k := ""
		if *K != 0 {
			k = fmt.Sprintf(" -K %d", *K)
		}
		return fmt.Sprintf("dw train -profile %s %s -method %s -seed %d%s", rf.profile, data, method, *seed, k)
	}
	var skipped []string
	for _, kind := range kinds {
		var section string
		var err error
		switch kind {
		case diagRegime:
			section, err = regimeSection(full, opt, rf.profile == experiment.Quick)
		case diagUtility:
			section, err = utilitySection(mcache, full, opt, *pairs)
		case diagNoise:
			nb := *batches
			if nb == 0 && rf.profile == experiment.Quick {
				nb = 60
			}
			section, err = noiseSection(mcache, dwCfg, opt, nb)
		}
		if err != nil {
			method := map[string]string{diagUtility: "full", diagNoise: "dw"}[kind]
			if method == "" || explicit || !needsRun(err) {
				return fmt.Errorf("%s: %w", kind, err)
			}
			skipped = append(skipped, fmt.Sprintf("%s: skipped, %v (train it: %s)", kind, err, trainHint(method)))
			continue
		}
		report.WriteString(section)
	}
	for _, s := range skipped {
		fmt.Fprintln(&report, s)
	}
	fmt.Fprint(stdout, report.String())
	if !*save {
		return nil
	}
	name := fmt.Sprintf("diagnose-%s-%s-s%d.md", rf.profile, full.Testbed, *seed)
	body := fmt.Sprintf("# Diagnostics: %s\n\nWritten by `%s`.\n\n%s", full.Testbed, commandLine(), report.String())
	return writeResult(*results, name, body)
}

// needsRun reports whether err only says that a run is missing (a diagnostic that can be skipped
// when it was not asked for by name).
func needsRun(err error) bool {
	var e *runmeasure.MissingRunError
	return errors.As(err, &e)
}

// regimeSection runs the predictive-regime probes on the run's data: the paper's settings for its
// own testbeds, regime.GenericConfig for any other data (quick: shrunk to a smoke test).
func regimeSection(cfg experiment.RunConfig, opt experiment.Options, quick bool) (string, error) {
	ds, err := experiment.LoadData(cfg, opt)
	if err != nil {
		return "", err
	}
	c, settings, err := probeConfig(cfg, ds)
	if err != nil {
		return "", err
	}
	if quick {
		c = c.Quick()
	}
	r, err := regime.Run(ds, c, newReporter())
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Predictive regime (dwlib/regime; %s; on the data as the %s runs see it, %d training units; history width W = %d chosen on validation; Ψ averaged over k ≥ %d of horizons %v; scored on the %s split):\n\n",
		settings, cfg.Profile, len(ds.Train), r.Window, r.Config.LongMin, r.Config.Horizons, map[string]string{regime.ScoreTest: "test", regime.ScoreValidation: "second half of the validation"}[r.Config.Score])
	paper, hasPaper := regime.PaperFor(cfg.Testbed)
	fmt.Fprintln(&b, "| probe | Ψ_D | Ψ_H | Ψ_H null | ΔΨ_H | paper Ψ_D | paper ΔΨ_H |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|")
	row := func(name string, s regime.LongScores, pd, ph float64) {
		p1, p2 := "–", "–"
		if hasPaper {
			p1, p2 = fmt.Sprintf("%.3f", pd), fmt.Sprintf("%.3f", ph)
		}
		fmt.Fprintf(&b, "| %s | %.3f | %.3f | %.3f | %.3f | %s | %s |\n", name, s.PsiD, s.PsiH, s.PsiHNull, s.DeltaPsiH, p1, p2)
	}
	row("ridge (linear)", r.Linear.Long, paper.LinearPsiD, paper.LinearDelta)
	row(fmt.Sprintf("kNN (q = %d)", r.Config.Neighbors), r.Nonlinear.Long, paper.NonlinearPsiD, paper.NonlinearDelta)
	p := r.MapPoint(cfg.Testbed)
	drive := "there is no observed drive (Ψ_D = 0 by construction)"
	if r.HasDrive {
		drive = fmt.Sprintf("the drive removes %.0f%% of the mean forecast's long-horizon risk", 100*p.PsiD)
	}
	fmt.Fprintf(&b, "\nOn the map (the two probes averaged, then clipped at 0): Ψ_D = %.3f, ΔΨ_H = %.3f: %s, and history removes a further %.0f%% of the drive-only risk beyond what a shuffled history removes.\n",
		p.PsiD, p.DeltaPsiH, drive, 100*p.DeltaPsiH)
	fmt.Fprintln(&b, "The paper finds DW helping where ΔΨ_H is large and Ψ_D small (history-dominated, weak drive) and not where the drive already explains the future.")
	fmt.Fprintln(&b)
	return b.String(), nil
}

// probeConfig is the probe configuration for a run's data and the words that say where it came from.
func probeConfig(cfg experiment.RunConfig, ds *data.Dataset) (regime.Config, string, error) {
	if _, err := regime.PaperSettings(cfg.Testbed); err == nil {
		c, err := regime.DefaultConfig(cfg.Testbed)
		return c, "the paper's settings for " + cfg.Testbed, err
	}
	if len(ds.Train) == 0 || len(ds.Train[0].X) == 0 {
		return regime.Config{}, "", fmt.Errorf("%s: no training units", cfg.Testbed)
	}
	unitLen := len(ds.Train[0].X)
	for _, split := range [][]data.Series{ds.Train, ds.Val, ds.Test} {
		for _, u := range split {
			unitLen = min(unitLen, len(u.X))
		}
	}
	c, err := regime.GenericConfig(len(ds.Train[0].X[0]), cfg.Train.K, unitLen)
	return c, fmt.Sprintf("settings for data the paper did not probe (regime.GenericConfig: PCA %d, q %d, widths %v)", c.PCADim, c.Neighbors, c.Windows), err
}

// utilitySection measures A(k) and U(k) at the best checkpoint of the finished Full run cfg.
func utilitySection(c *runcache.Cache, cfg experiment.RunConfig, opt experiment.Options, pairs int) (string, error) {
	u, res, err := runmeasure.UtilityOfIn(c, cfg, appdiag.UtilityConfig{Pairs: pairs}, opt, newReporter())
	if err != nil {
		return "", err
	}
	s := u.Summary()
	var b strings.Builder
	fmt.Fprintf(&b, "Held-out gradient utility at the Full BPTT checkpoint %s (best epoch %d of %d; appdiag.HeldOutUtility, %d train–test pairs):\n\n",
		cfg.Name(), res.BestEpoch, len(res.Epochs), s.Pairs)
	fmt.Fprintln(&b, "| forecast step k | median A(k) | A(k) 10–90% | median U(k) | U(k) 25–75% |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	for _, k := range shownSteps(s.K) {
		i := k - 1
		fmt.Fprintf(&b, "| %d | %.3g | %.3g – %.3g | %+.3f | %+.3f – %+.3f |\n", k, s.AMedian[i], s.AQ10[i], s.AQ90[i], s.UMedian[i], s.UQ25[i], s.UQ75[i])
	}
	fmt.Fprintf(&b, "\nThe median U(k) is negative on %d of %d forecast steps (%.0f%%): a step along such a step's training gradient would raise the held-out loss. "+
		"A(K) = %.3g: the last step's gradient is %.3g times the first's.\n\n", s.NegativeSteps, s.K, 100*s.NegativeFraction, s.AFinal, s.AFinal)
	return b.String(), nil
}

// noiseSection measures the gains' response to added noise at the best checkpoint of the
// finished DW run cfg.
func noiseSection(c *runcache.Cache, cfg experiment.RunConfig, opt experiment.Options, batches int) (string, error) {
	ncfg := appdiag.NoiseConfig{Batches: batches}
	r, res, err := runmeasure.NoiseResponseOfIn(c, cfg, appdiag.DefaultNoiseSplit(cfg.Testbed), ncfg, opt, newReporter())
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "DW's gains under added noise at the DW checkpoint %s (best epoch %d of %d; parameters frozen, a fresh controller per level; appdiag.GainResponse, %d batches per level):\n\n",
		cfg.Name(), res.BestEpoch, len(res.Epochs), ncfg.Defaults().Batches)
	fmt.Fprintln(&b, "| level | residual-to-noise ratio | mean α (last batch) | mean m (last batch) | mean α, m (converged) | tr R̂ / tr T̂ |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|")
	for i, lv := range r.Levels {
		name := fmt.Sprint(i + 1)
		if len(r.Levels) == 3 {
			name = []string{"L", "M", "H"}[i]
		}
		ta, tm := lv.TailMean()
		fmt.Fprintf(&b, "| %s | %g | %.3f | %.3f | %.3f, %.3f | %.2f |\n", name, lv.Ratio, lv.MeanAlpha, lv.MeanM, ta, tm, lv.NoiseShare)
	}
	fmt.Fprintf(&b, "\nAs noise grows: %s (last batch); %s (converged means). The paper: both gains fall on every testbed.\n\n",
		appdiag.Describe(r.Levels), appdiag.Describe(appdiag.WithTailMeans(r.Levels)))
	return b.String(), nil
}

// shownSteps are the forecast steps a utility table shows: 1, 2, 4, ... and K.
func shownSteps(K int) []int {
	var ks []int
	for k := 1; k < K; k *= 2 {
		ks = append(ks, k)
	}
	return append(ks, K)
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/prior"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// stdout is where results go (progress and logs go to stderr); tests replace it.
var stdout io.Writer = os.Stdout

// runFlags are the flags shared by train, config, sweep and table.
type runFlags struct {
	profile, runs, cache, ett, archive string
	resume, force                      bool
}

func (r *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.profile, "profile", experiment.Quick, "run size: "+strings.Join(experiment.Profiles(), ", "))
	fs.StringVar(&r.runs, "runs", "", "root of the run directories (default <repo>/data/runs)")
	fs.StringVar(&r.cache, "cache", "", "cache of generated trajectories (default <repo>/data/cache)")
	fs.StringVar(&r.ett, "ett", "", "directory of ETTm1.csv.gz and ETTm2.csv.gz (default <repo>/../shared/data/ett)")
	fs.StringVar(&r.archive, "archive", "", "archive of finished results read when a run directory has none (default <repo>/data/results/runs with the default -runs)")
}

func (r *runFlags) registerResume(fs *flag.FlagSet) {
	fs.BoolVar(&r.resume, "resume", false, "continue interrupted runs from their last epoch checkpoint")
	fs.BoolVar(&r.force, "force", false, "discard existing results and checkpoints and start over")
}

// check refuses contradictory run flags.
func (r *runFlags) check() error {
	if r.resume && r.force {
		return usageError{errors.New("-resume continues a run's checkpoint and -force discards it; give one or the other")}
	}
	return nil
}

func (r *runFlags) options() experiment.Options {
	return experiment.Options{RunsDir: r.runs, Resume: r.resume, Force: r.force, DataCache: r.cache, ETTDir: r.ett, Archive: r.archive}
}

func cmdList(args []string) error {
	fs := newFlags("list", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "testbeds:", strings.Join(experiment.Testbeds(), ", "))
	fmt.Fprintln(stdout, "data:     your own CSV file with -data FILE instead of a testbed (dw train -h, README \"Your own data\")")
	fmt.Fprintln(stdout, "methods: ", strings.Join(experiment.Methods(), ", "))
	fmt.Fprintln(stdout, "profiles:", strings.Join(experiment.Profiles(), ", "))
	fmt.Fprintln(stdout, "presets: ", strings.Join(experiment.PresetNames(), ", "))
	fmt.Fprintln(stdout, "backend: ", backend.Config(), "(set $"+backend.EnvVar+" to change)")
	return nil
}

// selectRuns parses the flags that select runs: one, or the product of -testbeds (or -data),
// -methods, -seeds and -K lists, in that order.
func selectRuns(name string, args []string, withResume bool) ([]experiment.RunConfig, runFlags, *int, error) {
	fs := newFlags(name, "(-testbed T | "+dataSynopsis+") -method M [-seed S] [-K K] [-profile P] [-config FILE] [flags]\n"+
		"  -testbed, -method, -seed and -K take comma-separated lists too (as in dw sweep); the runs are "+verbFor(name)+" in turn")
	var rf runFlags
	var df dataFlags
	var sy synthFlags
	rf.register(fs)
	df.register(fs)
	sy.register(fs)
	if withResume {
		rf.registerResume(fs)
	}
	var testbeds, methods, seeds string
	singleFlag(fs, &testbeds, "testbed", "", "testbed: "+strings.Join(experiment.Testbeds(), ", "))
	singleFlag(fs, &methods, "method", "", "method: "+strings.Join(experiment.Methods(), ", "))
	singleFlag(fs, &seeds, "seed", defaultSeeds, seedsHelp)
	ks := fs.String("K", "", "training horizon (default: the profile's K for the testbed)")
	sampler := fs.String("sampler", "", "DW noise sampler for the dw runs: "+strings.Join(noise.Names(), ", ")+
		" (default: the profile's; DW-Prior, its bank built from the run's training split: "+prior.ARName+" a cross-fitted ridge AR for any series, "+
		prior.FactorName+" the iEEG factor-AR predictor (meant for ieeg-synth), "+prior.SubjectName+" the fMRI subject-AR predictor (datasets of subjects: fmri-synth))")
	cfgFile := fs.String("config", "", "read the run configuration from this JSON file (as printed by dw config) instead")
	engine := fs.String("engine", "", "how rollouts become compiled graphs: steps (one step per graph, for XLA/GPU) or unrolled (one graph per rollout); default $"+train.EngineEnv+", else steps on XLA and unrolled on the Go backend")
	stopAfter := new(int)
	if withResume {
		fs.IntVar(stopAfter, "stop-after", 0, "stop after this many epochs in this call (checkpoint kept; -resume continues)")
	}
	if err := parse(fs, args); err != nil {
		return nil, rf, nil, err
	}
	if err := rf.check(); err != nil {
		return nil, rf, nil, err
	}
	if *engine != "" && *engine != train.EngineSteps && *engine != train.EngineUnrolled {
		return nil, rf, nil, usageError{fmt.Errorf("-engine %q: must be %s or %s", *engine, train.EngineSteps, train.EngineUnrolled)}
	}
	if *stopAfter < 0 {
		return nil, rf, nil, usageError{fmt.Errorf("-stop-after %d: must be >= 1 (or 0: train to the end)", *stopAfter)}
	}
	if *cfgFile != "" {
		// The file is the whole configuration: a flag it replaces would be silently ignored.
		var given []string
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains([]string{"testbed", "testbeds", "method", "methods", "seed", "seeds", "K", "profile", "data", "data-spec", "time", "state", "drive", "split", "unit-len", "sampler", "channels", "participant"}, f.Name) {
				given = append(given, "-"+f.Name)
			}
		})
		if len(given) > 0 {
			return nil, rf, nil, usageError{fmt.Errorf("-config replaces -testbed/-data/-method/-seed/-K/-profile, but %s given too; give one or the other", strings.Join(given, ", "))}
		}
		c, err := experiment.ReadConfig(*cfgFile)
		c.Train.Engine = *engine
		return []experiment.RunConfig{c}, rf, stopAfter, err
	}
	if testbeds != "" && df.given() {
		return nil, rf, nil, errTestbedAndData
	}
	if testbeds == "" && !df.given() || methods == "" {
		return nil, rf, nil, usageError{errors.New("-testbed and -method are required, or -data FILE and -method (dw list shows the valid names)")}
	}
	var err error
	grid := experiment.Grid{}
	if grid.Testbeds, err = listElems("testbed", testbeds); err != nil {
		return nil, rf, nil, err
	}
	if grid.Methods, err = listElems("method", methods); err != nil {
		return nil, rf, nil, err
	}
	if grid.Data, err = df.csv(); err != nil {
		return nil, rf, nil, err
	}
	if grid.Seeds, err = parseSeeds(seeds); err != nil {
		return nil, rf, nil, err
	}
	if grid.Ks, err = parseKs(*ks); err != nil {
		return nil, rf, nil, err
	}
	cfgs, err := resolveJobs(rf.profile, sy.apply(grid.Jobs()))
	if err == nil && *sampler != "" {
		if !slices.Contains(noise.Names(), *sampler) {
			return nil, rf, nil, usageError{fmt.Errorf("-sampler %q: valid samplers are %s", *sampler, strings.Join(noise.Names(), ", "))}
		}
		if !slices.Contains(grid.Methods, "dw") {
			return nil, rf, nil, usageError{fmt.Errorf("-sampler %q applies to -method dw only", *sampler)}
		}
		for i := range cfgs {
			if cfgs[i].Train.Method == "dw" {
				cfgs[i].Train.Sampler = *sampler
			}
		}
	}
	for i := range cfgs {
		cfgs[i].Train.Engine = *engine
	}
	return cfgs, rf, stopAfter, err
}

func verbFor(command string) string {
	switch command {
	case "train":
		return "trained"
	case "graphs":
		return "inspected"
	}
	return "printed"
}

func cmdConfig(args []string) error {
	cs, _, _, err := selectRuns("config", args, false)
	if err != nil {
		return err
	}
	for _, c := range cs {
		fmt.Fprintf(stdout, "%s\n", c.JSON())
	}
	return nil
}

// cmdTrain trains the selected runs one after the other. -stop-after applies to each run; a run it
// stopped early makes the exit status 75 after the others have had their turn.
func cmdTrain(args []string) error {
	cs, rf, stopAfter, err := selectRuns("train", args, true)
	if err != nil {
		return err
	}
	runNotices(stderr, cs, rf.options())
	ctx, stop := interruptible()
	defer stop()
	var stopped error
	for _, c := range cs {
		err := trainOne(ctx, c, rf, *stopAfter)
		if errors.Is(err, experiment.ErrStopped) {
			stopped = err
			continue
		}
		if err != nil {
			return err
		}
	}
	return stopped
}

func trainOne(ctx context.Context, c experiment.RunConfig, rf runFlags, stopAfter int) error {
	opt := rf.options()
	opt.StopAfter = stopAfter
	opt.Reporter = newReporter()
	opt.Log = stderr
	opt.Context = ctx
	dir, err := opt.Dir(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "dw: %s on backend %s -> %s\n", c.Name(), backend.Config(), dir)
	from := "" // where a finished run's result is read back from
	if !rf.force {
		if _, p, err := experiment.ReadFinished(c, opt); err == nil {
			from = p
		}
	}
	r, err := experiment.Run(c, opt)
	if err != nil {
		switch {
		case errors.Is(err, experiment.ErrExists):
			return fmt.Errorf("%w (pass -resume to continue it or -force to start over)", err)
		case errors.Is(err, experiment.ErrInterrupted):
			return interrupted(err)
		case errors.Is(err, train.ErrDiverged):
			return fmt.Errorf("%w\n(to train with another learning rate: dw config %s > run.json, lower \"lr\" in it, then dw train -config run.json -force)", err, selectFlags(c))
		}
		return err
	}
	noteUnchecked([]*experiment.Result{r})
	path := filepath.Join(dir, experiment.ResultFile)
	switch {
	case from == path:
		fmt.Fprintf(stderr, "dw: %s has finished before: its result is read back, nothing trained (use -force to retrain)\n", c.Name())
	case from != "":
		path = from
		fmt.Fprintf(stderr, "dw: %s has finished before: its result is read back from the archive (%s), nothing trained (use -force to retrain)\n", c.Name(), from)
	}
	fmt.Fprintf(stdout, "%s: test rel-L2 %.5f (h = 1..%d, %d units, %d origins); best epoch %d of %d (val %.5f, stopped: %s); %.2f s/epoch; %s\n",
		c.Name(), r.Test.RelL2, c.HEval, r.Test.Units, r.Test.Origins, r.BestEpoch, len(r.Epochs), r.BestVal, r.StopReason,
		r.SecondsPerEpoch, path)
	return nil
}

func cmdEval(args []string) error {
	fs := newFlags("eval", "-run DIR [-split test|val] [-protocol test|val] [-H H] [-origins N] | -run DIR -record")
	dir := fs.String("run", "", "run directory (holding config.json and best.ckpt)")
	split := fs.String("split", experiment.SplitTest, "the split to score: test or val")
	protocol := fs.String("protocol", experiment.SplitTest, "test: the test context, horizon and origins; val: the validation loss's (training context, h = 1..K)")
	H := fs.Int("H", 0, "evaluation horizon (0: the protocol's, ceil(1.5 K) for test, K for val)")
	origins := fs.Int("origins", 0, "at most this many origins per unit (0: the protocol's)")
	curve := fs.Bool("curve", false, "also print the per-horizon rel-L2")
	cache := fs.String("cache", "", "cache of generated trajectories (default <repo>/data/cache)")
	ett := fs.String("ett", "", "directory of the ETT files (default <repo>/../shared/data/ett)")
	dataFile := fs.String("data", "", "a CSV run's file, when it is no longer where the run recorded it (its SHA-256 must be the run's)")
	record := fs.Bool("record", false, "score the validation split under the test protocol and write it into the run's result.json (val_at_test, what dw compare chooses profiles on; runs trained since it exists have it)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{errors.New("-run is required")}
	}
	if *record {
		if *split != experiment.SplitTest || *protocol != experiment.SplitTest || *H != 0 || *origins != 0 || *curve {
			return usageError{errors.New("-record scores the validation split under the test protocol: it takes none of -split, -protocol, -H, -origins and -curve")}
		}
		s, err := experiment.RecordValAtTest(*dir, experiment.Options{DataCache: *cache, ETTDir: *ett, DataFile: *dataFile})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: val rel-L2 %.5f (test protocol: h = 1..%d, %d units, %d origins), in its result.json\n", *dir, s.RelL2, len(s.PerHorizon), s.Units, s.Origins)
		return nil
	}
	for _, f := range []struct{ name, v string }{{"-split", *split}, {"-protocol", *protocol}} {
		if f.v != experiment.SplitTest && f.v != experiment.SplitVal {
			return usageError{fmt.Errorf("%s %q: want test or val", f.name, f.v)}
		}
	}
	if *H < 0 || *origins < 0 {
		return usageError{fmt.Errorf("-H %d and -origins %d must not be negative (0: the protocol's)", *H, *origins)}
	}
	spec := experiment.EvalSpec{Split: *split, Protocol: *protocol, H: *H, Origins: *origins}
	c, s, err := experiment.EvaluateRunSpec(*dir, spec, experiment.Options{DataCache: *cache, ETTDir: *ett, DataFile: *dataFile})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s rel-L2 %.5f (%s protocol: h = 1..%d, %d units, %d origins)\n",
		c.Name(), *split, s.RelL2, *protocol, len(s.PerHorizon), s.Units, s.Origins)
	if *curve {
		for h, v := range s.PerHorizon {
			fmt.Fprintf(stdout, "%d\t%.6f\n", h+1, v)
		}
	}
	return nil
}

// gridFlags selects the jobs of sweep and table.
type gridFlags struct {
	preset, testbeds, methods, seeds, ks, name, sampler string
	data                                                dataFlags
	synth                                               synthFlags
	allowChoose                                         bool // dw sweep: -sampler choose:... is its to run
}

// synthFlags are -channels and -participant: which stand-in data set (ieeg-synth, fmri-synth) or
// manifest participant the runs use.
type synthFlags struct{ channels, participant int }

func (s *synthFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&s.channels, "channels", 0, "ieeg-synth channels (40 or 80; default 40) or fmri-synth parcels (default 32); runs go to <testbed>-c<N>")
	fs.IntVar(&s.participant, "participant", 0, "ieeg-synth participant or manifest participant index (default 0); runs go to <testbed>-p<N>")
}

// apply sets the flags on the jobs.
func (s synthFlags) apply(jobs []experiment.Job) []experiment.Job {
	for i := range jobs {
		jobs[i].Channels, jobs[i].Participant = s.channels, s.participant
	}
	return jobs
}

func (g *gridFlags) register(fs *flag.FlagSet) {
	g.data.register(fs)
	g.synth.register(fs)
	fs.StringVar(&g.preset, "preset", "", "named job list: "+strings.Join(experiment.PresetNames(), ", "))
	pluralFlag(fs, &g.testbeds, "testbeds", "", "comma-separated testbeds (grid)")
	pluralFlag(fs, &g.methods, "methods", "", "comma-separated methods (grid)")
	pluralFlag(fs, &g.seeds, "seeds", defaultSeeds, seedsHelp)
	fs.StringVar(&g.ks, "K", "", "comma-separated training horizons (grid; default: the profile's K)")
	fs.StringVar(&g.name, "label", "", "name of the saved table: <results>/<profile>-<label>.md (default: the preset, or \"grid\")")
	fs.StringVar(&g.sampler, "sampler", "", "DW noise sampler of the dw runs: "+strings.Join(noise.Names(), ", ")+" (default: the profile's), or a comma-separated list (generic,prior-ar: each dw job once per sampler, side by side in the table); "+
		"dw sweep also takes choose:S1,S2,... (e.g. choose:generic,prior-ar): seed 0 runs with each, the lowest best validation loss wins, "+
		"every seed runs with the winner, and the choice is written to <runs>/<profile>/<testbed>/dw-variant-K<K>.json")
}

// choice returns the candidate samplers of -sampler choose:..., ok false for a plain sampler.
func (g *gridFlags) choice() ([]string, bool, error) {
	c, ok, err := experiment.ParseVariantCandidates(g.sampler)
	if err != nil {
		return nil, true, usageError{fmt.Errorf("-sampler: %w", err)}
	}
	return c, ok, nil
}

// withSampler sets a plain -sampler on the jobs; "choose:" is refused here (only dw sweep chooses).
func (g *gridFlags) withSampler(jobs []experiment.Job) ([]experiment.Job, error) {
	if g.sampler == "" {
		return jobs, nil
	}
	if _, ok, err := g.choice(); err != nil || ok {
		if err == nil {
			err = usageError{fmt.Errorf("-sampler %q: only dw sweep chooses the DW variant; here give the chosen sampler (the winner in <runs>/<profile>/<testbed>/dw-variant-K<K>.json)", g.sampler)}
		}
		return nil, err
	}
	// A list (-sampler generic,prior-ar) runs or tabulates each dw job once per sampler, so that
	// DW-Generic and DW-Prior sit in one table; the other methods' jobs stay as they are.
	samplers := strings.Split(g.sampler, ",")
	for _, sm := range samplers {
		if !slices.Contains(noise.Names(), sm) {
			return nil, usageError{fmt.Errorf("-sampler %q: valid samplers are %s", sm, strings.Join(noise.Names(), ", "))}
		}
	}
	var out []experiment.Job
	for _, j := range jobs {
		if j.Method != "dw" {
			out = append(out, j)
			continue
		}
		for _, sm := range samplers {
			j.Sampler = sm
			out = append(out, j)
		}
	}
	return out, nil
}

// finish applies -sampler (unless it asks for a choice) and -channels/-participant.
func (g *gridFlags) finish(jobs []experiment.Job) ([]experiment.Job, error) {
	jobs = g.synth.apply(jobs)
	if _, choose, _ := g.choice(); choose && g.allowChoose {
		return jobs, nil
	}
	return g.withSampler(jobs)
}

func (g *gridFlags) jobs() ([]experiment.Job, error) {
	if g.data.given() && g.testbeds != "" {
		return nil, errTestbedAndData
	}
	if g.preset != "" {
		if g.testbeds != "" || g.methods != "" || g.data.given() {
			return nil, usageError{errors.New("-preset replaces -testbeds/-methods and -data; give one or the other")}
		}
		jobs, err := experiment.Preset(g.preset)
		if err != nil {
			return nil, usageError{err}
		}
		return g.finish(jobs)
	}
	if g.testbeds == "" && !g.data.given() || g.methods == "" {
		return nil, usageError{errors.New("give -preset, or -testbeds and -methods, or -data FILE and -methods")}
	}
	var err error
	grid := experiment.Grid{}
	if grid.Testbeds, err = listElems("testbeds", g.testbeds); err != nil {
		return nil, err
	}
	if grid.Methods, err = listElems("methods", g.methods); err != nil {
		return nil, err
	}
	if grid.Data, err = g.data.csv(); err != nil {
		return nil, err
	}
	if grid.Seeds, err = parseSeeds(g.seeds); err != nil {
		return nil, err
	}
	if grid.Ks, err = parseKs(g.ks); err != nil {
		return nil, err
	}
	if len(grid.Testbeds) == 0 && grid.Data == nil || len(grid.Methods) == 0 {
		return nil, usageError{fmt.Errorf("the grid is empty: -testbeds %q -methods %q name no run", g.testbeds, g.methods)}
	}
	return g.finish(grid.Jobs())
}

// parseSeeds parses the comma-separated -seeds list: at least one seed, none twice (a seed given
// twice would count one run twice in the table's mean and sd).
func parseSeeds(list string) ([]uint64, error) {
	var out []uint64
	elems, err := listElems("seeds", list)
	if err != nil {
		return nil, err
	}
	for _, s := range elems {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, usageError{fmt.Errorf("-seeds: %q is not a seed", s)}
		}
		if slices.Contains(out, v) {
			return nil, usageError{fmt.Errorf("-seeds: seed %d is given twice", v)}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, usageError{errors.New("-seeds is empty: give at least one seed")}
	}
	return out, nil
}

// parseKs parses the comma-separated -K list (empty: the profile's K), no K twice.
func parseKs(list string) ([]int, error) {
	var out []int
	elems, err := listElems("K", list)
	if err != nil {
		return nil, err
	}
	for _, s := range elems {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			return nil, usageError{fmt.Errorf("-K: %q is not a horizon", s)}
		}
		if slices.Contains(out, v) {
			return nil, usageError{fmt.Errorf("-K: %d is given twice", v)}
		}
		out = append(out, v)
	}
	return out, nil
}

// resolve lists the jobs and resolves their configurations, refusing any bad name or K before
// anything runs.
func (g *gridFlags) resolve(profile string) ([]experiment.Job, []experiment.RunConfig, error) {
	jobs, err := g.jobs()
	if err != nil {
		return nil, nil, err
	}
	cfgs, err := resolveJobs(profile, jobs)
	return jobs, cfgs, err
}

// listElems splits a comma-separated list flag like splitList, but refuses an empty element
// beside others ("1,,2", "1,", ",1"): a slip in a list would otherwise run fewer runs than the
// command line says, without a word. A value with no element at all ("", ",") is an empty list,
// which the callers refuse in their own words.
func listElems(flag, s string) ([]string, error) {
	if len(splitList(s)) == 0 {
		return nil, nil
	}
	var out []string
	for i, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			return nil, usageError{fmt.Errorf("-%s %q: element %d of the list is empty", flag, s, i+1)}
		}
		out = append(out, p)
	}
	return out, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (g *gridFlags) label() string {
	if g.name != "" {
		return g.name
	}
	if g.preset != "" {
		return g.preset
	}
	return "grid"
}

func cmdSweep(args []string) error {
	fs := newFlags("sweep", "-profile P (-preset NAME | (-testbeds a,b | "+dataSynopsis+") -methods x,y [-seeds 0,1,2] [-K k1,k2]) [-jobs N | -slurm DIR [-slurm-* flags]] [flags]")
	var rf runFlags
	var gf gridFlags
	rf.register(fs)
	rf.registerResume(fs)
	gf.register(fs)
	plan := fs.Bool("plan", false, "only list the runs and their planned minibatches")
	save := fs.Bool("save", false, "also write the table to <results>/<profile>-<preset>.md (and the runs and baselines as JSON)")
	results := fs.String("results", "", "directory -save writes to (default <repo>/data/results)")
	withBaselines := registerBaselines(fs)
	parallel := fs.Int("jobs", 1, "runs trained at once in this process (they share the backend; results equal -jobs 1; capped at what the machine's memory holds)")
	archiveEach := registerArchiveEach(fs)
	var sf slurmFlags
	sf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *parallel < 1 {
		return usageError{fmt.Errorf("-jobs %d: need at least 1", *parallel)}
	}
	if err := rf.check(); err != nil {
		return err
	}
	if err := sf.needsDir(fs); err != nil {
		return err
	}
	if *save && sf.dir == "" {
		dir, err := resultsDir(*results, "-results") // before any training
		if err != nil {
			return err
		}
		*results = dir
	}
	cands, choose, err := gf.choice()
	if err != nil {
		return err
	}
	gf.allowChoose = choose
	if choose {
		if sf.dir != "" || *plan {
			return usageError{fmt.Errorf("-sampler %s runs seed 0 before the other seeds: it cannot be written as one Slurm array or planned; choose first, then sweep or -slurm with -sampler <winner>", gf.sampler)}
		}
		return sweepChoosing(rf, gf, cands, *parallel, *archiveEach, *withBaselines, *save, *results)
	}
	if sf.dir != "" {
		return sweepSlurm(&sf, rf, gf, *withBaselines, map[string]bool{"-archive-each": *archiveEach, "-force": rf.force, "-jobs": *parallel != 1, "-plan": *plan, "-save": *save})
	}
	jobs, cfgs, err := gf.resolve(rf.profile)
	if err != nil {
		return err
	}
	opt := rf.options()
	if *plan {
		return printPlan(cfgs, opt)
	}
	runNotices(stderr, cfgs, opt)
	opt.Reporter = newReporter()
	opt.Jobs = *parallel
	if *archiveEach {
		opt.AfterRun = experiment.ArchiveAfterRun(opt)
	}
	ctx, stop := interruptible()
	defer stop()
	opt.Context = ctx
	start := time.Now()
	outs, err := experiment.Sweep(rf.profile, jobs, opt)
	if errors.Is(err, experiment.ErrInterrupted) {
		return interrupted(err)
	}
	if err != nil {
		return err
	}
	rs, failed := experiment.Results(outs)
	noteUnchecked(rs)
	sets, berr := resultBaselines(*withBaselines, rs, rf)
	table := experiment.Summarize(rs, sets...).Markdown()
	fmt.Fprintf(stdout, "%s\n%d runs (%s profile, backend %s) in %s\n", table, len(rs), rf.profile, backend.Config(), time.Since(start).Round(time.Second))
	if *save && len(rs) > 0 {
		if err := saveTable(*results, rf.profile, gf.label(), table, time.Since(start), *parallel, rs, sets); err != nil {
			return err
		}
	}
	return errors.Join(failed, berr)
}

// sweepChoosing is dw sweep -sampler choose:...: the DW variant chosen by seed-0 validation loss
// (experiment.SweepChoosingVariant), then the sweep with the winner, its table as dw sweep's.
func sweepChoosing(rf runFlags, gf gridFlags, cands []string, parallel int, archiveEach, withBaselines, save bool, results string) error {
	sampler := gf.sampler
	jobs, err := gf.jobs()
	if err != nil {
		return err
	}
	opt := rf.options()
	opt.Reporter = newReporter()
	opt.Jobs = parallel
	if archiveEach {
		opt.AfterRun = experiment.ArchiveAfterRun(opt)
	}
	ctx, stop := interruptible()
	defer stop()
	opt.Context = ctx
	start := time.Now()
	outs, choices, err := experiment.SweepChoosingVariant(rf.profile, jobs, cands, opt)
	if errors.Is(err, experiment.ErrInterrupted) {
		return interrupted(err)
	}
	if err != nil {
		return err
	}
	rs, failed := experiment.Results(outs)
	noteUnchecked(rs)
	sets, berr := resultBaselines(withBaselines, rs, rf)
	table := experiment.Summarize(rs, sets...).Markdown()
	fmt.Fprintf(stdout, "%s\n%d runs (%s profile, backend %s, -sampler %s) in %s\n", table, len(rs), rf.profile, backend.Config(), sampler, time.Since(start).Round(time.Second))
	for _, c := range choices {
		fmt.Fprintf(stdout, "DW variant for %s K=%d: %s (seed-%d best validation loss:", c.Testbed, c.K, c.Winner, c.Seed)
		for _, v := range c.Candidates {
			if v.Error != "" {
				fmt.Fprintf(stdout, " %s failed", v.Sampler)
			} else {
				fmt.Fprintf(stdout, " %s %.5g", v.Sampler, v.BestVal)
			}
		}
		fmt.Fprintln(stdout, ")")
	}
	if save && len(rs) > 0 {
		if err := saveTable(results, rf.profile, gf.label(), table, time.Since(start), parallel, rs, sets); err != nil {
			return err
		}
	}
	return errors.Join(failed, berr)
}

// printPlan lists a sweep's runs with their planned minibatches and where each stands (finished
// here or in the archive, part-way, not started), then a summary line.
func printPlan(cfgs []experiment.RunConfig, opt experiment.Options) error {
	total, finished, archived, partway := 0, 0, 0, 0
	for _, c := range cfgs {
		st, err := experiment.StateOf(c, opt)
		if err != nil {
			return err
		}
		switch {
		case st.Finished == experiment.InArchive:
			finished++
			archived++
		case st.Finished != "":
			finished++
		case st.Epoch > 0:
			partway++
		}
		n := experiment.PlannedBatches(c)
		total += n
		fmt.Fprintf(stdout, "%-40s %6d minibatches of %d windows (K=%d, %d epochs)  %s\n", c.Name(), n, c.Train.BatchSize, c.Train.K, c.Fit.Epochs, st)
	}
	fmt.Fprintf(stdout, "%d runs, %d minibatches at most; %d finished (%d in the archive only), %d part-way, %d not started\n",
		len(cfgs), total, finished, archived, partway, len(cfgs)-finished-partway)
	return nil
}

// registerArchiveEach adds the -archive-each flag of sweep, ksweep and select.
func registerArchiveEach(fs *flag.FlagSet) *bool {
	return fs.Bool("archive-each", false, "copy each run's result into the archive (-archive, default <repo>/data/results/runs) as soon as it finishes (ksweep: with its score at H), so a sweep or selection cut short by a session's or job's end keeps every run it finished")
}

// registerBaselines adds the -baselines flag of sweep and table.
func registerBaselines(fs *flag.FlagSet) *bool {
	return fs.Bool("baselines", true, "also show the zero, damped-persistence and ridge-AR baselines scored under the runs' protocol (cached under -runs; scored when missing or stale)")
}

// resultBaselines reads back or scores the baselines of the results' testbeds, seeds and
// protocols (nothing when on is false), logging what it scores to stderr.
func resultBaselines(on bool, rs []*experiment.Result, rf runFlags) ([]*experiment.BaselineSet, error) {
	if !on || len(rs) == 0 {
		return nil, nil
	}
	opt := experiment.Options{RunsDir: rf.runs, DataCache: rf.cache, ETTDir: rf.ett, Force: rf.force, Log: stderrLog("dw: ")}
	return experiment.ResultBaselines(rs, opt)
}

func cmdTable(args []string) error {
	fs := newFlags("table", "-profile P (-preset NAME | grid flags, -data FILE.csv among them)")
	var rf runFlags
	var gf gridFlags
	rf.register(fs)
	gf.register(fs)
	withBaselines := registerBaselines(fs)
	save := fs.Bool("save", false, "also write the table to <results>/<profile>-<label>.md (and the runs and baselines as JSON), naming the runs that have no result yet")
	results := fs.String("results", "", "directory -save writes to (default <repo>/data/results)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *save {
		dir, err := resultsDir(*results, "-results") // before any run is read or baseline scored
		if err != nil {
			return err
		}
		*results = dir
	}
	_, cfgs, err := gf.resolve(rf.profile)
	if err != nil {
		return err
	}
	var rs []*experiment.Result
	var missing []string
	for _, c := range cfgs {
		r, _, err := experiment.ReadFinished(c, rf.options())
		if err != nil {
			return err
		}
		if r == nil {
			missing = append(missing, c.Name())
			continue
		}
		rs = append(rs, r)
	}
	noteUnchecked(rs)
	sets, berr := resultBaselines(*withBaselines, rs, rf)
	table := experiment.Summarize(rs, sets...).Markdown()
	fmt.Fprint(stdout, table)
	if *save && len(rs) > 0 {
		if err := saveTable(*results, rf.profile, gf.label(), table, 0, 0, rs, sets, missing...); err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		berr = errors.Join(fmt.Errorf("%d of %d runs have no result yet: %s", len(missing), len(cfgs), strings.Join(missing, ", ")), berr)
	}
	return berr
}

package data

import (
	"fmt"
	"strings"
)

// DefaultGenSeed is the fixed data-generation seed of the synthetic testbeds.
// It is deliberately separate from the experimental seed (Options.Seed),
// which only chooses the split: Appendix F.1 generates the trajectories once
// "using a fixed data-generation seed" and re-splits them per matched seed.
const DefaultGenSeed uint64 = 20260101

// Options tunes [Load]. The zero value gives the paper's configuration with
// experimental seed 0 and the default cache.
type Options struct {
	// Seed is the experimental (matched) seed; it selects the 70/15/15
	// split of the synthetic trajectories. ETT splits are chronological
	// and ignore it.
	Seed uint64

	// GenSeed overrides DefaultGenSeed for synthetic testbeds (0: default).
	GenSeed uint64

	// NumTraj and Length override the number and length of generated
	// trajectories, e.g. for quick profiles (0: the testbed default). For
	// ETT, Length is the unit length (default 256) and NumTraj must be 0:
	// the number of units follows from the fixed chronological split.
	NumTraj, Length int

	// DriveScale is lambda_D for "driven-mg" (0: DefaultDriveScale, .08).
	// Histories, drive realisations and splits do not depend on it, so a
	// sweep over it varies only the drive strength. For lambda_D = 0 use
	// "mackey-glass", which has the same states.
	DriveScale float64

	// Generator selects the synthetic data recipe: "" or "project" (this
	// project's generators, the default) or "authors" (the release's, see
	// MGConfig.Generator and NARMAConfig.Generator). Only mackey-glass,
	// driven-mg and narma5 implement "authors"; the others refuse it rather
	// than silently ignore it.
	Generator string

	// ScalarNorm standardises the state with one mean and one standard
	// deviation pooled over all training trajectories, time steps and
	// channels (the release's normalisation, FitScalarAffine) instead of
	// per coordinate. Drives keep their raw scale either way, as in the
	// release. Synthetic testbeds only. It is not part of the cache key:
	// the cache holds raw trajectories and standardisation happens after
	// reading them, so both settings share (and cannot corrupt) one file.
	ScalarNorm bool

	// Channels is the channel (ieeg-synth) or parcel (fmri-synth) count
	// (0: the testbed default, 40 for ieeg-synth, 32 for fmri-synth); the
	// paper's iEEG participants have 40 or 80 channels. Participant picks
	// the ieeg-synth participant (mixing and response; 0 is the first).
	// One participant per dataset keeps StateDim fixed.
	Channels, Participant int
	// FieldGrid, Subsample, SeqLen and SeqStride shape the field testbed (shear) and are refused
	// by the others: the simulated grid's NX (ShearGridPaper 64, the default, or ShearGridCPU 32;
	// NY = 2·NX), the spatial subsampling factor (1), and the cut of each trajectory into
	// SeqLen-frame sequences (64) starting every SeqStride frames (16). For shear, NumTraj is the
	// number of trajectories (40) and Length their frames (200). Only FieldGrid, NumTraj,
	// Length and GenSeed are in the cache key: the subsampling and the cut happen after reading.
	FieldGrid, Subsample, SeqLen, SeqStride int

	// ETTDir holds ETTm1.csv.gz / ETTm2.csv.gz ("": <repo>/../shared/data/ett).
	ETTDir string

	// NoCalendar leaves the six calendar coordinates out of the ETT testbeds' drive, so that
	// the forecaster sees the seven series alone (DriveDim 0), as the baselines may. The
	// 12-month training split holds each day of the year once: with the calendar as input a
	// forecaster can tie a season's course to the date it had in the training year, which the
	// validation and test months (the next year) do not repeat. ETT only; refused by the others.
	NoCalendar bool

	// CacheDir holds generated trajectories ("": <repo>/data/cache).
	// NoCache generates in memory without reading or writing any file.
	CacheDir string
	NoCache  bool
}

type entry struct {
	name string
	load func(name string, opt Options) (*Dataset, error)
}

var registry = []entry{
	{"known-snr", loadKnownSNR},
	{"mackey-glass", loadMG},
	{"driven-mg", loadMG},
	{"narma5", loadNARMA},
	{"ettm1", loadETT},
	{"ettm2", loadETT},
	{"ieeg-synth", loadIEEGSynth},
	{"fmri-synth", loadFMRISynth},
	{ShearName, loadShear},
}

// Names lists the dataset names accepted by [Load].
func Names() []string {
	out := make([]string, len(registry))
	for i, e := range registry {
		out[i] = e.name
	}
	return out
}

// Load builds the named testbed. Unknown names produce an error listing the
// valid ones.
func Load(name string, opt Options) (*Dataset, error) {
	if err := checkGenerator("Options.Generator", opt.Generator); err != nil {
		return nil, err
	}
	for _, e := range registry {
		if e.name == name {
			if (opt.Channels != 0 || opt.Participant != 0) && name != "ieeg-synth" && name != "fmri-synth" {
				return nil, fmt.Errorf("data: %s: Options.Channels (%d) and Participant (%d) apply to ieeg-synth, fmri-synth and manifests only", name, opt.Channels, opt.Participant)
			}
			if err := opt.checkFieldOptions(name); err != nil {
				return nil, err
			}
			if opt.NoCalendar && !strings.HasPrefix(name, "ett") {
				return nil, fmt.Errorf("data: %s: Options.NoCalendar applies to ettm1 and ettm2 only (a CSV data set sets its spec's calendar)", name)
			}
			return e.load(name, opt)
		}
	}
	if path, ok := IsManifest(name); ok {
		return LoadManifest(path, opt)
	}
	return nil, fmt.Errorf("data: unknown dataset %q (or manifest:PATH for a JSON manifest of real data); valid names: %s", name, strings.Join(Names(), ", "))
}

func (o Options) genSeed() uint64 {
	if o.GenSeed == 0 {
		return DefaultGenSeed
	}
	return o.GenSeed
}

func (o Options) sizes(n, T *int) error {
	if o.NumTraj < 0 || o.Length < 0 {
		return fmt.Errorf("data: NumTraj (%d) and Length (%d) must not be negative", o.NumTraj, o.Length)
	}
	if o.NumTraj > 0 {
		*n = o.NumTraj
	}
	if o.Length > 0 {
		*T = o.Length
	}
	return nil
}

func (o Options) cacheDir() (string, error) {
	if o.NoCache {
		return "", nil
	}
	if o.CacheDir != "" {
		return o.CacheDir, nil
	}
	return DefaultCacheDir()
}

// onlyProjectGenerator refuses Options.Generator "authors" for testbeds that
// have no authors' recipe here.
func (o Options) onlyProjectGenerator(name string) error {
	if isAuthors(o.Generator) {
		return fmt.Errorf("data: %s: Options.Generator %q is implemented only for %s", name, o.Generator, authorsTestbeds)
	}
	return nil
}

// fit returns the training-split normaliser fit that opt selects.
func (o Options) fit(standardizeDrive bool) func([]Series) Normalizer {
	if o.ScalarNorm {
		return func(tr []Series) Normalizer { return FitScalarNormalizer(tr, standardizeDrive) }
	}
	return func(tr []Series) Normalizer { return FitNormalizer(tr, standardizeDrive) }
}

// synthetic generates (or reuses) raw trajectories and splits them by the
// experimental seed.
func synthetic(name string, opt Options, key string, standardizeDrive bool, gen func() ([]Series, error)) (*Dataset, error) {
	dir, err := opt.cacheDir()
	if err != nil {
		return nil, err
	}
	raw, _, err := loadOrGenerate(dir, name, key, gen)
	if err != nil {
		return nil, err
	}
	sp, err := RandomSplit(len(raw), opt.Seed)
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", name, err)
	}
	return datasetFromSplit(name, raw, sp, opt.fit(standardizeDrive))
}

func loadKnownSNR(name string, opt Options) (*Dataset, error) {
	if err := opt.onlyProjectGenerator(name); err != nil {
		return nil, err
	}
	c := DefaultAR1Config()
	c.Seed = opt.genSeed()
	if err := opt.sizes(&c.NumTraj, &c.Length); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return synthetic(name, opt, c.cacheKey(), false, func() ([]Series, error) { return GenerateAR1(c) })
}

func loadMG(name string, opt Options) (*Dataset, error) {
	c := DefaultMGConfig()
	if name == "driven-mg" {
		c = DefaultDrivenMGConfig()
		if opt.DriveScale < 0 {
			return nil, fmt.Errorf("data: driven-mg: DriveScale must be >= 0, got %v", opt.DriveScale)
		}
		if opt.DriveScale > 0 {
			c.DriveScale = opt.DriveScale
		}
	} else if opt.DriveScale != 0 {
		return nil, fmt.Errorf("data: mackey-glass is autonomous; use driven-mg for DriveScale %v", opt.DriveScale)
	}
	c.Seed = opt.genSeed()
	c.Generator = opt.Generator
	if err := opt.sizes(&c.NumTraj, &c.Length); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	// The MG drive is unit-variance by construction and keeps its scale, so
	// lambda_D keeps its meaning across the sweep.
	return synthetic(name, opt, c.cacheKey(), false, func() ([]Series, error) { return GenerateMackeyGlass(c) })
}

func loadIEEGSynth(name string, opt Options) (*Dataset, error) {
	c, err := ieegConfig(name, opt)
	if err != nil {
		return nil, err
	}
	dir, err := opt.cacheDir()
	if err != nil {
		return nil, err
	}
	raw, _, err := loadOrGenerate(dir, name, c.cacheKey(), func() ([]Series, error) {
		recs, err := GenerateIEEGRecordings(c)
		out := make([]Series, len(recs))
		for i, r := range recs {
			out[i] = r.Series
		}
		return out, err
	})
	if err != nil {
		return nil, err
	}
	chunk, gap := c.chunkGap()
	plan, err := MovieSplit(c.Length, chunk, gap)
	if err != nil {
		return nil, fmt.Errorf("data: %s: %w", name, err)
	}
	// The movie-time split is fixed (the paper's), so Options.Seed does not change it.
	return movieDataset(name, raw, plan, opt.fit(false))
}

// ieegConfig is the generator configuration that opt selects for ieeg-synth.
func ieegConfig(name string, opt Options) (IEEGSynthConfig, error) {
	c := DefaultIEEGSynthConfig()
	if err := opt.onlyProjectGenerator(name); err != nil {
		return c, err
	}
	c.Seed = opt.genSeed()
	if err := opt.sizes(&c.Recordings, &c.Length); err != nil {
		return c, err
	}
	if opt.Channels < 0 || opt.Participant < 0 {
		return c, fmt.Errorf("data: %s: Channels (%d) and Participant (%d) must not be negative", name, opt.Channels, opt.Participant)
	}
	if opt.Channels > 0 {
		c.Channels = opt.Channels
	}
	c.Participant = opt.Participant
	return c, c.validate()
}

func loadNARMA(name string, opt Options) (*Dataset, error) {
	c := DefaultNARMAConfig()
	c.Seed = opt.genSeed()
	c.Generator = opt.Generator
	if err := opt.sizes(&c.NumTraj, &c.Length); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	// "the NARMA inputs retain their original scale" (Appendix F.1).
	return synthetic(name, opt, c.cacheKey(), false, func() ([]Series, error) { return GenerateNARMA5(c) })
}

func loadETT(name string, opt Options) (*Dataset, error) {
	if err := opt.onlyProjectGenerator(name); err != nil {
		return nil, err
	}
	if opt.ScalarNorm {
		return nil, fmt.Errorf("data: %s: Options.ScalarNorm true is implemented only for synthetic testbeds (the release's ETT standardisation was not verified)", name)
	}
	if opt.NumTraj != 0 {
		return nil, fmt.Errorf("data: %s: NumTraj is fixed by the chronological split; set Length to change the unit length", name)
	}
	unitLen := ETTUnitLen
	if err := opt.sizes(new(int), &unitLen); err != nil {
		return nil, err
	}
	dir, err := opt.ettDir()
	if err != nil {
		return nil, err
	}
	path, err := ettFile(dir, name)
	if err != nil {
		return nil, err
	}
	spec := ETTSpec(name, unitLen)
	if opt.NoCalendar {
		spec.Calendar = CalendarNone
	}
	tab, err := ReadCSV(path, spec)
	if err != nil {
		return nil, err
	}
	d, err := tab.Dataset()
	if err != nil {
		return nil, err
	}
	d.Files = []FileDigest{tab.File}
	return d, nil
}

// ettDir is Options.ETTDir or the default.
func (o Options) ettDir() (string, error) {
	if o.ETTDir != "" {
		return o.ETTDir, nil
	}
	return DefaultETTDir()
}

package regime

import (
	"fmt"
	"slices"
)

// Which split is scored.
const (
	// ScoreTest fits on train+validation after the width is chosen on validation, and scores the
	// test split once (the paper's text; the authors' cross-testbed map).
	ScoreTest = "test"
	// ScoreValidation keeps the test split untouched: the width is chosen on the first half of the
	// validation units, the probes are refitted on train plus that half and scored on the second
	// half (the authors' drive-sweep launcher, `--screen-on-validation`).
	ScoreValidation = "validation"
)

// Config is one probe run. [DefaultConfig] fills it from the paper's settings table; zero fields
// of a hand-made Config are completed by the same defaults (see withDefaults).
type Config struct {
	// Horizons k (ascending, >= 1) and candidate history widths W (ascending, >= 1).
	Horizons, Windows []int
	// PCADim is the history PCA dimension, Neighbors the kNN q, Ridge the relative ridge
	// coefficient (DefaultRidge).
	PCADim, Neighbors int
	Ridge             float64
	// LongMin: the long-horizon scores average over horizons k >= LongMin (8).
	LongMin int

	// At most this many units of each split are used (64, 32, 32 as in the authors' probe; a
	// random subset when there are more), and at most this many examples are drawn from the
	// fitting, validation and scored units (2048, 1024, 1024). PCAFrames caps the training frames
	// the PCA is fitted on (2048). A negative value means "all".
	MaxTrainUnits, MaxValUnits, MaxTestUnits int
	FitExamples, ValExamples, TestExamples   int
	PCAFrames                                int

	// Null is NullPermute (the authors' code, default) or NullCircular (the paper's text);
	// NullRepeats nulls are drawn (8) and each unit's null risk is their median. NullMinShift is
	// the smallest circular offset (0: the longest window plus the longest horizon).
	Null         string
	NullRepeats  int
	NullMinShift int

	// Score is ScoreTest (default) or ScoreValidation.
	Score string

	// DriveShift moves the drive window: the features at horizon k are
	// Drive[Start+DriveShift .. Start+DriveShift+k−1]. 0 (the authors' code) is the drive rows
	// paired with the k target states; with the authors' Mackey–Glass data, Drive[t] is the forcing
	// that produced X[t], so these are exactly the forcings of the predicted interval. −1 reads the
	// rows one step earlier, which is the same interval under this project's convention that
	// Drive[t] acts over t → t+1 (project-generator Mackey–Glass, NARMA).
	DriveShift int

	// Seed derives every random stream of the run.
	Seed uint64
}

// withDefaults completes zero fields and checks the result.
func (c Config) withDefaults() (Config, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.PCADim, 8)
	def(&c.Neighbors, DefaultNeighbors)
	def(&c.LongMin, 8)
	def(&c.MaxTrainUnits, 64)
	def(&c.MaxValUnits, 32)
	def(&c.MaxTestUnits, 32)
	def(&c.FitExamples, 2048)
	def(&c.ValExamples, 1024)
	def(&c.TestExamples, 1024)
	def(&c.PCAFrames, 2048)
	def(&c.NullRepeats, 8)
	if c.Ridge == 0 {
		c.Ridge = DefaultRidge
	}
	if c.Null == "" {
		c.Null = NullPermute
	}
	if c.Score == "" {
		c.Score = ScoreTest
	}
	if err := ascending("Horizons", c.Horizons); err != nil {
		return c, err
	}
	if err := ascending("Windows", c.Windows); err != nil {
		return c, err
	}
	if c.Horizons[len(c.Horizons)-1] < c.LongMin {
		return c, fmt.Errorf("regime: no horizon reaches LongMin = %d (horizons %v)", c.LongMin, c.Horizons)
	}
	if c.Null != NullPermute && c.Null != NullCircular {
		return c, fmt.Errorf("regime: Null %q, want %q or %q", c.Null, NullPermute, NullCircular)
	}
	if c.Score != ScoreTest && c.Score != ScoreValidation {
		return c, fmt.Errorf("regime: Score %q, want %q or %q", c.Score, ScoreTest, ScoreValidation)
	}
	if c.PCADim < 1 || c.Neighbors < 1 || c.NullRepeats < 1 || c.Ridge < 0 {
		return c, fmt.Errorf("regime: need PCADim, Neighbors, NullRepeats >= 1 and Ridge >= 0, got %d, %d, %d, %v",
			c.PCADim, c.Neighbors, c.NullRepeats, c.Ridge)
	}
	return c, nil
}

// maxW and maxH are the longest candidate width and horizon.
func (c Config) maxW() int { return c.Windows[len(c.Windows)-1] }
func (c Config) maxH() int { return c.Horizons[len(c.Horizons)-1] }

func ascending(name string, v []int) error {
	if len(v) == 0 || v[0] < 1 || !slices.IsSorted(v) || len(slices.Compact(slices.Clone(v))) != len(v) {
		return fmt.Errorf("regime: %s %v must be non-empty, ascending, distinct and >= 1", name, v)
	}
	return nil
}

// Quick shrinks c to a smoke test that runs in a fraction of a second on tiny data (the notebooks'
// quick profile): horizons 1, 2, 4, 8, windows up to 4, 256 fitting and 128 validation and scored
// examples, 256 PCA frames and 2 null repeats. The procedure is unchanged.
func (c Config) Quick() Config {
	c.Horizons = []int{1, 2, 4, 8}
	var w []int
	for _, v := range c.Windows {
		if v <= 4 {
			w = append(w, v)
		}
	}
	c.Windows = w
	c.FitExamples, c.ValExamples, c.TestExamples, c.PCAFrames, c.NullRepeats = 256, 128, 128, 256, 2
	return c
}

package regime

import (
	"fmt"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/progress"
)

// SweepPoint is one drive scale of the Mackey–Glass drive sweep: the term magnitudes of its
// training trajectories and the probe result.
type SweepPoint struct {
	Lambda float64
	Terms  Terms
	Result *Result
}

// SweepConfig is the drive sweep's probe configuration as the authors' sweep launcher runs it:
// the Mackey–Glass settings, horizons 1..32 (SweepHorizons), and the test split kept untouched
// (ScoreValidation: W chosen on the first half of the validation trajectories, scores on the
// second half). Set Score = ScoreTest for the paper's text ("evaluated once on the test split").
func SweepConfig() Config {
	c, _ := DefaultConfig("driven-mg")
	c.Horizons = slices.Clone(SweepHorizons)
	c.Score = ScoreValidation
	return c
}

// DriveSweep runs the probes at each drive scale λ_D. load(λ) must return the driven
// Mackey–Glass testbed at that scale with everything else held fixed (initial histories, drive
// realisations, split), which data.Load does for "driven-mg" with Options.DriveScale; mg gives the
// equation's parameters for the term magnitudes (its DriveScale is replaced by λ). The probe
// configuration and its seed are the same at every scale, so only the drive strength varies.
func DriveSweep(lambdas []float64, load func(lambda float64) (*data.Dataset, error), mg data.MGConfig, c Config, rep progress.Reporter) ([]SweepPoint, error) {
	var out []SweepPoint
	for _, lambda := range lambdas {
		ds, err := load(lambda)
		if err != nil {
			return nil, fmt.Errorf("regime: drive sweep λ_D = %v: %w", lambda, err)
		}
		m := mg
		m.DriveScale = lambda
		terms, err := TermMagnitudes(RawTrain(ds), m)
		if err != nil {
			return nil, err
		}
		res, err := Run(ds, c, rep)
		if err != nil {
			return nil, fmt.Errorf("regime: drive sweep λ_D = %v: %w", lambda, err)
		}
		res.Name = fmt.Sprintf("driven-mg λ_D=%g", lambda)
		out = append(out, SweepPoint{Lambda: lambda, Terms: terms, Result: res})
	}
	return out, nil
}

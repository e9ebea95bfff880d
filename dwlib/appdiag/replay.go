package appdiag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// Replay is DW's calibration pipeline run at frozen parameters (ReplayController).
type Replay struct {
	// Shares is Σ tr R̂ / Σ tr T̂ of the controller's committed route moments after each
	// calibration: what a run would log had training stopped there.
	Shares       []float64
	Microbatches int
	Seconds      float64
}

// Final returns the share after the last calibration, or NaN when none ran (a replay shorter
// than the controller's warm-up has nothing to report, and 0 would read as "no noise").
func (r *Replay) Final() float64 {
	if len(r.Shares) == 0 {
		return math.NaN()
	}
	return r.Shares[len(r.Shares)-1]
}

// ReplayController runs `epochs` epochs of DW's own training pipeline on units (windows drawn as
// fcfg groups them, microbatches through a train.Trainer with tcfg: the same probes, sampler,
// warm-up, period and route EMA) but never takes an optimizer step, so f's parameters stay where
// they are. It separates what the controller's logged noise share owes to its pipeline (one
// lagged template per minibatch, separate EMAs of R̂ and T̂) from what it owes to a model that
// moves while it calibrates: at frozen parameters only the first remains. tcfg.Method must be
// "dw"; seed draws the windows. rep (may be nil) sees one step per microbatch.
func ReplayController(bk compute.Backend, f train.Model, units []data.Series, g train.Geometry, tcfg train.Config, fcfg train.FitConfig, epochs int, seed uint64, rep progress.Reporter) (*Replay, error) {
	start := time.Now()
	if tcfg.Method != "dw" {
		return nil, fmt.Errorf("appdiag: ReplayController: method %q, want dw (only DW has a controller)", tcfg.Method)
	}
	if epochs < 1 {
		return nil, fmt.Errorf("appdiag: ReplayController: epochs = %d, must be >= 1", epochs)
	}
	fcfg = fcfg.Defaults()
	tr, err := train.NewTrainer(bk, f, tcfg)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, streamReplay))
	var groups [][]train.Pick
	for range epochs {
		gs, err := epochGroups(rng, units, g, fcfg, tr.Config().BatchSize)
		if err != nil {
			return nil, err
		}
		groups = append(groups, gs...)
	}
	rep = progress.OrNop(rep)
	rep.Start(len(groups), "controller replay at frozen parameters")
	defer rep.Finish()
	r := &Replay{}
	for i, picks := range groups {
		b, err := train.MakeBatch(units, picks, g)
		if err != nil {
			return nil, err
		}
		res, err := tr.Accumulate(b, 1)
		if err != nil {
			return nil, fmt.Errorf("appdiag: ReplayController: microbatch %d: %w", i+1, err)
		}
		r.Microbatches++
		if res.Calibration {
			r.Shares = append(r.Shares, NoiseShareOf(tr.Controller()))
		}
		rep.Step(1, fmt.Sprintf("microbatch %d, %d calibrations", i+1, len(r.Shares)))
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// epochGroups draws one epoch's microbatches as the training loop does (train.Session).
func epochGroups(rng *rand.Rand, units []data.Series, g train.Geometry, fcfg train.FitConfig, batch int) ([][]train.Pick, error) {
	if fcfg.Grouping == train.GroupTrajectories {
		return train.TrajectoryMicrobatches(rng, units, fcfg.MicroTrajectories, fcfg.StartsPerUnit, g)
	}
	picks, err := train.EpochPicks(rng, units, fcfg.StartsPerUnit, g)
	if err != nil {
		return nil, err
	}
	var out [][]train.Pick
	for i := 0; i+batch <= len(picks); i += batch {
		out = append(out, picks[i:i+batch])
	}
	return out, nil
}

// NoiseShareOf returns Σ tr R̂ / Σ tr T̂ over every route of c's committed moments, as a run's
// result records it at the end (experiment.Result.NoiseShare); 0 before any calibration.
func NoiseShareOf(c *calib.Controller) float64 {
	trT, trR := c.RouteEnergy()
	if trT == 0 {
		return 0
	}
	return trR / trT
}

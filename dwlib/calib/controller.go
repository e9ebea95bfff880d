package calib

import (
	"github.com/internal-dw/dwgo/dwlib/noise"
)

// Controller runs Algorithm 1's calibration bookkeeping for K steps × L
// layers. It is not safe for concurrent use.
//
// The controller may own the noise sampler Q_d (optional, may be nil). Owning
// it ties the sampler's commit to the controller's (Algorithm 1: "commit any
// staged sampler statistics, moments, and gains") and puts the sampler state
// into the controller's checkpoint. The caller still draws from it and stages
// residuals into it, via [Controller.Sampler].
//
// Create controllers with [New]; the zero Controller is only valid as the
// target of UnmarshalJSON.
type Controller struct {
	cfg     Config
	b       int      // 0-based index of the current minibatch = number of Commits
	cur     moments  // committed: what Gains and the diagnostics report
	staged  *moments // pending calibration, nil if none
	history []HistoryEntry
	dropped int // history entries dropped by HistoryCap
	sampler noise.Sampler
}

// HistoryEntry records the gains committed by the calibration of minibatch
// Minibatch; Gains is laid out like [Controller.Gains].
type HistoryEntry struct {
	Minibatch int       `json:"minibatch"`
	Gains     []float64 `json:"gains"`
}

// New validates cfg and returns a controller at minibatch 0 with fully open
// gains. sampler may be nil if the caller manages the noise sampler itself.
func New(cfg Config, sampler noise.Sampler) (*Controller, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Controller{cfg: cfg, cur: newMoments(cfg.K, cfg.L), sampler: sampler}, nil
}

// Config returns the configuration.
func (c *Controller) Config() Config { return c.cfg }

// Sampler returns the owned noise sampler, or nil.
func (c *Controller) Sampler() noise.Sampler { return c.sampler }

// Minibatch returns the 0-based index b of the current minibatch, i.e. the
// number of Commit calls so far.
func (c *Controller) Minibatch() int { return c.b }

// IsCalibration reports whether the current minibatch runs the probes.
func (c *Controller) IsCalibration() bool { return c.cfg.IsCalibration(c.b) }

// Gains returns a copy of the COMMITTED gains, flat [K][L][2] with
// (alpha, m) at index 2*(k*L+l) and 2*(k*L+l)+1. These are the gains for the
// task backward of the current minibatch (Algorithm 1, line 9): all ones
// during warm-up, and unaffected by a pending Stage.
func (c *Controller) Gains() []float64 {
	g := make([]float64, len(c.cur.gains))
	copy(g, c.cur.gains)
	return g
}

// Gains32 is [Controller.Gains] converted to float32, for float32 graphs.
func (c *Controller) Gains32() []float32 {
	g := make([]float32, len(c.cur.gains))
	for i, v := range c.cur.gains {
		g[i] = float32(v)
	}
	return g
}

// Staged reports whether a calibration is pending Commit.
func (c *Controller) Staged() bool { return c.staged != nil }

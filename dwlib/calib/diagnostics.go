package calib

import (
	"fmt"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Route is the committed calibration state of one (k, l) route pair.
type Route struct {
	// Gains are the committed (alpha, m).
	Gains [2]float64
	// T is the EMA total moment T̂ (eq. plugin-route-moments).
	T wiener.Sym2
	// R is the EMA noise moment R̂; zero until the first noise probe.
	R wiener.Sym2
	// P is Π_PSD(T̂ - R̂) as used by the solve that produced Gains (it is not
	// refreshed by calibrations whose noise was not ready).
	P wiener.Sym2
	// Candidate and Fallback are the last solve's wiener.Solution fields; both
	// are empty if the route was never solved.
	Candidate, Fallback string
	// TotProbes and NoiseProbes count the observations folded into T̂ and R̂.
	TotProbes, NoiseProbes int
}

// Route returns the committed state of step k (0-based) and layer l. It
// panics if k or l is out of range.
func (c *Controller) Route(k, l int) Route {
	return c.route(&c.cur, k, l)
}

// StagedRoute returns the state that a pending calibration has staged for step
// k and layer l, which Commit will make current, and true; or the zero Route
// and false when nothing is staged. It panics if k or l is out of range.
func (c *Controller) StagedRoute(k, l int) (Route, bool) {
	if c.staged == nil {
		c.route(&c.cur, k, l) // range check
		return Route{}, false
	}
	return c.route(c.staged, k, l), true
}

// StagedGains returns a copy of the gains a pending calibration has staged,
// laid out like [Controller.Gains], or nil when nothing is staged. Until
// Commit the task backward still uses [Controller.Gains].
func (c *Controller) StagedGains() []float64 {
	if c.staged == nil {
		return nil
	}
	return slices.Clone(c.staged.gains)
}

func (c *Controller) route(m *moments, k, l int) Route {
	if k < 0 || k >= c.cfg.K || l < 0 || l >= c.cfg.L {
		panic(fmt.Sprintf("calib: Route(%d, %d) out of range K=%d, L=%d", k, l, c.cfg.K, c.cfg.L))
	}
	i := k*c.cfg.L + l
	return Route{
		Gains:     [2]float64{m.gains[2*i], m.gains[2*i+1]},
		T:         m.T[i],
		R:         m.R[i],
		P:         m.P[i],
		Candidate: m.candidate[i], Fallback: m.fallback[i],
		TotProbes: m.totProbes[i], NoiseProbes: m.noiseProbes[i],
	}
}

// Calibrations returns the number of committed calibration minibatches.
func (c *Controller) Calibrations() int { return c.cur.calibrations }

// History returns a copy of the gain history, oldest first: one entry per
// commit that changed the gains, at most Config.HistoryCap entries.
func (c *Controller) History() []HistoryEntry {
	h := make([]HistoryEntry, len(c.history))
	for i, e := range c.history {
		h[i] = HistoryEntry{Minibatch: e.Minibatch, Gains: slices.Clone(e.Gains)}
	}
	return h
}

// HistoryDropped returns how many old history entries HistoryCap dropped.
func (c *Controller) HistoryDropped() int { return c.dropped }

// RouteEnergy returns Σ tr T̂ and Σ tr R̂ over every route of the committed moments: their
// ratio is the share of the total probe's route energy the noise sampler calls noise (zero before
// the first calibration).
func (c *Controller) RouteEnergy() (tot, noise float64) {
	for i := range c.cur.T {
		tot += c.cur.T[i].II + c.cur.T[i].JJ
		noise += c.cur.R[i].II + c.cur.R[i].JJ
	}
	return tot, noise
}

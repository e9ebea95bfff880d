package calib

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Stage records this calibration minibatch's probe moments and stages the
// updates of Algorithm 1, lines 6–7. tot and noiseMoments are laid out [K][L]
// (index k*L+l) and hold the reduced messages (1/D_l)·dᵀd of the total-moment
// and noise probes (App. C.3); noiseReady[k] says whether the sampler had a
// committed template at horizon k when the noise was drawn.
//
// For every (k, l) the total moment is folded into the EMA T̂. Where noise is
// ready, R̂ is folded in too, and the gains, P̂ and the solve diagnostics are
// restaged from wiener.SolveDetailed(T̂, R̂). Where noise is NOT ready, R̂, P̂,
// the gains and the diagnostics keep their committed values: the noise probe
// saw zero noise there, which is not an estimate of R. Each EMA is initialised
// by its first observation, not from zero.
//
// If noiseReady is nil the owned sampler's Ready(K) is used (the sampler's
// committed state cannot change before Commit, so it is the readiness the
// probe saw). noiseMoments may be nil when no horizon is ready; entries at horizons
// that are not ready are ignored.
//
// Stage fails, changing nothing, if the current minibatch is not a
// calibration minibatch, a calibration is already staged, or an input has
// the wrong length, a non-finite entry or a negative diagonal (a Gram matrix
// dᵀd has a non-negative diagonal). Nothing is visible until Commit.
func (c *Controller) Stage(tot, noiseMoments []wiener.Sym2, noiseReady []bool) error {
	K, L := c.cfg.K, c.cfg.L
	if !c.IsCalibration() {
		return fmt.Errorf("calib: Stage: minibatch %d is not a calibration minibatch (warm-up %d, period %d)",
			c.b, c.cfg.Warmup, c.cfg.Period)
	}
	if c.staged != nil {
		return fmt.Errorf("calib: Stage: minibatch %d already has a staged calibration (call Commit or Discard)", c.b)
	}
	if noiseReady == nil {
		if c.sampler == nil {
			return errors.New("calib: Stage: noiseReady is nil and the controller owns no sampler")
		}
		noiseReady = c.sampler.Ready(K)
	}
	if len(noiseReady) != K {
		return fmt.Errorf("calib: Stage: len(noiseReady) = %d, want K = %d", len(noiseReady), K)
	}
	if len(tot) != K*L {
		return fmt.Errorf("calib: Stage: len(tot) = %d, want K*L = %d", len(tot), K*L)
	}
	anyReady := slices.Contains(noiseReady, true)
	if anyReady && len(noiseMoments) != K*L {
		return fmt.Errorf("calib: Stage: len(noise) = %d, want K*L = %d", len(noiseMoments), K*L)
	}
	for i := range tot {
		k, l := i/L, i%L
		if err := checkGram("tot", k, l, tot[i]); err != nil {
			return err
		}
		if noiseReady[k] {
			if err := checkGram("noise", k, l, noiseMoments[i]); err != nil {
				return err
			}
		}
	}

	m := c.cur.clone()
	a := c.cfg.RouteEMA
	for i := range tot {
		m.T[i] = ema(m.T[i], tot[i], a, m.totProbes[i] == 0)
		m.totProbes[i]++
		if !noiseReady[i/L] {
			continue
		}
		m.R[i] = ema(m.R[i], noiseMoments[i], a, m.noiseProbes[i] == 0)
		m.noiseProbes[i]++
		sol := wiener.SolveDetailed(m.T[i], m.R[i])
		m.gains[2*i], m.gains[2*i+1] = sol.W[0], sol.W[1]
		m.P[i], m.candidate[i], m.fallback[i] = sol.P, sol.Candidate, sol.Fallback
	}
	m.calibrations++
	c.staged = &m
	return nil
}

// checkGram validates one reduced probe moment.
func checkGram(what string, k, l int, s wiener.Sym2) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"II", s.II}, {"IJ", s.IJ}, {"JJ", s.JJ}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("calib: Stage: %s[k=%d][l=%d].%s = %v, must be finite", what, k, l, f.name, f.v)
		}
	}
	if s.II < 0 || s.JJ < 0 {
		return fmt.Errorf("calib: Stage: %s[k=%d][l=%d] has a negative diagonal (II=%v, JJ=%v)", what, k, l, s.II, s.JJ)
	}
	return nil
}

// Commit ends the current minibatch, after its task backward and parameter
// update (Algorithm 1, line 10): a staged calibration becomes current (its
// gains are used from the next minibatch on), the owned sampler commits its
// staged statistics, and the minibatch counter advances. A commit that
// changes the gains appends a [HistoryEntry].
func (c *Controller) Commit() {
	if s := c.staged; s != nil {
		c.staged = nil
		changed := !sameBits(s.gains, c.cur.gains)
		c.cur = *s
		if changed {
			c.appendHistory(HistoryEntry{Minibatch: c.b, Gains: slices.Clone(s.gains)})
		}
	}
	if c.sampler != nil {
		c.sampler.Commit()
	}
	c.b++
}

// Discard drops the staged calibration and the owned sampler's staged
// statistics, e.g. when a minibatch is skipped; the counter does not advance.
func (c *Controller) Discard() {
	c.staged = nil
	if c.sampler != nil {
		c.sampler.Discard()
	}
}

// appendHistory appends e and enforces Config.HistoryCap (oldest dropped).
func (c *Controller) appendHistory(e HistoryEntry) {
	c.history = append(c.history, e)
	if cp := c.cfg.historyCap(); cp >= 0 && len(c.history) > cp {
		drop := len(c.history) - cp
		c.history = slices.Delete(c.history, 0, drop)
		c.dropped += drop
	}
}

package calib

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// validate checks a decoded checkpoint for corruption and internal
// consistency; errors name the JSON field.
func (j *controllerJSON) validate() error {
	if j.Version != jsonVersion {
		return fmt.Errorf("field \"version\" = %d, want %d", j.Version, jsonVersion)
	}
	if err := j.Config.Validate(); err != nil {
		return fmt.Errorf("field \"config\": %w", err)
	}
	cfg := j.Config
	if j.Minibatch < 0 {
		return fmt.Errorf("field \"minibatch\" = %d, must be >= 0", j.Minibatch)
	}
	maxCal := cfg.CalibrationsBefore(j.Minibatch)
	if err := j.Committed.validate("committed", cfg, maxCal); err != nil {
		return err
	}
	if s := j.Staged; s != nil {
		if !cfg.IsCalibration(j.Minibatch) {
			return fmt.Errorf("field \"staged\" present, but minibatch %d is not a calibration minibatch", j.Minibatch)
		}
		if err := s.validate("staged", cfg, maxCal+1); err != nil {
			return err
		}
		if err := s.validateStep(&j.Committed); err != nil {
			return err
		}
	}
	if j.HistoryDropped < 0 {
		return fmt.Errorf("field \"history_dropped\" = %d, must be >= 0", j.HistoryDropped)
	}
	if cp := cfg.historyCap(); cp >= 0 && len(j.History) > cp {
		return fmt.Errorf("field \"history\" has %d entries, more than history_cap %d", len(j.History), cp)
	}
	prev := -1
	for h, e := range j.History {
		f := fmt.Sprintf("history[%d]", h)
		if e.Minibatch <= prev || e.Minibatch >= j.Minibatch || !cfg.IsCalibration(e.Minibatch) {
			return fmt.Errorf("field %q.minibatch = %d: want an increasing calibration minibatch < %d",
				f, e.Minibatch, j.Minibatch)
		}
		prev = e.Minibatch
		if err := validateGains(f+".gains", e.Gains, cfg); err != nil {
			return err
		}
	}
	return nil
}

// validate checks one moments block; maxCal bounds its calibration count.
func (m *momentsJSON) validate(field string, cfg Config, maxCal int) error {
	n := cfg.K * cfg.L
	if m.Calibrations < 0 || m.Calibrations > maxCal {
		return fmt.Errorf("field \"%s.calibrations\" = %d, must be in [0, %d] for the schedule", field, m.Calibrations, maxCal)
	}
	if err := validateGains(field+".gains", m.Gains, cfg); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		len  int
	}{{"T", len(m.T)}, {"R", len(m.R)}, {"P", len(m.P)}, {"candidate", len(m.Candidate)},
		{"fallback", len(m.Fallback)}, {"tot_probes", len(m.TotProbes)}, {"noise_probes", len(m.NoiseProbes)}} {
		if f.len != n {
			return fmt.Errorf("field \"%s.%s\" has length %d, want K*L = %d", field, f.name, f.len, n)
		}
	}
	for i := range n {
		at := func(name string) string {
			return fmt.Sprintf("%s.%s[%d] (k=%d, l=%d)", field, name, i, i/cfg.L, i%cfg.L)
		}
		tp, np := m.TotProbes[i], m.NoiseProbes[i]
		if tp < 0 || tp > m.Calibrations {
			return fmt.Errorf("field %q = %d, must be in [0, calibrations=%d]", at("tot_probes"), tp, m.Calibrations)
		}
		if np < 0 || np > tp {
			return fmt.Errorf("field %q = %d, must be in [0, tot_probes=%d]", at("noise_probes"), np, tp)
		}
		for _, s := range []struct {
			name  string
			v     wiener.Sym2
			count int
			gram  bool
		}{{"T", m.T[i], tp, true}, {"R", m.R[i], np, true}, {"P", m.P[i], np, false}} {
			if err := validateSym(at(s.name), s.v, s.count, s.gram); err != nil {
				return err
			}
		}
		if np == 0 && (m.Gains[2*i] != 1 || m.Gains[2*i+1] != 1 || m.Candidate[i] != "" || m.Fallback[i] != "") {
			return fmt.Errorf("field %q: a route without noise probes must have gains (1, 1) and no solve diagnostics",
				at("gains"))
		}
	}
	return nil
}

// validateStep checks that staged is exactly one calibration after committed.
func (s *momentsJSON) validateStep(c *momentsJSON) error {
	if s.Calibrations != c.Calibrations+1 {
		return fmt.Errorf("field \"staged.calibrations\" = %d, want committed + 1 = %d", s.Calibrations, c.Calibrations+1)
	}
	for i := range s.TotProbes {
		if s.TotProbes[i] != c.TotProbes[i]+1 {
			return fmt.Errorf("field \"staged.tot_probes\"[%d] = %d, want committed + 1 = %d", i, s.TotProbes[i], c.TotProbes[i]+1)
		}
		if d := s.NoiseProbes[i] - c.NoiseProbes[i]; d != 0 && d != 1 {
			return fmt.Errorf("field \"staged.noise_probes\"[%d] = %d, want committed (%d) or committed + 1",
				i, s.NoiseProbes[i], c.NoiseProbes[i])
		}
	}
	return nil
}

// validateGains checks a flat [K][L][2] gain slice in [0, 1].
func validateGains(field string, g []float64, cfg Config) error {
	if len(g) != 2*cfg.K*cfg.L {
		return fmt.Errorf("field %q has length %d, want 2*K*L = %d", field, len(g), 2*cfg.K*cfg.L)
	}
	for i, v := range g {
		if !(v >= 0 && v <= 1) { // also refuses NaN
			return fmt.Errorf("field \"%s[%d]\" = %v, must be in [0, 1]", field, i, v)
		}
	}
	return nil
}

// validateSym checks a route moment: finite, zero if nothing was observed
// yet, and, for an EMA of Gram matrices (gram), a non-negative diagonal. P is
// exempt from the diagonal check: wiener.ProjectPSD may keep a diagonal of
// order -1e-13·λ_max as rounding noise.
func validateSym(field string, s wiener.Sym2, count int, gram bool) error {
	for _, v := range []float64{s.II, s.IJ, s.JJ} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("field %q = %+v, must be finite", field, s)
		}
	}
	if gram && (s.II < 0 || s.JJ < 0) {
		return fmt.Errorf("field %q = %+v has a negative diagonal", field, s)
	}
	if count == 0 && s != (wiener.Sym2{}) {
		return fmt.Errorf("field %q = %+v, must be zero before its first probe", field, s)
	}
	return nil
}

package prior

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// ARConfig configures the ridge-AR prior for any series ([BuildARBank]).
// This predictor is not in the paper: it is this project's ridge vector AR
// (baseline.Ridge: W lagged states, the observed drive, an intercept),
// cross-fitted on purged time blocks exactly like the iEEG sampler, so that
// DW-Prior exists on every testbed.
type ARConfig struct {
	// K is the bank's horizon; required.
	K int
	// Folds and Purge as in [FactorConfig] (defaults 5 and max(32, K)).
	Folds, Purge int
	// Windows and Lambdas are the candidate W and ridge strengths (on
	// baseline.RidgeSpec's mean-squared-error scale); the pair is chosen by
	// pooled held-out MSE over all folds, as (rho, p) is for iEEG.
	Windows []int
	Lambdas []float64
	// NoDrive fits without drive features even when the series have a drive.
	NoDrive bool
	// ScoreStride, BankStride, MaxBank, Seed, CrossSequenceLags as in
	// [FactorConfig].
	ScoreStride, BankStride, MaxBank int
	Seed                             uint64
	CrossSequenceLags                bool
}

// DefaultARConfig returns 5 folds, W in {1, 2, 4, 8, 16, 32}, lambda in
// {1e-6, 1e-4, 1e-2, 1}, strides 32 and 8, at most 1024 trajectories, and a
// purge gap of max(32, K): the longest lag window and the horizon, the rule
// the authors' iEEG code applies on top of its 128 (a sampling-rate-specific
// number that has no meaning for an arbitrary series).
func DefaultARConfig(K int) ARConfig {
	return ARConfig{K: K, Folds: 5, Purge: max(32, K), Windows: []int{1, 2, 4, 8, 16, 32}, Lambdas: []float64{1e-6, 1e-4, 1e-2, 1},
		ScoreStride: 32, BankStride: 8, MaxBank: DefaultMaxBank}
}

// NewARSampler is DW-Prior for any series as a run uses it: the bank of
// [BuildARBank] with [DefaultARConfig](K) and the given seed, built from
// the training split only, wrapped as the "prior-ar" noise sampler.
func NewARSampler(train []data.Series, K int, seed uint64) (*Sampler, ARSelection, error) {
	cfg := DefaultARConfig(K)
	cfg.Seed = seed
	bank, sel, err := BuildARBank(train, cfg)
	if err != nil {
		return nil, sel, err
	}
	s, err := NewSampler(Config{Name: ARName, Bank: bank})
	return s, sel, err
}

func (c ARConfig) validate() ([]int, error) {
	switch {
	case c.K < 1:
		return nil, fmt.Errorf("prior: ARConfig.K = %d, must be >= 1", c.K)
	case c.Folds < 2:
		return nil, fmt.Errorf("prior: ARConfig.Folds = %d, must be >= 2", c.Folds)
	case c.Purge < 0:
		return nil, fmt.Errorf("prior: ARConfig.Purge = %d, must be >= 0", c.Purge)
	case c.ScoreStride < 1 || c.BankStride < 1:
		return nil, fmt.Errorf("prior: ARConfig.ScoreStride = %d, BankStride = %d, must be >= 1", c.ScoreStride, c.BankStride)
	case c.MaxBank < 1:
		return nil, fmt.Errorf("prior: ARConfig.MaxBank = %d, must be >= 1", c.MaxBank)
	case len(c.Lambdas) == 0:
		return nil, errors.New("prior: ARConfig.Lambdas is empty")
	}
	for _, l := range c.Lambdas {
		if !(l >= 0) || math.IsInf(l, 0) {
			return nil, fmt.Errorf("prior: ARConfig.Lambdas has %v, must be finite and >= 0", l)
		}
	}
	var ws []int
	for _, w := range c.Windows {
		if w < 1 {
			return nil, fmt.Errorf("prior: ARConfig.Windows has %d, must be >= 1", w)
		}
		if !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil, errors.New("prior: ARConfig.Windows is empty")
	}
	slices.Sort(ws)
	return ws, nil
}

// ARSelection reports how [BuildARBank] chose (W, lambda).
type ARSelection struct {
	Window      int
	Lambda      float64
	Candidates  []Candidate // W ascending, lambda in the given order
	Folds       []TimeFold
	BankOrigins []FoldOrigin
}

// BuildARBank builds a DW-Prior bank from a dataset's training series (the
// caller passes the training split only): purged time-block folds over the
// concatenated series ([TimeFolds]), a baseline.Ridge fit on each fold's fit
// segments for each (W, lambda), closed-loop K-step forecasts at held-out
// origins (history max(Windows) rows, inside one held-out span), the pair with
// the lowest pooled held-out MSE, then at most MaxBank held-out residual
// trajectories of that pair (origins at stride BankStride from W*, subsampled
// without replacement, seeded). Fit segments shorter than W+1 rows are
// skipped. A candidate whose fit is singular or whose rollout diverges scores
// +Inf (its Reason says why); if every candidate fails, the error says so.
func BuildARBank(series []data.Series, cfg ARConfig) (*Bank, ARSelection, error) {
	ws, err := cfg.validate()
	if err != nil {
		return nil, ARSelection{}, err
	}
	xs := make([][][]float64, len(series))
	hasDrive := len(series) > 0 && series[0].Drive != nil
	var drive [][]float64
	for i, s := range series {
		xs[i] = s.X
		if (s.Drive != nil) != hasDrive || (s.Drive != nil && len(s.Drive) != len(s.X)) {
			return nil, ARSelection{}, fmt.Errorf("prior: BuildARBank: series %d has %d drive rows for %d states (series 0 has drive=%v)", i, len(s.Drive), len(s.X), hasDrive)
		}
		drive = append(drive, s.Drive...)
	}
	rows, lengths, D, err := concatRows("BuildARBank", xs)
	if err != nil {
		return nil, ARSelection{}, err
	}
	if !hasDrive || cfg.NoDrive {
		drive = nil
	}
	K, maxW := cfg.K, ws[len(ws)-1]
	folds, err := TimeFolds(lengths, cfg.Folds, cfg.Purge, cfg.CrossSequenceLags)
	if err != nil {
		return nil, ARSelection{}, err
	}
	sel := ARSelection{Folds: folds}
	units := func(f, W int) []eval.Unit {
		var us []eval.Unit
		for _, s := range folds[f].Fit {
			if s.Len() < W+1 {
				continue
			}
			u := eval.Unit{X: rows[s.Start:s.End]}
			if drive != nil {
				u.Drive = drive[s.Start:s.End]
			}
			us = append(us, u)
		}
		return us
	}
	forecast := func(m *baseline.Ridge, o int) ([]float64, error) {
		w := eval.Window{History: rows[o-m.W : o]}
		if drive != nil {
			w.HistoryDrive, w.FutureDrive = drive[o-m.W:o], drive[o:o+K]
		}
		f, err := m.Forecast(w, K)
		if err != nil {
			return nil, err
		}
		flat := make([]float64, 0, K*D)
		for _, r := range f {
			flat = append(flat, r...)
		}
		return flat, nil
	}

	origins := make([][]int, len(folds))
	count := 0
	for f, fold := range folds {
		if origins[f] = originsIn(fold.Held, maxW, K, cfg.ScoreStride); len(origins[f]) == 0 {
			return nil, sel, fmt.Errorf("prior: BuildARBank: fold %d (rows %d-%d) has no held-out origin with %d history rows and K=%d targets in one span; use fewer folds",
				f, fold.Block.Start, fold.Block.End, maxW, K)
		}
		count += len(origins[f])
	}
	// One pass over each fold's fit data per W (baseline.FitRidgePath), solved for every lambda.
	type score struct {
		acc    []float64
		reason string
	}
	cands := make([]score, len(ws)*len(cfg.Lambdas))
	for i := range cands {
		cands[i].acc = make([]float64, K)
	}
	for wi, W := range ws {
		for f := range folds {
			us := units(f, W)
			if len(us) == 0 {
				for li := range cfg.Lambdas {
					if c := &cands[wi*len(cfg.Lambdas)+li]; c.reason == "" {
						c.reason = fmt.Sprintf("fold %d has no fit segment longer than W=%d", f, W)
					}
				}
				continue
			}
			models, errs, err := baseline.FitRidgePath(us, W, cfg.Lambdas, drive == nil)
			if err != nil {
				return nil, sel, fmt.Errorf("prior: BuildARBank: fold %d, W=%d: %w", f, W, err)
			}
			for li, m := range models {
				c := &cands[wi*len(cfg.Lambdas)+li]
				if c.reason != "" {
					continue
				}
				if m == nil {
					c.reason = fmt.Sprintf("fold %d: %v", f, errs[li])
					continue
				}
				for _, o := range origins[f] {
					pred, err := forecast(m, o)
					if err != nil {
						if !errors.Is(err, baseline.ErrDiverged) {
							return nil, sel, fmt.Errorf("prior: BuildARBank: fold %d, W=%d, lambda=%g, origin %d: %w", f, W, cfg.Lambdas[li], o, err)
						}
						c.reason = fmt.Sprintf("fold %d: %v", f, err)
						break
					}
					addSquares(c.acc, residual(rows, o, pred), D)
				}
			}
		}
	}
	best := math.Inf(1)
	for wi, W := range ws {
		for li, lam := range cfg.Lambdas {
			cd := cands[wi*len(cfg.Lambdas)+li]
			c := Candidate{Window: W, Lambda: lam, Reason: cd.reason, MSE: math.Inf(1)}
			if cd.reason == "" {
				pc := poolCandidate(cd.acc, count, D)
				c.MSE, c.MSEByHorizon, c.Origins = pc.MSE, pc.MSEByHorizon, pc.Origins
			}
			if c.MSE < best {
				best, sel.Window, sel.Lambda = c.MSE, W, lam
			}
			sel.Candidates = append(sel.Candidates, c)
		}
	}
	if sel.Window == 0 {
		return nil, sel, fmt.Errorf("prior: BuildARBank: every (W, lambda) candidate failed (first: W=%d, lambda=%g: %s)",
			sel.Candidates[0].Window, sel.Candidates[0].Lambda, sel.Candidates[0].Reason)
	}

	var cand []FoldOrigin
	for f, fold := range folds {
		for _, o := range originsIn(fold.Held, sel.Window, K, cfg.BankStride) {
			cand = append(cand, FoldOrigin{Fold: f, Origin: o})
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7072696f72))
	keep := chooseWithoutReplacement(rng, len(cand), cfg.MaxBank)
	models := map[int]*baseline.Ridge{}
	bankRows := make([][]float64, 0, len(keep))
	for _, i := range keep {
		fo := cand[i]
		m := models[fo.Fold]
		if m == nil {
			if m, err = baseline.FitRidge(units(fo.Fold, sel.Window), baseline.RidgeSpec{W: sel.Window, Lambda: sel.Lambda, NoDrive: drive == nil}); err != nil {
				return nil, sel, fmt.Errorf("prior: BuildARBank: bank fold %d: %w", fo.Fold, err)
			}
			models[fo.Fold] = m
		}
		pred, err := forecast(m, fo.Origin)
		if err != nil {
			return nil, sel, fmt.Errorf("prior: BuildARBank: bank fold %d, origin %d: %w", fo.Fold, fo.Origin, err)
		}
		bankRows = append(bankRows, residual(rows, fo.Origin, pred))
		sel.BankOrigins = append(sel.BankOrigins, fo)
	}
	bank, err := NewBank(K, D, bankRows)
	if err != nil {
		return nil, sel, fmt.Errorf("prior: BuildARBank: %w", err)
	}
	return bank, sel, nil
}

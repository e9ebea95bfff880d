package prior

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// SubjectConfig configures the fMRI subject-AR sampler ([BuildSubjectBank]).
// [DefaultSubjectConfig] holds the paper's values.
type SubjectConfig struct {
	// K is the bank's horizon; required.
	K int
	// Folds is the number of subject folds (paper: 5).
	Folds int
	// Orders are the candidate p (paper: {0,1,2,4,8}); 0 is the shared
	// response alone.
	Orders []int
	// Ridge and RadiusCap as in [FactorConfig] (paper: 1e-3, 0.995).
	Ridge, RadiusCap float64
	// ScoreStride and BankStride space the origins in time (paper silent;
	// the authors' code: 8 and 4).
	ScoreStride, BankStride int
	// MaxBank caps the bank (paper: 1024).
	MaxBank int
	// Seed drives the subject folds and the bank subsample.
	Seed uint64
}

// DefaultSubjectConfig returns the paper's settings for horizon K.
func DefaultSubjectConfig(K int) SubjectConfig {
	return SubjectConfig{K: K, Folds: 5, Orders: []int{0, 1, 2, 4, 8}, Ridge: DefaultRidge, RadiusCap: DefaultRadiusCap,
		ScoreStride: 8, BankStride: 4, MaxBank: DefaultMaxBank}
}

func (c SubjectConfig) validate() ([]int, error) {
	switch {
	case c.K < 1:
		return nil, fmt.Errorf("prior: SubjectConfig.K = %d, must be >= 1", c.K)
	case c.Folds < 2:
		return nil, fmt.Errorf("prior: SubjectConfig.Folds = %d, must be >= 2", c.Folds)
	case !(c.Ridge >= 0) || math.IsInf(c.Ridge, 0):
		return nil, fmt.Errorf("prior: SubjectConfig.Ridge = %v, must be finite and >= 0", c.Ridge)
	case !(c.RadiusCap > 0) || math.IsInf(c.RadiusCap, 0):
		return nil, fmt.Errorf("prior: SubjectConfig.RadiusCap = %v, must be finite and > 0", c.RadiusCap)
	case c.ScoreStride < 1 || c.BankStride < 1:
		return nil, fmt.Errorf("prior: SubjectConfig.ScoreStride = %d, BankStride = %d, must be >= 1", c.ScoreStride, c.BankStride)
	case c.MaxBank < 1:
		return nil, fmt.Errorf("prior: SubjectConfig.MaxBank = %d, must be >= 1", c.MaxBank)
	}
	var orders []int
	for _, p := range c.Orders {
		if p < 0 {
			return nil, fmt.Errorf("prior: SubjectConfig.Orders has %d, must be >= 0", p)
		}
		if !slices.Contains(orders, p) {
			orders = append(orders, p)
		}
	}
	if len(orders) == 0 {
		return nil, fmt.Errorf("prior: SubjectConfig.Orders is empty")
	}
	slices.Sort(orders)
	return orders, nil
}

// SubjectSelection reports how [BuildSubjectBank] chose p.
type SubjectSelection struct {
	Order       int
	Candidates  []Candidate // orders ascending
	Assignment  []int       // fold of each subject
	BankOrigins []FoldOrigin
}

// BuildSubjectBank runs the fMRI sampler of App. "Movie fMRI: Predicting
// Shared and Subject-Specific Responses" on the training subjects' responses
// (each [T][D], all with the same T, aligned in stimulus time):
//
//  1. centre each subject in time and assign subjects to cfg.Folds folds;
//  2. for each fold and candidate p, fit the shared response and the
//     per-parcel AR on the other subjects and forecast every ScoreStride-th
//     origin from max(max Orders, 1) of every held-out subject;
//  3. choose p by the pooled held-out MSE (ties: the smaller p);
//  4. list (subject, origin) pairs at stride BankStride from max(p*, 1),
//     keep at most MaxBank without replacement (seeded), and store each
//     residual from its own fold's predictor.
func BuildSubjectBank(subjects [][][]float64, cfg SubjectConfig) (*Bank, SubjectSelection, error) {
	orders, err := cfg.validate()
	if err != nil {
		return nil, SubjectSelection{}, err
	}
	S := len(subjects)
	if S < cfg.Folds {
		return nil, SubjectSelection{}, fmt.Errorf("prior: BuildSubjectBank: %d subjects for %d folds", S, cfg.Folds)
	}
	T, D := len(subjects[0]), 0
	for i, x := range subjects {
		if len(x) != T {
			return nil, SubjectSelection{}, fmt.Errorf("prior: BuildSubjectBank: subject %d has T=%d, subject 0 has %d (subjects must be aligned)", i, len(x), T)
		}
		for t, r := range x {
			if i == 0 && t == 0 {
				D = len(r)
			}
			if len(r) != D || D == 0 {
				return nil, SubjectSelection{}, fmt.Errorf("prior: BuildSubjectBank: subject %d row %d has dimension %d, want %d > 0", i, t, len(r), D)
			}
		}
	}
	K := cfg.K
	start := max(orders[len(orders)-1], 1)
	if start+K > T {
		return nil, SubjectSelection{}, fmt.Errorf("prior: BuildSubjectBank: T=%d has no origin with %d history rows and K=%d targets", T, start, K)
	}
	centred := CenterSubjects(subjects)
	assign, err := SubjectFolds(S, cfg.Folds, cfg.Seed)
	if err != nil {
		return nil, SubjectSelection{}, err
	}
	sel := SubjectSelection{Assignment: assign}
	split := func(f int) (fit, held []int) {
		for s, a := range assign {
			if a == f {
				held = append(held, s)
			} else {
				fit = append(fit, s)
			}
		}
		return fit, held
	}

	best := math.Inf(1)
	for _, p := range orders {
		acc := make([]float64, K)
		n := 0
		for f := range cfg.Folds {
			fit, held := split(f)
			m, err := FitSubjectModel(centred, fit, p, cfg.Ridge, cfg.RadiusCap)
			if err != nil {
				return nil, sel, fmt.Errorf("prior: BuildSubjectBank: fold %d, p=%d: %w", f, p, err)
			}
			for _, s := range held {
				for o := start; o+K <= T; o += cfg.ScoreStride {
					pred, err := m.Forecast(centred[s], o, K)
					if err != nil {
						return nil, sel, fmt.Errorf("prior: BuildSubjectBank: fold %d, p=%d, subject %d: %w", f, p, s, err)
					}
					addSquares(acc, residual(centred[s], o, pred), D)
					n++
				}
			}
		}
		c := poolCandidate(acc, n, D)
		c.Order = p
		if c.MSE < best {
			best, sel.Order = c.MSE, p
		}
		sel.Candidates = append(sel.Candidates, c)
	}

	var cand []FoldOrigin
	for f := range cfg.Folds {
		_, held := split(f)
		for _, s := range held {
			for o := max(sel.Order, 1); o+K <= T; o += cfg.BankStride {
				cand = append(cand, FoldOrigin{Fold: f, Subject: s, Origin: o})
			}
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7072696f72))
	keep := chooseWithoutReplacement(rng, len(cand), cfg.MaxBank)
	models := map[int]*SubjectModel{}
	bankRows := make([][]float64, 0, len(keep))
	for _, i := range keep {
		fo := cand[i]
		m := models[fo.Fold]
		if m == nil {
			fit, _ := split(fo.Fold)
			if m, err = FitSubjectModel(centred, fit, sel.Order, cfg.Ridge, cfg.RadiusCap); err != nil {
				return nil, sel, fmt.Errorf("prior: BuildSubjectBank: bank fold %d: %w", fo.Fold, err)
			}
			models[fo.Fold] = m
		}
		pred, err := m.Forecast(centred[fo.Subject], fo.Origin, K)
		if err != nil {
			return nil, sel, err
		}
		bankRows = append(bankRows, residual(centred[fo.Subject], fo.Origin, pred))
		sel.BankOrigins = append(sel.BankOrigins, fo)
	}
	bank, err := NewBank(K, D, bankRows)
	if err != nil {
		return nil, sel, fmt.Errorf("prior: BuildSubjectBank: %w", err)
	}
	return bank, sel, nil
}

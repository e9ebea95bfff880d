package prior

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// FactorConfig configures the iEEG factor-AR sampler ([BuildFactorBank]).
// [DefaultFactorConfig] holds the paper's values; tests use small grids.
type FactorConfig struct {
	// K is the bank's horizon (the trajectory length); required.
	K int
	// Folds is the number of contiguous held-out blocks (paper: 5).
	Folds int
	// Purge is the gap removed from the fit set on both sides of a held-out
	// block (paper: 128).
	Purge int
	// Ranks and Orders are the candidate rho and p (paper: {8,16,32,64,80}
	// and {8,16,32,64}). Ranks above the dimension D are dropped, as the
	// authors' code does.
	Ranks, Orders []int
	// Ridge is the relative ridge lambda (paper: 1e-3); 0 is least squares.
	Ridge float64
	// RadiusCap is the root-radius cap (paper: 0.995).
	RadiusCap float64
	// ScoreStride and BankStride space the held-out origins used to select
	// (rho, p) and to fill the bank. The paper is silent; the authors' code
	// uses 32 and 8.
	ScoreStride, BankStride int
	// MaxBank caps the bank (paper: 1024); the (fold, origin) pairs are
	// subsampled without replacement when there are more.
	MaxBank int
	// Seed drives the bank subsample.
	Seed uint64
	// CrossSequenceLags lets fit segments, held-out blocks and lag windows run
	// across sequence boundaries, as the authors' code does (it flattens the
	// training chunks into one series). False (the paper's text) keeps every
	// window inside one sequence.
	CrossSequenceLags bool
	// GapCoversOrderAndK widens the purge gap to max(Purge, max Orders, K),
	// as the authors' code does; the paper states the gap alone. With the
	// paper's values (128, 64, 64) both give 128.
	GapCoversOrderAndK bool
}

// DefaultFactorConfig returns the paper's settings for horizon K.
func DefaultFactorConfig(K int) FactorConfig {
	return FactorConfig{
		K: K, Folds: 5, Purge: 128,
		Ranks: []int{8, 16, 32, 64, 80}, Orders: []int{8, 16, 32, 64},
		Ridge: DefaultRidge, RadiusCap: DefaultRadiusCap,
		ScoreStride: 32, BankStride: 8, MaxBank: DefaultMaxBank,
	}
}

func (c FactorConfig) validate(D int) (ranks, orders []int, err error) {
	switch {
	case c.K < 1:
		return nil, nil, fmt.Errorf("prior: FactorConfig.K = %d, must be >= 1", c.K)
	case c.Folds < 2:
		return nil, nil, fmt.Errorf("prior: FactorConfig.Folds = %d, must be >= 2", c.Folds)
	case c.Purge < 0:
		return nil, nil, fmt.Errorf("prior: FactorConfig.Purge = %d, must be >= 0", c.Purge)
	case !(c.Ridge >= 0) || math.IsInf(c.Ridge, 0):
		return nil, nil, fmt.Errorf("prior: FactorConfig.Ridge = %v, must be finite and >= 0", c.Ridge)
	case !(c.RadiusCap > 0) || math.IsInf(c.RadiusCap, 0):
		return nil, nil, fmt.Errorf("prior: FactorConfig.RadiusCap = %v, must be finite and > 0", c.RadiusCap)
	case c.ScoreStride < 1 || c.BankStride < 1:
		return nil, nil, fmt.Errorf("prior: FactorConfig.ScoreStride = %d, BankStride = %d, must be >= 1", c.ScoreStride, c.BankStride)
	case c.MaxBank < 1:
		return nil, nil, fmt.Errorf("prior: FactorConfig.MaxBank = %d, must be >= 1", c.MaxBank)
	}
	for _, r := range c.Ranks {
		if r < 1 {
			return nil, nil, fmt.Errorf("prior: FactorConfig.Ranks has %d, must be >= 1", r)
		}
		if r <= D && !slices.Contains(ranks, r) {
			ranks = append(ranks, r)
		}
	}
	if len(ranks) == 0 {
		return nil, nil, fmt.Errorf("prior: FactorConfig.Ranks = %v has no rank <= D=%d", c.Ranks, D)
	}
	for _, p := range c.Orders {
		if p < 1 {
			return nil, nil, fmt.Errorf("prior: FactorConfig.Orders has %d, must be >= 1", p)
		}
		if !slices.Contains(orders, p) {
			orders = append(orders, p)
		}
	}
	if len(orders) == 0 {
		return nil, nil, fmt.Errorf("prior: FactorConfig.Orders is empty")
	}
	slices.Sort(ranks)
	slices.Sort(orders)
	return ranks, orders, nil
}

// Candidate is one scored grid point of a prior predictor: its held-out MSE
// averaged equally over horizons and coordinates, with valid origins pooled
// over the folds (eqs. ieeg-prior-selection and fmri-prior-selection).
type Candidate struct {
	Rank, Order int     // rho (0 where not used) and p
	Window      int     // W of the ridge-AR predictor (0 elsewhere)
	Lambda      float64 // ridge of the ridge-AR predictor (0 elsewhere)
	MSE         float64 // +Inf when the candidate failed
	// MSEByHorizon is the pooled MSE at each horizon k = 1..K.
	MSEByHorizon []float64
	Origins      int    // held-out origins pooled over folds
	Reason       string // why the candidate failed, if it did
}

// FactorSelection reports how [BuildFactorBank] chose (rho, p).
type FactorSelection struct {
	Rank, Order int
	Candidates  []Candidate // ranks ascending within orders ascending
	Folds       []TimeFold
	// BankOrigins are the (fold, origin) pairs of the bank rows, in row order.
	BankOrigins []FoldOrigin
}

// FoldOrigin names one bank trajectory: the fold whose predictor produced it
// and its origin (first target row on the concatenated timeline; for subject
// folds, Subject is the held-out subject and Origin a time index).
type FoldOrigin struct{ Fold, Subject, Origin int }

// BuildFactorBank runs the iEEG sampler of App. "iEEG: Predicting Shared
// Temporal Factors" on training sequences (each [T][D]):
//
//  1. cut the concatenated timeline into cfg.Folds contiguous held-out blocks
//     with purge gaps ([TimeFolds]);
//  2. for each fold, fit PCA and the per-factor AR on the fit segments and
//     forecast every ScoreStride-th held-out origin whose history (max
//     Orders rows) and K targets lie inside one held-out span, for every
//     (rho, p) of the grid (the same origins for all, as the authors' code);
//  3. choose (rho, p) by the pooled held-out MSE;
//  4. list the held-out origins (stride BankStride, history p*) of all folds,
//     keep at most MaxBank of them chosen without replacement (seeded), and
//     store the residual of each from its own fold's predictor.
//
// Only the training sequences are read. Ties in the MSE go to the smaller
// p, then the smaller rho.
func BuildFactorBank(seqs [][][]float64, cfg FactorConfig) (*Bank, FactorSelection, error) {
	rows, lengths, D, err := concatRows("BuildFactorBank", seqs)
	if err != nil {
		return nil, FactorSelection{}, err
	}
	ranks, orders, err := cfg.validate(D)
	if err != nil {
		return nil, FactorSelection{}, err
	}
	maxP, maxRank, K := orders[len(orders)-1], ranks[len(ranks)-1], cfg.K
	gap := cfg.Purge
	if cfg.GapCoversOrderAndK {
		gap = max(gap, maxP, K)
	}
	folds, err := TimeFolds(lengths, cfg.Folds, gap, cfg.CrossSequenceLags)
	if err != nil {
		return nil, FactorSelection{}, err
	}
	sel := FactorSelection{Folds: folds}

	// Steps 2-3: score the grid.
	type key struct{ rank, order int }
	sums := map[key][]float64{}
	count := 0
	for f, fold := range folds {
		origins := originsIn(fold.Held, maxP, K, cfg.ScoreStride)
		if len(origins) == 0 {
			return nil, sel, fmt.Errorf("prior: BuildFactorBank: fold %d (rows %d-%d) has no held-out origin with %d history rows and K=%d targets in one span; use fewer folds or shorter grids",
				f, fold.Block.Start, fold.Block.End, maxP, K)
		}
		pca, err := fitPCA(rows, fold.Fit, D, maxRank)
		if err != nil {
			return nil, sel, fmt.Errorf("prior: BuildFactorBank: fold %d: %w", f, err)
		}
		count += len(origins)
		scores := fitScores(rows, fold.Fit, pca, maxRank)
		for _, p := range orders {
			full, err := fitFactorAR(scores, pca, maxRank, p, cfg.Ridge, cfg.RadiusCap)
			if err != nil {
				return nil, sel, fmt.Errorf("prior: BuildFactorBank: fold %d, p=%d: %w", f, p, err)
			}
			for _, r := range ranks {
				m := full.truncate(r)
				acc := sums[key{r, p}]
				if acc == nil {
					acc = make([]float64, K)
					sums[key{r, p}] = acc
				}
				for _, o := range origins {
					pred, err := m.Forecast(rows, o, K)
					if err != nil {
						return nil, sel, fmt.Errorf("prior: BuildFactorBank: fold %d, rho=%d, p=%d, origin %d: %w", f, r, p, o, err)
					}
					addSquares(acc, residual(rows, o, pred), D)
				}
			}
		}
	}
	best := math.Inf(1)
	for _, p := range orders {
		for _, r := range ranks {
			c := poolCandidate(sums[key{r, p}], count, D)
			c.Rank, c.Order = r, p
			if c.MSE < best {
				best, sel.Rank, sel.Order = c.MSE, r, p
			}
			sel.Candidates = append(sel.Candidates, c)
		}
	}

	// Step 4: the bank.
	var cand []FoldOrigin
	for f, fold := range folds {
		for _, o := range originsIn(fold.Held, sel.Order, K, cfg.BankStride) {
			cand = append(cand, FoldOrigin{Fold: f, Origin: o})
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7072696f72)) // "prior"
	keep := chooseWithoutReplacement(rng, len(cand), cfg.MaxBank)
	bankRows := make([][]float64, 0, len(keep))
	models := map[int]*FactorModel{}
	for _, i := range keep {
		fo := cand[i]
		m := models[fo.Fold]
		if m == nil {
			if m, err = FitFactorModel(rows, folds[fo.Fold].Fit, sel.Rank, sel.Order, cfg.Ridge, cfg.RadiusCap); err != nil {
				return nil, sel, fmt.Errorf("prior: BuildFactorBank: bank fold %d: %w", fo.Fold, err)
			}
			models[fo.Fold] = m
		}
		pred, err := m.Forecast(rows, fo.Origin, K)
		if err != nil {
			return nil, sel, fmt.Errorf("prior: BuildFactorBank: bank fold %d, origin %d: %w", fo.Fold, fo.Origin, err)
		}
		bankRows = append(bankRows, residual(rows, fo.Origin, pred))
		sel.BankOrigins = append(sel.BankOrigins, fo)
	}
	bank, err := NewBank(K, D, bankRows)
	if err != nil {
		return nil, sel, fmt.Errorf("prior: BuildFactorBank: %w", err)
	}
	return bank, sel, nil
}

// addSquares adds Σ_d e_{k,d}² to acc[k].
func addSquares(acc, e []float64, D int) {
	for k := range acc {
		for d := range D {
			v := e[k*D+d]
			acc[k] += v * v
		}
	}
}

// poolCandidate turns per-horizon sums of squares over n origins into the
// MSE by horizon and its equal-weight mean over horizons and coordinates.
func poolCandidate(acc []float64, n, D int) Candidate {
	c := Candidate{MSEByHorizon: make([]float64, len(acc)), Origins: n}
	for k, v := range acc {
		c.MSEByHorizon[k] = v / float64(n*D)
		c.MSE += c.MSEByHorizon[k]
	}
	c.MSE /= float64(len(acc))
	if math.IsNaN(c.MSE) {
		c.MSE = math.Inf(1)
	}
	return c
}

package experiment

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/prior"
)

// PriorGrid is the cross-fitting grid of a DW-Prior bank (RunConfig.Prior; nil or zero fields:
// the defaults below). The paper's grids (5 folds, purge 128, rho in {8,16,32,64,80}, p in
// {8,16,32,64} for iEEG; p in {0,1,2,4,8} for fMRI) are sized for 1024-step chunks and 40-80
// channels; the defaults keep them where the data allow and scale them down where they do not,
// so that the quick and CPU profiles can build a bank:
//
//   - Folds: 5 (prior-subject: at most the number of training subjects);
//   - Purge (prior-factor): min(128, max(K, L/8)) for the shortest training unit of L steps
//     (128 at the paper's L = 1024 and K = 64);
//   - Ranks (prior-factor): the paper's, those above the state dimension D dropped (D itself
//     when none is left);
//   - Orders: prior-factor the paper's with p <= L/4 (max(1, L/4) when none is left);
//     prior-subject the paper's with p + K < T.
//
// prior-ar keeps its own grid (prior.DefaultARConfig); the grid does not apply to it.
type PriorGrid struct {
	Folds  int   `json:"folds,omitempty"`
	Purge  int   `json:"purge,omitempty"` // 0: the default (a purge of 0 steps cannot be asked for)
	Ranks  []int `json:"ranks,omitempty"`
	Orders []int `json:"orders,omitempty"`
}

// PriorRecord is what a DW-Prior run's bank was built with and selected: recorded in the run's
// result (Result.Prior) and printed to its log, since the bank follows from the configuration and
// is not otherwise visible.
type PriorRecord struct {
	Sampler    string           `json:"sampler"`
	Grid       PriorGrid        `json:"grid"`             // resolved: every field explicit (prior-ar: folds and purge)
	Rank       int              `json:"rank,omitempty"`   // rho* (prior-factor)
	Order      int              `json:"order"`            // p* (prior-factor, prior-subject)
	Window     int              `json:"window,omitempty"` // W* (prior-ar)
	Lambda     float64          `json:"lambda,omitempty"` // ridge* (prior-ar)
	Candidates []PriorCandidate `json:"candidates"`
	BankRows   int              `json:"bank_rows"`
	Seconds    float64          `json:"seconds"` // building the bank
}

// PriorCandidate is one grid point and its pooled held-out MSE (+Inf as null: failed).
type PriorCandidate struct {
	Rank   int     `json:"rank,omitempty"`
	Order  int     `json:"order"`
	Window int     `json:"window,omitempty"`
	Lambda float64 `json:"lambda,omitempty"`
	MSE    float64 `json:"mse"`
}

// String is the record's one-line summary for logs.
func (r *PriorRecord) String() string {
	sel := ""
	switch r.Sampler {
	case prior.FactorName:
		sel = fmt.Sprintf("rho=%d p=%d", r.Rank, r.Order)
	case prior.SubjectName:
		sel = fmt.Sprintf("p=%d", r.Order)
	default:
		sel = fmt.Sprintf("W=%d lambda=%g", r.Window, r.Lambda)
	}
	grid := fmt.Sprintf("folds %d", r.Grid.Folds)
	if r.Grid.Purge > 0 {
		grid += fmt.Sprintf(", purge %d", r.Grid.Purge)
	}
	if len(r.Grid.Ranks) > 0 {
		grid += fmt.Sprintf(", ranks %v", r.Grid.Ranks)
	}
	if len(r.Grid.Orders) > 0 {
		grid += fmt.Sprintf(", orders %v", r.Grid.Orders)
	}
	return fmt.Sprintf("%s bank: %s selected of %d candidates (%s); %d trajectories in %.1f s",
		r.Sampler, sel, len(r.Candidates), grid, r.BankRows, r.Seconds)
}

func candidates(cs []prior.Candidate) []PriorCandidate {
	out := make([]PriorCandidate, len(cs))
	for i, c := range cs {
		out[i] = PriorCandidate{Rank: c.Rank, Order: c.Order, Window: c.Window, Lambda: c.Lambda, MSE: finiteOr(c.MSE, -1)}
	}
	return out
}

// finiteOr maps +-Inf and NaN (a failed candidate) to v, since JSON has no infinity.
func finiteOr(x, v float64) float64 {
	if x != x || x > 1e308 || x < -1e308 {
		return v
	}
	return x
}

// withNoiseSampler returns cfg with the DW noise sampler attached when the sampler needs the
// data, and the record of how its bank was selected. Every DW-Prior bank (dwlib/prior) is built
// from the run's training split only, with the run's K and seed:
//
//   - "prior-ar": cross-fitted ridge-AR residuals (DW-Prior for any series);
//   - "prior-factor": the iEEG factor-AR predictor (PCA factors, ridge AR per factor, (rho, p) by
//     pooled held-out MSE) on the training units as sequences; meant for ieeg-synth and iEEG
//     manifests, usable on any testbed;
//   - "prior-subject": the fMRI subject-AR predictor with subject folds; only where the dataset's
//     units are subjects (data.Dataset.Subjects: fmri-synth, a manifest of subjects), refused
//     elsewhere.
//
// "spectral" (the field prior, noise.Spectral) gets its SpectralConfig from the dataset's field
// layout (data.FieldShape), which noise.New cannot see either; it gives no record. Other samplers
// (noise.New builds them from their name) leave cfg as it is and give no record.
// The bank follows from the configuration, so it is not part of the run's JSON; a checkpoint
// stores it in the controller's sampler state.
func withNoiseSampler(cfg RunConfig, ds *data.Dataset) (RunConfig, *PriorRecord, error) {
	if cfg.Train.Method != "dw" {
		return cfg, nil, nil
	}
	if cfg.Train.Sampler == noise.SpectralName {
		f, ok := data.FieldShape(ds)
		if !ok {
			return cfg, nil, fmt.Errorf("experiment: %s: the %q sampler needs a field testbed (%s); %s has no spatial layout", cfg.Name(), noise.SpectralName, data.ShearName, cfg.Testbed)
		}
		s, err := noise.NewSpectral(noise.SpectralConfig{Channels: f.Channels, Height: f.Height, Width: f.Width})
		if err != nil {
			return cfg, nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
		}
		cfg.Train.NoiseSampler = s
		return cfg, nil, nil
	}
	name := cfg.Train.Sampler
	K, seed := cfg.Train.K, cfg.Train.Seed
	start := time.Now()
	var bank *prior.Bank
	rec := &PriorRecord{Sampler: name}
	fail := func(err error) (RunConfig, *PriorRecord, error) {
		return cfg, nil, fmt.Errorf("experiment: %s: the %q sampler's bank from the training split: %w", cfg.Name(), name, err)
	}
	switch name {
	case prior.ARName:
		c := prior.DefaultARConfig(K)
		c.Seed = seed
		b, sel, err := prior.BuildARBank(ds.Train, c)
		if err != nil {
			return fail(err)
		}
		bank, rec.Window, rec.Lambda, rec.Candidates = b, sel.Window, sel.Lambda, candidates(sel.Candidates)
		rec.Grid = PriorGrid{Folds: c.Folds, Purge: c.Purge}
	case prior.FactorName:
		c, grid := factorConfig(cfg, ds)
		b, sel, err := prior.BuildFactorBank(statesOf(ds.Train), c)
		if err != nil {
			return fail(err)
		}
		bank, rec.Rank, rec.Order, rec.Candidates, rec.Grid = b, sel.Rank, sel.Order, candidates(sel.Candidates), grid
	case prior.SubjectName:
		if !ds.Subjects {
			return cfg, nil, fmt.Errorf("experiment: %s: -sampler %s needs a dataset whose units are subjects (fmri-synth, or a manifest of subjects); %q has no subject structure: use %s or %s",
				cfg.Name(), name, ds.Name, prior.FactorName, prior.ARName)
		}
		c, grid := subjectConfig(cfg, ds)
		b, sel, err := prior.BuildSubjectBank(statesOf(ds.Train), c)
		if err != nil {
			return fail(err)
		}
		bank, rec.Order, rec.Candidates, rec.Grid = b, sel.Order, candidates(sel.Candidates), grid
	default:
		return cfg, nil, nil
	}
	s, err := prior.NewSampler(prior.Config{Name: name, Bank: bank})
	if err != nil {
		return fail(err)
	}
	rec.BankRows, rec.Seconds = bank.Len(), time.Since(start).Seconds()
	cfg.Train.NoiseSampler = s
	return cfg, rec, nil
}

// logPrior prints the record to the run's log, if any.
func logPrior(w io.Writer, cfg RunConfig, rec *PriorRecord) {
	if w != nil && rec != nil {
		fmt.Fprintf(w, "%s: %s\n", cfg.Name(), rec)
	}
}

func statesOf(ss []data.Series) [][][]float64 {
	out := make([][][]float64, len(ss))
	for i, s := range ss {
		out[i] = s.X
	}
	return out
}

// shortest is the length of the shortest unit.
func shortest(ss []data.Series) int {
	L := 0
	for i, s := range ss {
		if i == 0 || s.Len() < L {
			L = s.Len()
		}
	}
	return L
}

var (
	paperRanks         = []int{8, 16, 32, 64, 80}
	paperFactorOrders  = []int{8, 16, 32, 64}
	paperSubjectOrders = []int{0, 1, 2, 4, 8}
)

// factorConfig resolves the factor-AR grid (PriorGrid's defaults) for the run.
func factorConfig(cfg RunConfig, ds *data.Dataset) (prior.FactorConfig, PriorGrid) {
	K, L, D := cfg.Train.K, shortest(ds.Train), ds.StateDim
	g := PriorGrid{Folds: 5, Purge: min(128, max(K, L/8))}
	for _, r := range paperRanks {
		if r <= D {
			g.Ranks = append(g.Ranks, r)
		}
	}
	if len(g.Ranks) == 0 {
		g.Ranks = []int{D}
	}
	for _, p := range paperFactorOrders {
		if p <= L/4 {
			g.Orders = append(g.Orders, p)
		}
	}
	if len(g.Orders) == 0 {
		g.Orders = []int{max(1, L/4)}
	}
	g = g.override(cfg.Prior)
	c := prior.DefaultFactorConfig(K)
	c.Folds, c.Purge, c.Ranks, c.Orders, c.Seed = g.Folds, g.Purge, g.Ranks, g.Orders, cfg.Train.Seed
	return c, g
}

// subjectConfig resolves the subject-AR grid for the run.
func subjectConfig(cfg RunConfig, ds *data.Dataset) (prior.SubjectConfig, PriorGrid) {
	K, T := cfg.Train.K, shortest(ds.Train)
	g := PriorGrid{Folds: max(2, min(5, len(ds.Train)))}
	for _, p := range paperSubjectOrders {
		if p+K < T {
			g.Orders = append(g.Orders, p)
		}
	}
	g = g.override(cfg.Prior)
	c := prior.DefaultSubjectConfig(K)
	c.Folds, c.Orders, c.Seed = g.Folds, g.Orders, cfg.Train.Seed
	return c, g
}

// override replaces the defaults in g by the fields o sets.
func (g PriorGrid) override(o *PriorGrid) PriorGrid {
	if o == nil {
		return g
	}
	if o.Folds != 0 {
		g.Folds = o.Folds
	}
	if o.Purge != 0 {
		g.Purge = o.Purge
	}
	if o.Ranks != nil {
		g.Ranks = slices.Clone(o.Ranks)
	}
	if o.Orders != nil {
		g.Orders = slices.Clone(o.Orders)
	}
	return g
}

// validateSampler refuses a DW noise sampler that cannot serve the testbed: the spectral field
// prior on a time series (it has no spatial layout), and on a field the DW-Prior banks (a ridge
// AR over the full state, not attempted on thousands of coordinates).
func (c RunConfig) validateSampler() error {
	field := data.IsField(c.Testbed) && c.Data.CSV == nil
	switch {
	case c.Train.Sampler == noise.SpectralName && !field:
		return fmt.Errorf("experiment: sampler %q needs a field testbed (%s), not %s; use generic there", noise.SpectralName, data.ShearName, c.Testbed)
	case field && c.Train.Method == "dw" && prior.IsName(c.Train.Sampler):
		return fmt.Errorf("experiment: sampler %q is not offered on the field testbed %s (its predictors fit full-state or factor ARs, not attempted on thousands of coordinates); use %s or generic",
			c.Train.Sampler, c.Testbed, noise.SpectralName)
	}
	return nil
}

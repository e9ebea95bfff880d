package prior

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// plantedFactors returns noise-free sequences x_t = mu + L a_t with rank
// orthonormal columns L (D×rank) and each factor following the AR(2) phi from
// random initial values, so every linear combination of the factors (any
// PCA rotation of them) follows the same AR(2) exactly.
func plantedFactors(seed uint64, nSeq, T, D, rank int, phi []float64) (seqs [][][]float64, mu []float64, L [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	L = make([][]float64, rank) // columns, Gram-Schmidt
	for j := range rank {
		v := make([]float64, D)
		for d := range v {
			v[d] = rng.NormFloat64()
		}
		for _, u := range L[:j] {
			dot := 0.0
			for d := range v {
				dot += v[d] * u[d]
			}
			for d := range v {
				v[d] -= dot * u[d]
			}
		}
		n := 0.0
		for _, x := range v {
			n += x * x
		}
		for d := range v {
			v[d] /= math.Sqrt(n)
		}
		L[j] = v
	}
	mu = make([]float64, D)
	for d := range mu {
		mu[d] = rng.NormFloat64()
	}
	for range nSeq {
		a := make([][]float64, T)
		for t := range T {
			a[t] = make([]float64, rank)
			for j := range rank {
				if t < len(phi) {
					a[t][j] = 3 * rng.NormFloat64() * float64(j+1)
					continue
				}
				for l, c := range phi {
					a[t][j] += c * a[t-1-l][j]
				}
			}
		}
		x := make([][]float64, T)
		for t := range T {
			x[t] = slices.Clone(mu)
			for j := range rank {
				for d := range D {
					x[t][d] += L[j][d] * a[t][j]
				}
			}
		}
		seqs = append(seqs, x)
	}
	return seqs, mu, L
}

var plantedPhi = []float64{2 * 0.97 * math.Cos(0.3), -0.97 * 0.97}

// Exact recovery of a planted rank-2 AR(2) system from noise-free data.
// The paper's factor AR has no intercept: it models the factor scores about
// the fit mean. So that the fit mean is exactly mu, the fit set is a pair of
// mirrored sequences (mu + L a and mu - L a); the factor ARs then equal the
// planted coefficients and the forecasts at origins of two other sequences
// equal the truth, to 1e-8.
func TestFactorModelRecoversPlantedSystem(t *testing.T) {
	seqs, mu, _ := plantedFactors(1, 3, 150, 6, 2, plantedPhi)
	mirror := make([][]float64, len(seqs[0]))
	for r, x := range seqs[0] {
		mirror[r] = make([]float64, len(x))
		for d, v := range x {
			mirror[r][d] = 2*mu[d] - v
		}
	}
	rows, _, _, err := concatRows("test", [][][]float64{seqs[0], mirror, seqs[1], seqs[2]})
	if err != nil {
		t.Fatal(err)
	}
	m, err := FitFactorModel(rows, []Span{{0, 150}, {150, 300}}, 2, 2, 0, DefaultRadiusCap)
	if err != nil {
		t.Fatal(err)
	}
	for d := range mu {
		if math.Abs(m.Mean[d]-mu[d]) > 1e-12 {
			t.Fatalf("fit mean %v, want mu %v", m.Mean, mu)
		}
	}
	for j := range 2 {
		for l := range 2 {
			if math.Abs(m.Phi[j][l]-plantedPhi[l]) > 1e-8 {
				t.Errorf("factor %d: phi = %v, want %v", j, m.Phi[j], plantedPhi)
			}
		}
		if m.Kappa[j] != 1 {
			t.Errorf("factor %d: a stable AR was capped (kappa %v)", j, m.Kappa[j])
		}
	}
	for _, o := range originsIn([]Span{{300, 450}, {450, 600}}, 2, 10, 7) {
		pred, err := m.Forecast(rows, o, 10)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range residual(rows, o, pred) {
			if math.Abs(e) > 1e-8 {
				t.Fatalf("origin %d: residual %v at horizon %d", o, e, i/6+1)
			}
		}
	}
}

// eq. ieeg-prior-predictor by hand: D = 2, mu = (1, 0), one factor along
// (1, 0) with AR(1) phi = 0.5. From x_{o-1} = (3, 5): a = 2, forecasts
// 1, 0.5, 0.25; the out-of-subspace part (0, 5) is held, so
// x̂ = (2, 5), (1.5, 5), (1.25, 5).
func TestFactorForecastHoldsOutOfSubspace(t *testing.T) {
	m := &FactorModel{Mean: []float64{1, 0}, Basis: [][]float64{{1}, {0}}, Phi: [][]float64{{0.5}}, Kappa: []float64{1}}
	rows := [][]float64{{0, 0}, {3, 5}, {0, 0}, {0, 0}, {0, 0}}
	got, err := m.Forecast(rows, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{2, 5, 1.5, 5, 1.25, 5}; !slices.Equal(got, want) {
		t.Fatalf("forecast = %v, want %v", got, want)
	}
	if _, err := m.Forecast(rows, 0, 3); err == nil {
		t.Fatal("origin 0 (no history) accepted")
	}
}

// No lag window of a fold's fit touches its held-out block or purge gap:
// poisoning every row of [block-gap, block+gap) with NaN leaves the fold's
// fit (PCA and factor ARs) finite and identical to the clean fit.
func TestFactorFitNeverReadsHeldOutOrGap(t *testing.T) {
	seqs, _, _ := plantedFactors(2, 3, 120, 5, 2, plantedPhi)
	rows, lengths, _, _ := concatRows("test", seqs)
	for _, cross := range []bool{false, true} {
		folds, err := TimeFolds(lengths, 4, 7, cross)
		if err != nil {
			t.Fatal(err)
		}
		for f, fold := range folds {
			clean, err := FitFactorModel(rows, fold.Fit, 2, 3, DefaultRidge, DefaultRadiusCap)
			if err != nil {
				t.Fatal(err)
			}
			poisoned := make([][]float64, len(rows))
			for r := range rows {
				poisoned[r] = rows[r]
				if r >= fold.Block.Start-fold.Gap && r < fold.Block.End+fold.Gap {
					poisoned[r] = []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
				}
			}
			dirty, err := FitFactorModel(poisoned, fold.Fit, 2, 3, DefaultRidge, DefaultRadiusCap)
			if err != nil {
				t.Fatalf("cross=%v fold %d: the fit read the held-out block or its gap: %v", cross, f, err)
			}
			for j := range 2 {
				if !slices.Equal(clean.Phi[j], dirty.Phi[j]) {
					t.Fatalf("cross=%v fold %d: poisoning the held-out block changed factor %d", cross, f, j)
				}
			}
		}
	}
}

// The fold geometry: blocks partition the timeline; fit segments avoid
// [block-gap, block+gap), never span a sequence boundary (paper reading),
// and cover everything else.
func TestTimeFoldsGeometry(t *testing.T) {
	lengths := []int{50, 30, 70}
	bounds := []int{0, 50, 80, 150}
	folds, err := TimeFolds(lengths, 4, 6, false)
	if err != nil {
		t.Fatal(err)
	}
	next := 0
	for f, fold := range folds {
		if fold.Block.Start != next {
			t.Fatalf("fold %d block %v does not follow %d", f, fold.Block, next)
		}
		next = fold.Block.End
		covered := make([]int, 150)
		for _, s := range fold.Fit {
			for r := s.Start; r < s.End; r++ {
				covered[r]++
				if r >= fold.Block.Start-6 && r < fold.Block.End+6 {
					t.Fatalf("fold %d: fit segment %v includes row %d of the block or gap", f, s, r)
				}
			}
			for _, b := range bounds[1:3] {
				if s.Start < b && s.End > b {
					t.Fatalf("fold %d: fit segment %v spans the sequence boundary %d", f, s, b)
				}
			}
		}
		for r, c := range covered {
			in := r >= fold.Block.Start-6 && r < fold.Block.End+6
			if c > 1 || (!in && c != 1) {
				t.Fatalf("fold %d: row %d covered %d times", f, r, c)
			}
		}
		for _, o := range originsIn(fold.Held, 4, 5, 1) {
			if o-4 < fold.Block.Start || o+5 > fold.Block.End {
				t.Fatalf("fold %d: origin %d reads outside the held-out block %v", f, o, fold.Block)
			}
			for _, b := range bounds[1:3] {
				if o-4 < b && o+5 > b {
					t.Fatalf("fold %d: origin %d window spans sequence boundary %d", f, o, b)
				}
			}
		}
	}
	if next != 150 {
		t.Fatalf("blocks end at %d, want 150", next)
	}
	if _, err := TimeFolds(lengths, 1, 6, false); err == nil {
		t.Fatal("1 fold accepted")
	}
}

// The whole sampler on the planted system: the (rho, p) choice finds the
// planted (2, 2), whose held-out MSE (not exactly 0: each fold's fit mean
// differs from mu) is far below every other candidate's, and every bank row comes from its own fold's held-out block,
// forecast by a model that never saw that block.
func TestBuildFactorBankPlanted(t *testing.T) {
	seqs, _, _ := plantedFactors(3, 4, 160, 6, 2, plantedPhi)
	cfg := FactorConfig{K: 8, Folds: 3, Purge: 6, Ranks: []int{1, 2}, Orders: []int{1, 2}, Ridge: 0, RadiusCap: DefaultRadiusCap,
		ScoreStride: 3, BankStride: 2, MaxBank: 50, Seed: 7}
	bank, sel, err := BuildFactorBank(seqs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Rank != 2 || sel.Order != 2 {
		t.Fatalf("selected (rho, p) = (%d, %d), want (2, 2); candidates %+v", sel.Rank, sel.Order, sel.Candidates)
	}
	planted := sel.Candidates[3] // orders ascending, ranks ascending within
	if planted.Rank != 2 || planted.Order != 2 {
		t.Fatalf("candidate order: %+v", sel.Candidates)
	}
	for _, c := range sel.Candidates[:3] {
		if c.MSE < 10*planted.MSE {
			t.Errorf("candidate (%d, %d) MSE %g is within 10x of the planted model's %g", c.Rank, c.Order, c.MSE, planted.MSE)
		}
	}
	t.Logf("candidates: %+v", sel.Candidates)
	if bank.Len() != 50 || bank.K() != 8 || bank.D() != 6 || len(sel.BankOrigins) != 50 {
		t.Fatalf("bank %d×%d×%d, %d origins; want 50×8×6", bank.Len(), bank.K(), bank.D(), len(sel.BankOrigins))
	}
	rows, _, _, _ := concatRows("test", seqs)
	for i, fo := range sel.BankOrigins {
		fold := sel.Folds[fo.Fold]
		if fo.Origin-sel.Order < fold.Block.Start || fo.Origin+cfg.K > fold.Block.End {
			t.Fatalf("bank row %d: origin %d of fold %d lies outside its held-out block %v", i, fo.Origin, fo.Fold, fold.Block)
		}
		for _, s := range fold.Fit {
			if s.End > fold.Block.Start-fold.Gap && s.Start < fold.Block.End+fold.Gap {
				t.Fatalf("bank row %d: fold %d fit segment %v meets the held-out block", i, fo.Fold, s)
			}
		}
		m, _ := FitFactorModel(rows, fold.Fit, 2, 2, 0, DefaultRadiusCap)
		pred, _ := m.Forecast(rows, fo.Origin, cfg.K)
		if !slices.Equal(bank.Row(i), residual(rows, fo.Origin, pred)) {
			t.Fatalf("bank row %d is not the residual of fold %d's own out-of-fold model", i, fo.Fold)
		}
	}
	// Same seed, same bank; another seed, another subsample.
	b2, _, _ := BuildFactorBank(seqs, cfg)
	cfg.Seed = 8
	_, sel3, _ := BuildFactorBank(seqs, cfg)
	if !slices.Equal(b2.Row(17), bank.Row(17)) || slices.Equal(sel3.BankOrigins, sel.BankOrigins) {
		t.Fatal("bank subsample is not a function of the seed")
	}
}

func TestFactorConfigErrors(t *testing.T) {
	seqs, _, _ := plantedFactors(3, 2, 60, 3, 1, plantedPhi)
	good := FactorConfig{K: 4, Folds: 2, Purge: 2, Ranks: []int{1}, Orders: []int{2}, Ridge: 1e-3, RadiusCap: 0.995, ScoreStride: 1, BankStride: 1, MaxBank: 10}
	if _, _, err := BuildFactorBank(seqs, good); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(*FactorConfig){
		"FactorConfig.K":         func(c *FactorConfig) { c.K = 0 },
		"FactorConfig.Folds":     func(c *FactorConfig) { c.Folds = 1 },
		"FactorConfig.Ridge":     func(c *FactorConfig) { c.Ridge = -1 },
		"FactorConfig.Ranks":     func(c *FactorConfig) { c.Ranks = []int{4} },
		"FactorConfig.Orders":    func(c *FactorConfig) { c.Orders = []int{0} },
		"FactorConfig.RadiusCap": func(c *FactorConfig) { c.RadiusCap = math.NaN() },
		"no held-out origin":     func(c *FactorConfig) { c.K = 59 },
	} {
		c := good
		mut(&c)
		if _, _, err := BuildFactorBank(seqs, c); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// The two readings of the fold geometry on three sequences of 100 rows in
// two folds (blocks [0, 150) and [150, 300)): the text splits held-out spans
// and fit segments at sequence boundaries and uses the purge gap as given;
// the authors' code flattens the sequences and widens the gap to
// max(Purge, max p, K) = max(2, 3, 6) = 6.
func TestFactorBankReadings(t *testing.T) {
	seqs, _, _ := plantedFactors(5, 3, 100, 4, 2, plantedPhi)
	cfg := FactorConfig{K: 6, Folds: 2, Purge: 2, Ranks: []int{2}, Orders: []int{3}, Ridge: DefaultRidge, RadiusCap: DefaultRadiusCap,
		ScoreStride: 2, BankStride: 2, MaxBank: 1000}
	_, text, err := BuildFactorBank(seqs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.CrossSequenceLags, cfg.GapCoversOrderAndK = true, true
	_, code, err := BuildFactorBank(seqs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		sel       FactorSelection
		held, fit []Span
	}{
		{text, []Span{{0, 100}, {100, 150}}, []Span{{152, 200}, {200, 300}}},
		{code, []Span{{0, 150}}, []Span{{156, 300}}},
	}
	for i, w := range want {
		f := w.sel.Folds[0]
		if !slices.Equal(f.Held, w.held) || !slices.Equal(f.Fit, w.fit) {
			t.Errorf("reading %d, fold 0: held %v fit %v; want %v and %v", i, f.Held, f.Fit, w.held, w.fit)
		}
	}
}

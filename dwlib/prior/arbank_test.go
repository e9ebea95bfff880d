package prior

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// plantedVAR returns series of the driven VAR(1)
// x_{t+1} = A x_t + B u_t + sigma·eps_{t+1}, with Drive[t] = u_t acting
// over t -> t+1 (the dwlib/data convention).
func plantedVAR(seed uint64, nSeries, T int, sigma float64) []data.Series {
	rng := rand.New(rand.NewPCG(seed, 3))
	A := [2][2]float64{{0.7, 0.2}, {-0.3, 0.5}}
	B := [2]float64{1, -0.5}
	var out []data.Series
	for range nSeries {
		x := [][]float64{{rng.NormFloat64(), rng.NormFloat64()}}
		u := [][]float64{}
		for t := range T {
			u = append(u, []float64{rng.NormFloat64()})
			if t+1 == T {
				break
			}
			next := make([]float64, 2)
			for i := range 2 {
				next[i] = A[i][0]*x[t][0] + A[i][1]*x[t][1] + B[i]*u[t][0] + sigma*rng.NormFloat64()
			}
			x = append(x, next)
		}
		out = append(out, data.Series{X: x, Drive: u})
	}
	return out
}

// The ridge-AR prior on a driven VAR(1): the bank's one-step residuals are
// the planted innovations (variance sigma² per coordinate, within 5
// standard errors of a variance estimate plus a small allowance for the
// fitted coefficients), the drive is used (without it the held-out MSE is
// worse), and every bank row is its own fold's out-of-fold residual.
func TestBuildARBankPlantedVAR(t *testing.T) {
	const sigma = 0.5
	series := plantedVAR(1, 2, 600, sigma)
	cfg := ARConfig{K: 4, Folds: 5, Purge: 8, Windows: []int{1, 2}, Lambdas: []float64{1e-6, 1e-2}, ScoreStride: 3, BankStride: 2, MaxBank: 300, Seed: 9}
	bank, sel, err := BuildARBank(series, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if bank.Len() != 300 || bank.K() != 4 || bank.D() != 2 {
		t.Fatalf("bank %d×%d×%d", bank.Len(), bank.K(), bank.D())
	}
	cov := bank.Covariance()
	n := bank.K() * bank.D()
	tol := 5*sigma*sigma*math.Sqrt(2.0/300) + 0.02
	for d := range 2 {
		if v := cov[d*n+d]; math.Abs(v-sigma*sigma) > tol {
			t.Errorf("coordinate %d: horizon-1 residual variance %v, want %v within %v", d, v, sigma*sigma, tol)
		}
	}
	cfg.NoDrive = true
	_, selNoDrive, err := BuildARBank(series, cfg)
	if err != nil {
		t.Fatal(err)
	}
	best := func(s ARSelection) float64 {
		m := math.Inf(1)
		for _, c := range s.Candidates {
			m = min(m, c.MSE)
		}
		return m
	}
	if !(best(selNoDrive) > 1.2*best(sel)) {
		t.Errorf("without drive the best held-out MSE is %v, with drive %v: the drive is not used", best(selNoDrive), best(sel))
	}

	var rows, drive [][]float64
	for _, s := range series {
		rows, drive = append(rows, s.X...), append(drive, s.Drive...)
	}
	for i, fo := range sel.BankOrigins {
		fold := sel.Folds[fo.Fold]
		if fo.Origin-sel.Window < fold.Block.Start || fo.Origin+cfg.K > fold.Block.End {
			t.Fatalf("bank row %d: origin %d outside fold %d's held-out block %v", i, fo.Origin, fo.Fold, fold.Block)
		}
		if i%37 != 0 {
			continue
		}
		var units []eval.Unit
		for _, s := range fold.Fit {
			units = append(units, eval.Unit{X: rows[s.Start:s.End], Drive: drive[s.Start:s.End]})
		}
		m, err := baseline.FitRidge(units, baseline.RidgeSpec{W: sel.Window, Lambda: sel.Lambda})
		if err != nil {
			t.Fatal(err)
		}
		o := fo.Origin
		f, err := m.Forecast(eval.Window{History: rows[o-sel.Window : o], HistoryDrive: drive[o-sel.Window : o], FutureDrive: drive[o : o+cfg.K]}, cfg.K)
		if err != nil {
			t.Fatal(err)
		}
		var pred []float64
		for _, r := range f {
			pred = append(pred, r...)
		}
		if !slices.Equal(bank.Row(i), residual(rows, o, pred)) {
			t.Fatalf("bank row %d is not fold %d's out-of-fold residual", i, fo.Fold)
		}
	}
}

func TestBuildARBankErrors(t *testing.T) {
	series := plantedVAR(2, 1, 200, 0.5)
	good := ARConfig{K: 4, Folds: 3, Purge: 4, Windows: []int{2}, Lambdas: []float64{1e-3}, ScoreStride: 2, BankStride: 2, MaxBank: 10}
	if _, _, err := BuildARBank(series, good); err != nil {
		t.Fatal(err)
	}
	bad := []data.Series{series[0], {X: series[0].X}}
	if _, _, err := BuildARBank(bad, good); err == nil || !strings.Contains(err.Error(), "series 1") {
		t.Errorf("mixed drive: err = %v", err)
	}
	for name, mut := range map[string]func(*ARConfig){
		"ARConfig.K":       func(c *ARConfig) { c.K = 0 },
		"ARConfig.Windows": func(c *ARConfig) { c.Windows = []int{0} },
		"ARConfig.Lambdas": func(c *ARConfig) { c.Lambdas = []float64{-1} },
		"ARConfig.Folds":   func(c *ARConfig) { c.Folds = 1 },
		"no held-out":      func(c *ARConfig) { c.K = 80 },
	} {
		c := good
		mut(&c)
		if _, _, err := BuildARBank(series, c); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

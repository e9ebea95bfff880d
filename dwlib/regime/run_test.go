package regime

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// A target that is an exact linear function of the drive paired with it: the linear drive-only
// probe explains everything (up to the 1% ridge shrinkage), so Ψ_D ≈ 1.
func TestPsiDIsOneForALinearFunctionOfTheDrive(t *testing.T) {
	units := gen(t, 20, 200, 21, func(rng *rand.Rand, T int) data.Series {
		s := data.Series{X: make([][]float64, T), Drive: make([][]float64, T)}
		for t := range T {
			u := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			s.Drive[t] = u
			s.X[t] = []float64{u[0] - 2*u[1], 0.5*u[2] + u[0]}
		}
		return s
	})
	res, err := Run(dataset(t, "linear-drive", units), quickConfig([]int{1, 8}, []int{1, 2}, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.HasDrive {
		t.Fatal("drive not detected")
	}
	for i, v := range res.Linear.PsiD {
		if v < 0.99 {
			t.Errorf("k = %d: linear Ψ_D = %v, want ≈ 1", res.Config.Horizons[i], v)
		}
	}
	// With one 3-dimensional drive row the 16 nearest neighbours are close: Ψ_D well above 0.
	if v := res.Nonlinear.PsiD[0]; v < 0.7 {
		t.Errorf("k = 1: nonlinear Ψ_D = %v", v)
	}
}

// History-free targets: history cannot help, and the null gains as little, so ΔΨ_H ≈ 0 for both
// probes. An autonomous testbed has Ψ_D = 0 exactly.
func TestDeltaPsiHIsZeroWithoutHistory(t *testing.T) {
	ds := dataset(t, "iid", gen(t, 20, 200, 22, arUnit(3, 1, 0)))
	res, err := Run(ds, quickConfig([]int{1, 8}, []int{1, 2, 4}, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]Scores{"linear": res.Linear, "nonlinear": res.Nonlinear} {
		if s.Long.PsiD != 0 || s.PsiD[0] != 0 {
			t.Errorf("%s: Ψ_D = %v on an autonomous testbed, want exactly 0", name, s.PsiD)
		}
		if math.Abs(s.Long.DeltaPsiH) > 0.02 {
			t.Errorf("%s: ΔΨ_H = %v (Ψ_H %v, null %v), want ≈ 0", name, s.Long.DeltaPsiH, s.Long.PsiH, s.Long.PsiHNull)
		}
	}
}

// A slowly decaying AR(1): history predicts k = 8 and 16 steps ahead (the correlations φ^k are
// .78 and .61), so ΔΨ_H is clearly positive for both probes, under either null.
func TestDeltaPsiHIsPositiveOnAnARProcess(t *testing.T) {
	ds := dataset(t, "ar1", gen(t, 20, 240, 23, arUnit(2, 1, 0.97)))
	for _, null := range []string{NullPermute, NullCircular} {
		c := quickConfig([]int{1, 8, 16}, []int{1, 2}, 2)
		c.Null = null
		res, err := Run(ds, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		lin, nl := res.Linear.Long, res.Nonlinear.Long
		if lin.DeltaPsiH < 0.2 || nl.DeltaPsiH < 0.2 {
			t.Errorf("%s null: ΔΨ_H linear %v (Ψ_H %v, null %v), nonlinear %v (Ψ_H %v, null %v)", null,
				lin.DeltaPsiH, lin.PsiH, lin.PsiHNull, nl.DeltaPsiH, nl.PsiH, nl.PsiHNull)
		}
		// Permuted history is unrelated to its example: the linear null gains nothing. A circular
		// shift keeps the history inside its own unit, and on units only a few correlation times
		// long (240 steps, 1/(1−φ) ≈ 33) that still tells the unit's level: the circular null
		// gains something, which is what it is meant to discount.
		if null == NullPermute && math.Abs(lin.PsiHNull) > 0.02 {
			t.Errorf("%s null: linear Ψ_H^null = %v, want ≈ 0", null, lin.PsiHNull)
		}
	}
}

// Eight channels of x_t = .9 x_{t−4} + noise: the last four states carry everything (for every
// horizon), shorter windows miss x_{t−4}, longer ones only add columns to overfit (128 at W = 16
// for a few hundred examples). The validation selection must pick W = 4.
func TestWindowSelectionPicksTheRightWidth(t *testing.T) {
	ds := dataset(t, "seasonal", gen(t, 20, 120, 24, arUnit(8, 4, 0.9)))
	c := quickConfig([]int{1, 2, 3, 8}, []int{1, 2, 4, 8, 16}, 8)
	c.FitExamples, c.ValExamples = 400, 400
	res, err := Run(ds, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Window != 4 {
		t.Errorf("selected W = %d, want 4; table %+v", res.Window, res.Selection)
	}
	for _, ws := range res.Selection {
		if ws.W < 4 && ws.MeanRatio < res.Selection[2].MeanRatio+0.1 {
			t.Errorf("W = %d ratio %v is not clearly worse than W = 4 (%v)", ws.W, ws.MeanRatio, res.Selection[2].MeanRatio)
		}
	}
}

func TestRunIsDeterministicAndScoresValidation(t *testing.T) {
	ds := dataset(t, "ar1", gen(t, 10, 150, 25, arUnit(2, 1, 0.9)))
	c := quickConfig([]int{1, 8}, []int{1, 2}, 2)
	c.Score = ScoreValidation
	a, err := Run(ds, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(ds, c, nil)
	if a.Linear.Long != b.Linear.Long || a.Nonlinear.Long != b.Nonlinear.Long {
		t.Errorf("two runs differ: %+v vs %+v", a.Linear.Long, b.Linear.Long)
	}
	// 10 units: 6 train, 2 validation (1 selects, 1 is scored), 2 test untouched.
	if a.SelectUnits != 1 || a.ScoreUnits != 1 || a.FitUnits != 7 {
		t.Errorf("units: select %d, score %d, fit %d", a.SelectUnits, a.ScoreUnits, a.FitUnits)
	}
	c.Null = "shuffle"
	if _, err := Run(ds, c, nil); err == nil {
		t.Error("unknown null accepted")
	}
}

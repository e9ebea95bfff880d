package appdiag

import (
	"fmt"
	"math"
	"time"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// UtilityConfig configures HeldOutUtility. Zero fields take the authors' defaults.
type UtilityConfig struct {
	Pairs         int     // train–test pairs requested (DefaultPairs); fewer if a split is smaller
	StartFraction float64 // relative start position (DefaultStartFraction); negative selects 0
	Coords        int     // parameter coordinates sampled (DefaultCoords); ≥ the model's count: all
	Loss          string  // step loss, LossRelL2 (default) or LossMSE
	Seed          uint64  // pairs and coordinate sample
}

// Defaults returns c with zero fields set.
func (c UtilityConfig) Defaults() UtilityConfig {
	if c.Pairs == 0 {
		c.Pairs = DefaultPairs
	}
	if c.StartFraction == 0 {
		c.StartFraction = DefaultStartFraction
	} else if c.StartFraction < 0 {
		c.StartFraction = 0
	}
	if c.Coords == 0 {
		c.Coords = DefaultCoords
	}
	if c.Loss == "" {
		c.Loss = LossRelL2
	}
	return c
}

// UtilityResult holds the per-pair measurements of HeldOutUtility; rows are pairs, columns the
// forecast steps k = 1..K (index k−1).
type UtilityResult struct {
	K      int
	Pairs  []Pair
	Coords CoordSample
	// A[p][k−1] = ‖g_k^A‖/‖g_1^A‖ and U[p][k−1] = ⟨g_k^A/‖g_k^A‖, ḡ^B⟩ of pair p.
	A, U [][]float64
	// NormA[p][k−1] = ‖g_k^A‖ and NormB[p] = ‖ḡ^B‖ (sampled, full-dimensionally scaled).
	NormA [][]float64
	NormB []float64
	// LossA[p][k−1] and LossB[p][k−1] are the step losses of the two examples.
	LossA, LossB [][]float64
	// Seconds is the wall time of the measurement.
	Seconds float64
}

// HeldOutUtility measures A(k) and U(k) (paper, Eq. real-per-horizon-gradient-utility) of m at
// its current parameters: pairs of a training example A (from trainUnits) and a test example B
// (from testUnits) are drawn by DrawPairs; for each pair, the gradient g_k^A of every single
// step's loss and the gradient ḡ^B of B's full-horizon loss (1/K)Σ_j L_j^B = (1/K)Σ_j g_j^B
// are taken over one coordinate sample (NewCoordSample with cfg.Seed) shared by all pairs and
// steps. rep (may be nil) sees one step per pair.
func HeldOutUtility(bk compute.Backend, m Model, trainUnits, testUnits []data.Series, g train.Geometry, cfg UtilityConfig, rep progress.Reporter) (*UtilityResult, error) {
	start := time.Now()
	cfg = cfg.Defaults()
	sg, err := NewStepGradients(bk, m, g.K, cfg.Loss)
	if err != nil {
		return nil, err
	}
	pairs, err := DrawPairs(trainUnits, testUnits, g, cfg.Pairs, cfg.StartFraction, cfg.Seed)
	if err != nil {
		return nil, err
	}
	cs, err := NewCoordSample(sg.NumParameters(), cfg.Coords, cfg.Seed)
	if err != nil {
		return nil, err
	}
	rep = progress.OrNop(rep)
	rep.Start(len(pairs), "held-out gradient utility")
	defer rep.Finish()
	r := &UtilityResult{K: g.K, Pairs: pairs, Coords: cs}
	for i, p := range pairs {
		ba, err := shiftedBatch(m, trainUnits, train.Pick{Unit: p.A.Unit, Origin: p.A.Origin}, g)
		if err != nil {
			return nil, err
		}
		bb, err := shiftedBatch(m, testUnits, train.Pick{Unit: p.B.Unit, Origin: p.B.Origin}, g)
		if err != nil {
			return nil, err
		}
		lossA, gA, _, err := sg.PerStep(ba)
		if err != nil {
			return nil, err
		}
		w := make([]float64, g.K)
		for k := range w {
			w[k] = 1 / float64(g.K)
		}
		lossB, gB, err := sg.Compute(bb, w)
		if err != nil {
			return nil, err
		}
		a, u, na, nb := Measure(cs, gA, gB)
		r.A, r.U, r.NormA, r.NormB = append(r.A, a), append(r.U, u), append(r.NormA, na), append(r.NormB, nb)
		r.LossA, r.LossB = append(r.LossA, lossA), append(r.LossB, lossB)
		rep.Step(1, fmt.Sprintf("pair %d/%d", i+1, len(pairs)))
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// Measure computes one pair's A(k), U(k) and norms from the full gradients g_k^A (k = 1..K) and
// ḡ^B over the coordinate sample cs: A(k) = ‖g_k^A‖/‖g_1^A‖ and
// U(k) = ⟨g_k^A, ḡ^B⟩/‖g_k^A‖, with the scaled norms and inner products of cs (norms below 1e-30
// are taken as 1e-30, as the authors guard them).
func Measure(cs CoordSample, gA [][]float64, gB []float64) (a, u, normA []float64, normB float64) {
	pb := cs.Project(gB)
	normB = cs.Norm(pb)
	a, u, normA = make([]float64, len(gA)), make([]float64, len(gA)), make([]float64, len(gA))
	for k, gk := range gA {
		pk := cs.Project(gk)
		normA[k] = cs.Norm(pk)
		u[k] = cs.Dot(pk, pb) / math.Max(normA[k], 1e-30)
	}
	for k := range a {
		a[k] = normA[k] / math.Max(normA[0], 1e-30)
	}
	return a, u, normA, normB
}

// UtilitySummary is the figure's summary of a UtilityResult over pairs, per forecast step.
type UtilitySummary struct {
	K                   int
	Pairs               int
	AMedian, AQ10, AQ90 []float64 // A(k): median and 10–90% band
	UMedian, UQ25, UQ75 []float64 // U(k): median and interquartile band
	NegativeSteps       int       // forecast steps with median U(k) < 0
	NegativeFraction    float64   // NegativeSteps / K (the figure prints it in percent)
	AFinal, AMax        float64   // median A(K), and the largest median A(k)
}

// Summary condenses the result (quantiles by Quantile, i.e. numpy's linear interpolation).
func (r *UtilityResult) Summary() UtilitySummary {
	s := UtilitySummary{K: r.K, Pairs: len(r.Pairs)}
	s.AMedian, s.AQ10, s.AQ90 = make([]float64, r.K), make([]float64, r.K), make([]float64, r.K)
	s.UMedian, s.UQ25, s.UQ75 = make([]float64, r.K), make([]float64, r.K), make([]float64, r.K)
	s.AMax = math.Inf(-1)
	for k := range r.K {
		a, u := column(r.A, k), column(r.U, k)
		s.AMedian[k], s.AQ10[k], s.AQ90[k] = Median(a), Quantile(a, 0.1), Quantile(a, 0.9)
		s.UMedian[k], s.UQ25[k], s.UQ75[k] = Median(u), Quantile(u, 0.25), Quantile(u, 0.75)
		if s.UMedian[k] < 0 {
			s.NegativeSteps++
		}
		s.AMax = math.Max(s.AMax, s.AMedian[k])
	}
	s.NegativeFraction = float64(s.NegativeSteps) / float64(r.K)
	s.AFinal = s.AMedian[r.K-1]
	return s
}

// shiftedBatch is the one-window batch at pick, shifted as m's training shifted its batches when
// m says how (a Forecaster of a model with model.Spec.Shift).
func shiftedBatch(m Model, units []data.Series, p train.Pick, g train.Geometry) (*train.Batch, error) {
	b, err := train.MakeBatch(units, []train.Pick{p}, g)
	if err != nil {
		return nil, err
	}
	if s, ok := m.(interface{ Spec() model.Spec }); ok {
		return train.ShiftBatch(b, s.Spec().Shift)
	}
	return b, nil
}

package appdiag

import (
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// tinyShearRun is shear-cpu for method at the size of a test (dwlib/experiment's tinyShearRun):
// 5 trajectories (3/1/1) of 10 frames of the 32 × 64 simulation subsampled by 4, 8-frame
// sequences with stride 2, a U-Net of width 4 with 2 levels, K = 4, 3 minibatches of 2 windows,
// one epoch.
func tinyShearRun(t *testing.T, method string) experiment.RunConfig {
	t.Helper()
	c, err := experiment.Resolve(experiment.ShearCPU, data.ShearName, method, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Data = experiment.DataConfig{NumTraj: 5, Length: 10, FieldGrid: data.ShearGridCPU, Subsample: 4, SeqLen: 8, SeqStride: 2}
	f, err := data.ShearField(data.Options{Seed: c.Seed, NumTraj: c.Data.NumTraj, Length: c.Data.Length,
		FieldGrid: c.Data.FieldGrid, Subsample: c.Data.Subsample, SeqLen: c.Data.SeqLen, SeqStride: c.Data.SeqStride})
	if err != nil {
		t.Fatal(err)
	}
	c.Model.Channels, c.Model.Height, c.Model.Width, c.Model.Base, c.Model.Depth = f.Channels, f.Height, f.Width, 4, 2
	if c.Train.Segment != 0 {
		c.Train.Segment = max(1, int(math.Round(float64(c.Train.Segment)*4/float64(c.Train.K))))
	}
	c.Train.K, c.Train.BatchSize, c.Train.Warmup, c.Train.Period = 4, 2, 1, 1
	c.HEval = eval.HEval(4)
	c.Fit.Epochs, c.Fit.ValOrigins, c.Fit.EvalBatch = 1, 2, 4
	c.EvalOrigins = 2
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// TestOfRunShear: the held-out gradient utility, the gains' response to added noise and the
// noise attribution work on the U-Net of a tiny shear run, end to end, with finite numbers of the
// right shape.
func TestOfRunShear(t *testing.T) {
	opt := experiment.Options{RunsDir: t.TempDir(), DataCache: t.TempDir()}
	full, dw := tinyShearRun(t, "full"), tinyShearRun(t, "dw")
	for _, c := range []experiment.RunConfig{full, dw} {
		if _, err := experiment.Run(c, opt); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := experiment.LoadData(full, opt)
	if err != nil {
		t.Fatal(err)
	}
	const K, L = 4, 2*2 + 1 // the U-Net's routed blocks: 2·Depth + 1
	u, err := UtilityOfRun(full, opt, UtilityConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := min(DefaultPairs, len(ds.Train), len(ds.Test)); len(u.Pairs) != want || u.K != K || len(u.A) != want {
		t.Fatalf("%d pairs (want %d), K = %d", len(u.Pairs), want, u.K)
	}
	for p := range u.A {
		if len(u.A[p]) != K || len(u.U[p]) != K || u.A[p][0] != 1 || !finite(u.A[p]...) || !finite(u.U[p]...) {
			t.Errorf("pair %d: A %v, U %v", p, u.A[p], u.U[p])
		}
	}
	s := u.Summary()
	if s.K != K || len(s.AMedian) != K || len(s.UMedian) != K || !finite(s.UMedian...) {
		t.Errorf("summary %+v", s)
	}
	r, err := NoiseResponseOfRun(dw, opt, DefaultNoiseSplit(dw.Testbed), NoiseConfig{Batches: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Windows) != len(ds.Test) || r.K != K || r.L != L || len(r.ResidualRMS) != K || len(r.Levels) != 3 {
		t.Fatalf("%d windows for %d test units, K = %d, L = %d, %d RMS, %d levels", len(r.Windows), len(ds.Test), r.K, r.L, len(r.ResidualRMS), len(r.Levels))
	}
	for i, lv := range r.Levels {
		if lv.Calibrations < 1 || lv.Calibrations+lv.Skipped != 4 || !finite(lv.MeanAlpha, lv.MeanM, lv.NoiseShare) || !finite(lv.Gains...) || len(lv.Gains) != 2*K*L {
			t.Errorf("level %d: %d calibrations (%d skipped), α %v, m %v, share %v, %d gains", i, lv.Calibrations, lv.Skipped, lv.MeanAlpha, lv.MeanM, lv.NoiseShare, len(lv.Gains))
		}
	}
	a, err := AttributionOfRun(dw, opt, AtInit, AttributionConfig{Windows: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.L != L || len(a.Total) != K*L || !finite(a.Total...) {
		t.Errorf("attribution: L = %d, %d totals %v", a.L, len(a.Total), a.Total)
	}
}

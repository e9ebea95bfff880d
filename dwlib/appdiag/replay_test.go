package appdiag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// TestReplayController runs DW's pipeline on a small forecaster: the parameters must not move, a
// share must be logged after every calibration (warm-up 2, period 2), and the same seed must give
// the same shares.
func TestReplayController(t *testing.T) {
	f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, Hidden: 6, Layers: 2, SSMState: 2, ConvWidth: 2,
		Window: 3, DType: dtypes.Float64, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	units := make([]data.Series, 6)
	for i := range units {
		x := make([][]float64, 30)
		for t := range x {
			x[t] = []float64{rng.NormFloat64(), rng.NormFloat64()}
		}
		units[i] = data.Series{X: x}
	}
	g := train.Geometry{Window: 3, K: 4}
	tcfg := train.Config{Method: "dw", K: 4, BatchSize: 4, LR: 1e-2, Warmup: 2, Period: 2, Seed: 1}
	fcfg := train.FitConfig{StartsPerUnit: 2}
	params := func() []float64 {
		var out []float64
		for v := range f.Store().IterVariables() {
			if v.Trainable {
				out = append(out, tensors.MustCopyFlatData[float64](v.MustValue())...)
			}
		}
		return out
	}
	before := params()
	bk := testBackend(t)
	r, err := ReplayController(bk, f, units, g, tcfg, fcfg, 2, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 2 epochs of 6 units × 2 starts = 12 windows in microbatches of 4: 6 microbatches, of which
	// the 3rd and 5th calibrate (warm-up 2, then every 2nd from the 3rd).
	if r.Microbatches != 6 || len(r.Shares) != 2 {
		t.Errorf("%d microbatches, %d shares %v; want 6 and 2", r.Microbatches, len(r.Shares), r.Shares)
	}
	for _, s := range r.Shares {
		if !(s > 0) {
			t.Errorf("share %v, want > 0", s)
		}
	}
	if len(r.Shares) > 0 && r.Final() != r.Shares[len(r.Shares)-1] {
		t.Errorf("Final() = %v, want the last share %v", r.Final(), r.Shares[len(r.Shares)-1])
	}
	if !slices.Equal(params(), before) {
		t.Error("the replay moved the parameters")
	}
	// One epoch of 3 microbatches with a warm-up of 4: nothing calibrates, and Final says so.
	long := tcfg
	long.Warmup = 4
	none, err := ReplayController(bk, f, units, g, long, fcfg, 1, 5, nil)
	if err != nil || len(none.Shares) != 0 || !math.IsNaN(none.Final()) {
		t.Errorf("warm-up longer than the replay: %v shares, Final %v (%v); want none and NaN", none.Shares, none.Final(), err)
	}
	again, err := ReplayController(bk, f, units, g, tcfg, fcfg, 2, 5, nil)
	if err != nil || !slices.Equal(again.Shares, r.Shares) {
		t.Errorf("seed 5 twice: %v and %v (%v)", r.Shares, again.Shares, err)
	}
	full := tcfg
	full.Method = "full"
	if _, err := ReplayController(bk, f, units, g, full, fcfg, 1, 5, nil); err == nil {
		t.Error("a Full configuration was accepted")
	}
}

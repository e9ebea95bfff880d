package model_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

// TestChannelIndependentIsPerCoordinate checks the defining property of a channel-independent
// forecaster: its rollout of a D-coordinate state is, coordinate by coordinate, the rollout of the
// single-coordinate forecaster with the same weights (copied: the parameter shapes agree) fed
// that coordinate alone and the same drive, through routed merges with gains that differ per
// (k, ℓ).
//
// With ChannelDrive "own" the single-coordinate forecaster of coordinate c is fed drive column c
// alone: a forecaster that mixed in another column (the whole drive, or a misaligned reshape)
// fails, since each column differs.
func TestChannelIndependentIsPerCoordinate(t *testing.T) {
	for _, own := range []bool{false, true} {
		name := "whole drive"
		if own {
			name = "own drive"
		}
		t.Run(name, func(t *testing.T) { testPerCoordinate(t, own) })
	}
}

func testPerCoordinate(t *testing.T, own bool) {
	const (
		N, D, W, K = 2, 3, 3, 4
	)
	J, jOne := 1, 1 // drive columns of the D-coordinate data and of the single-coordinate forecaster
	if own {
		J = D
	}
	base := model.Config{Kind: "mamba", DriveDim: jOne, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2, Window: W,
		DType: dtypes.Float64, Seed: 5}
	ci := base
	ci.StateDim, ci.DriveDim, ci.ChannelIndependent = D, J, true
	if own {
		ci.ChannelDrive = model.ChannelDriveOwn
	}
	one := base
	one.StateDim = 1
	fCI, fOne := newForecaster(t, ci), newForecaster(t, one)
	rng := rand.New(rand.NewPCG(3, 4))
	perturbVariables(t, fCI, rng, 0.3)
	vCI, vOne := variables(fCI), variables(fOne)
	if len(vCI) != len(vOne) {
		t.Fatalf("%d variables against %d", len(vCI), len(vOne))
	}
	for i := range vCI {
		setValues64(t, vOne[i], values64(t, vCI[i]))
	}
	hist := randn(rng, N*W*D, 1)
	drive := randn(rng, N*(W-1+K)*J, 1)
	gains := gainsTensor(K, 2, func(k, l int) (float64, float64) { return 0.3 + 0.1*float64(k), 0.9 - 0.2*float64(l) })

	rollout := func(f *model.Forecaster, h []float64, d int, dr []float64, j int) []float64 {
		exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(_ *mlmodel.Scope, in []*Node) *Node {
			return Stack(f.Rollout(route.NewRouter(in[2]), model.Inputs{History: in[0], Drive: in[1]}, K, model.RolloutOptions{}).Preds, 1)
		})
		out := exec.MustCall(tensors.FromFlatDataAndDimensions(h, N, W, d),
			tensors.FromFlatDataAndDimensions(dr, N, W-1+K, j), gains)
		return tensors.MustCopyFlatData[float64](out[0]) // [N, K, d]
	}
	got := rollout(fCI, hist, D, drive, J)
	for c := range D {
		h := make([]float64, N*W)
		for i := range N * W {
			h[i] = hist[i*D+c]
		}
		dOne := drive // the whole drive (one column), or column c of the own drives
		if own {
			dOne = make([]float64, N*(W-1+K))
			for i := range dOne {
				dOne[i] = drive[i*J+c]
			}
		}
		want := rollout(fOne, h, 1, dOne, jOne)
		for i := range N * K {
			// Equal up to the summation order of batched products over N·D rows instead of N.
			if g, w := got[i*D+c], want[i]; math.Abs(g-w) > 1e-13*(1+math.Abs(w)) {
				t.Fatalf("coordinate %d, row %d: channel-independent rollout %.17g, single-coordinate rollout %.17g", c, i, g, w)
			}
		}
	}
}

// Package modeltest builds small float64 forecasters for the tests of other packages.
package modeltest

import (
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// Perturbed returns a Float64 forecaster of cfg (DType is forced to Float64) whose parameters
// have N(0, std²) noise added from seed, so that the near-persistence initialisation (tiny
// read-out, unit norm gains, zero biases) does not hide a wrongly wired term.
func Perturbed(t testing.TB, cfg model.Config, std float64, seed uint64) *model.Forecaster {
	t.Helper()
	cfg.DType = dtypes.Float64
	f, err := model.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	for v := range f.Store().IterVariables() {
		x := tensors.MustCopyFlatData[float64](v.MustValue())
		for i := range x {
			x[i] += std * rng.NormFloat64()
		}
		if err := v.SetValue(tensors.FromFlatDataAndDimensions(x, v.Shape().Dimensions...)); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

package experiment

import (
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// TestLoadInit checks that LoadInit gives the parameters a run starts from (and LoadLast those it
// stopped at): the same for Full and
// DW of one seed (the paired comparison starts both from one point), another for another seed,
// and not the trained ones.
func TestLoadInit(t *testing.T) {
	opt := Options{RunsDir: t.TempDir(), DataCache: t.TempDir()}
	params := func(method string, seed uint64) []float64 {
		t.Helper()
		cfg, err := Resolve(Quick, "mackey-glass", method, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, f, err := LoadInit(cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		return flatParams(t, f)
	}
	full0, dw0, full1 := params("full", 0), params("dw", 0), params("full", 1)
	if len(full0) == 0 || !slices.Equal(full0, dw0) {
		t.Errorf("Full and DW of seed 0 start from different parameters (%d values)", len(full0))
	}
	if slices.Equal(full0, full1) {
		t.Error("seeds 0 and 1 start from the same parameters")
	}
	cfg, _ := Resolve(Quick, "mackey-glass", "full", 0, 0)
	if _, err := Run(cfg, opt); err != nil {
		t.Fatal(err)
	}
	_, best, err := LoadBest(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(flatParams(t, best), full0) {
		t.Error("the trained parameters equal the initial ones")
	}
	// The last epoch's parameters are the best ones exactly when the best epoch is the last.
	r, _, err := ReadFinished(cfg, opt)
	if err != nil || r == nil {
		t.Fatalf("result: %v", err)
	}
	_, last, err := LoadLast(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if same, bestIsLast := slices.Equal(flatParams(t, last), flatParams(t, best)), r.BestEpoch == len(r.Epochs); same != bestIsLast {
		t.Errorf("last and best parameters equal: %v; best epoch %d of %d", same, r.BestEpoch, len(r.Epochs))
	}
	if slices.Equal(flatParams(t, last), full0) {
		t.Error("the last epoch's parameters equal the initial ones")
	}
	dw, _ := Resolve(Quick, "mackey-glass", "dw", 0, 0)
	if _, _, err := LoadLast(dw, opt); err == nil {
		t.Error("LoadLast of a run never trained succeeded")
	}
}

// flatParams concatenates every trainable variable of f (not an optimizer's state), in iteration
// order, as float64.
func flatParams(t *testing.T, f *model.Forecaster) []float64 {
	t.Helper()
	var out []float64
	for v := range f.Store().IterVariables() {
		if !v.Trainable {
			continue
		}
		switch val := v.MustValue(); val.DType() {
		case dtypes.Float32:
			for _, x := range tensors.MustCopyFlatData[float32](val) {
				out = append(out, float64(x))
			}
		case dtypes.Float64:
			out = append(out, tensors.MustCopyFlatData[float64](val)...)
		default:
			t.Fatalf("variable %s has dtype %s", v.Path(), val.DType())
		}
	}
	return out
}

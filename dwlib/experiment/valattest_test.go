package experiment

import (
	"math"
	"path/filepath"
	"testing"
)

// TestValAtTest: a run records its checkpoint's validation score under the test protocol, equal
// to what EvaluateRunSpec computes from the checkpoint; a result without it (written before the
// field existed) gets it back from RecordValAtTest, checksum and all.
func TestValAtTest(t *testing.T) {
	opt := quickOptions(t)
	cfg := quickCfg(t, "full", 0)
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.ValAtTest == nil {
		t.Fatal("no ValAtTest in a fresh run's result")
	}
	dir, _ := opt.Dir(cfg)
	_, want, err := EvaluateRunSpec(dir, EvalSpec{Split: SplitVal, Protocol: SplitTest}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.ValAtTest.RelL2-want.RelL2) > 1e-12 || len(r.ValAtTest.PerHorizon) != cfg.HEval || r.ValAtTest.Origins != want.Origins {
		t.Errorf("ValAtTest %v over %d horizons and %d origins; EvaluateRunSpec %v over %d origins", r.ValAtTest.RelL2, len(r.ValAtTest.PerHorizon), r.ValAtTest.Origins, want.RelL2, want.Origins)
	}
	if r.ValAtTest.RelL2 == r.Test.RelL2 {
		t.Errorf("ValAtTest equals the test score %v: the wrong split?", r.Test.RelL2)
	}
	// An older result: the same without the field.
	path := filepath.Join(dir, ResultFile)
	old := *r
	old.ValAtTest = nil
	if err := WriteResult(path, &old); err != nil {
		t.Fatal(err)
	}
	got, err := RecordValAtTest(dir, opt)
	if err != nil || math.Abs(got.RelL2-want.RelL2) > 1e-12 {
		t.Fatalf("RecordValAtTest = %v, %v; want %v", got.RelL2, err, want.RelL2)
	}
	back, err := ReadResult(path)
	if err != nil || back.ValAtTest == nil || back.ValAtTest.RelL2 != got.RelL2 || back.Test.RelL2 != r.Test.RelL2 {
		t.Errorf("the result read back: %v (ValAtTest %v), want ValAtTest %v and the test score unchanged", err, back.ValAtTest, got.RelL2)
	}
}

package experiment

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/prior"
)

// withNoiseSampler builds the "prior-ar" bank from the training split only (poisoning the
// validation and test splits changes nothing), with the run's K and state dimension, and leaves
// other samplers alone; the run directory names the sampler.
func TestPriorARSamplerFromTrainingSplit(t *testing.T) {
	cfg, err := Resolve(Quick, "mackey-glass", "dw", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	opt := quickOptions(t)
	ds, err := LoadData(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	same, _, err := withNoiseSampler(cfg, ds)
	if err != nil || same.Train.NoiseSampler != nil {
		t.Fatalf("generic run: sampler %v, %v; want none attached", same.Train.NoiseSampler, err)
	}
	cfg.Train.Sampler = prior.ARName
	if !strings.Contains(cfg.Name(), "/dw-prior-ar-K") {
		t.Errorf("run name %q does not name the sampler", cfg.Name())
	}
	got, _, err := withNoiseSampler(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := got.Train.NoiseSampler.(*prior.Sampler)
	if !ok || s.Name() != prior.ARName || s.Bank().K() != cfg.Train.K || s.Bank().D() != ds.StateDim {
		t.Fatalf("attached sampler %#v", got.Train.NoiseSampler)
	}
	bad := got.Train
	bad.Sampler = "generic"
	if err := bad.Defaults().Validate(); err == nil || !strings.Contains(err.Error(), "NoiseSampler") {
		t.Errorf("a prior-ar NoiseSampler under Sampler %q: err = %v", bad.Sampler, err)
	}
	for _, split := range [][]int{{0}, {1}} {
		units := ds.Val
		if split[0] == 1 {
			units = ds.Test
		}
		for _, u := range units {
			for _, r := range u.X {
				for d := range r {
					r[d] = math.NaN()
				}
			}
		}
	}
	again, _, err := withNoiseSampler(cfg, ds)
	if err != nil {
		t.Fatalf("the bank read the poisoned validation or test split: %v", err)
	}
	b1, b2 := s.Bank(), again.Train.NoiseSampler.(*prior.Sampler).Bank()
	for i := range b1.Len() {
		if !slices.Equal(b1.Row(i), b2.Row(i)) {
			t.Fatal("the bank depends on the validation or test split")
		}
	}
}

// A DW-Prior run trains, and stopped after one epoch and resumed (the bank restored from the
// checkpoint's sampler JSON) it ends with the numbers of an uninterrupted run.
func TestPriorARRunResumes(t *testing.T) {
	cfg, err := Resolve(Quick, "mackey-glass", "dw", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Train.Sampler, cfg.Fit.Epochs = prior.ARName, 2
	cache := t.TempDir()
	whole, err := Run(cfg, Options{RunsDir: t.TempDir(), DataCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	calib := 0
	for _, e := range whole.Epochs {
		calib += e.Calibrations
	}
	if calib == 0 {
		t.Fatal("the DW-Prior run never calibrated")
	}
	opt := Options{RunsDir: t.TempDir(), DataCache: cache, StopAfter: 1}
	if _, err := Run(cfg, opt); !errors.Is(err, ErrStopped) {
		t.Fatalf("StopAfter 1: %v, want ErrStopped", err)
	}
	opt.Resume, opt.StopAfter = true, 0
	resumed, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Test.RelL2 != whole.Test.RelL2 {
		t.Errorf("resumed DW-Prior run: test %v, uninterrupted %v", resumed.Test.RelL2, whole.Test.RelL2)
	}
}

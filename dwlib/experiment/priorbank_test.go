package experiment

import (
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/prior"
)

// TestPriorBank: the bank PriorBank rebuilds for a quick ieeg-synth DW-Prior run is the one the
// run's sampler gets (same rows: same seed, same selection), its record names the selection, the
// true noise has the bank's (K·D)² shape, and a run without a prior sampler is refused.
func TestPriorBank(t *testing.T) {
	opt := quickOptions(t)
	cfg, err := Resolve(Quick, "ieeg-synth", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Train.Sampler = prior.FactorName
	bank, rec, ds, err := PriorBank(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	withBank, _, err := withNoiseSampler(cfg, ds)
	if err != nil {
		t.Fatal(err)
	}
	again := withBank.Train.NoiseSampler.(*prior.Sampler).Bank()
	if bank.Len() != again.Len() || bank.K() != cfg.Train.K || bank.D() != ds.StateDim || rec.Rank < 1 {
		t.Fatalf("bank %d×K%d×D%d (rebuilt: %d rows), record %+v", bank.Len(), bank.K(), bank.D(), again.Len(), rec)
	}
	for i := range bank.Len() {
		a, b := bank.Row(i), again.Row(i)
		for j := range a {
			if a[j] != b[j] {
				t.Fatalf("row %d value %d: %v, then %v: the bank is not reproducible", i, j, a[j], b[j])
			}
		}
	}
	truth, err := TrueNoise(cfg, ds)
	if n := bank.K() * bank.D(); err != nil || len(truth) != n*n {
		t.Fatalf("TrueNoise: %d values, %v; want %d", len(truth), err, n*n)
	}
	cfg.Train.Sampler = "generic"
	if _, _, _, err := PriorBank(cfg, opt); err == nil || !strings.Contains(err.Error(), "not a DW-Prior run") {
		t.Errorf("PriorBank of a DW-Generic run: %v", err)
	}
}

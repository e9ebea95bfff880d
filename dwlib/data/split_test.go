package data

import (
	"fmt"
	"slices"
	"testing"
)

func TestSplitCounts(t *testing.T) {
	for _, tc := range []struct{ n, train, val, test int }{
		{40, 28, 6, 6},    // MG, NARMA-5 (Appendix F.1)
		{100, 70, 15, 15}, // known-SNR default: 15 test trajectories (Appendix E.1)
		{10, 6, 2, 2},     // 1.5 rounds half away from zero
		{5, 3, 1, 1},      // quick profiles keep every split non-empty
		{3, 1, 1, 1},
	} {
		tr, va, te, err := SplitCounts(tc.n)
		if err != nil || tr != tc.train || va != tc.val || te != tc.test {
			t.Errorf("SplitCounts(%d) = %d/%d/%d (%v), want %d/%d/%d", tc.n, tr, va, te, err, tc.train, tc.val, tc.test)
		}
	}
	if _, _, _, err := SplitCounts(2); err == nil {
		t.Error("SplitCounts(2): no error")
	}
}

func TestRandomSplitPartition(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(3) {
		sp, err := RandomSplit(40, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(sp.Train) != 28 || len(sp.Val) != 6 || len(sp.Test) != 6 {
			t.Fatalf("seed %d: sizes %d/%d/%d", seed, len(sp.Train), len(sp.Val), len(sp.Test))
		}
		all := slices.Concat(sp.Train, sp.Val, sp.Test)
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("seed %d: not a partition of 0..39: %v", seed, all)
			}
		}
		again, _ := RandomSplit(40, seed)
		if !slices.Equal(again.Test, sp.Test) || !slices.Equal(again.Val, sp.Val) {
			t.Fatalf("seed %d: split not reproducible", seed)
		}
		key := fmt.Sprint(sp.Val, sp.Test)
		if seen[key] {
			t.Errorf("seed %d: same split as an earlier seed", seed)
		}
		seen[key] = true
	}
}

// TestSplitDependsOnExperimentalSeedOnly: the generation seed changes the
// trajectories but not which indices go where; the experimental seed
// changes the assignment but not the trajectories.
func TestSplitDependsOnExperimentalSeedOnly(t *testing.T) {
	base := Options{NoCache: true, NumTraj: 12, Length: 40}
	load := func(o Options) *Dataset {
		d, err := Load("narma5", o)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := load(base)
	o := base
	o.GenSeed = 99
	b := load(o)
	if !slices.Equal(a.Split.Test, b.Split.Test) || !slices.Equal(a.Split.Train, b.Split.Train) {
		t.Error("split changed with the generation seed")
	}
	if rowsEqual(a.Train[0].X, b.Train[0].X) {
		t.Error("generation seed did not change the data")
	}
	o = base
	o.Seed = 1
	c := load(o)
	if slices.Equal(a.Split.Test, c.Split.Test) && slices.Equal(a.Split.Val, c.Split.Val) {
		t.Error("experimental seed did not change the split")
	}
	// Same trajectory index -> same raw data under both experimental seeds.
	raw, _ := GenerateNARMA5(NARMAConfig{NumTraj: 12, Length: 40, Channels: 8, BurnIn: 200, InputHigh: .5, Seed: DefaultGenSeed})
	for k, idx := range c.Split.Test {
		if !rowsEqual(c.Norm.Invert(c.Test[k]).Drive, raw[idx].Drive) {
			t.Errorf("test unit %d is not raw trajectory %d", k, idx)
		}
	}
}

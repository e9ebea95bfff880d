package train

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/model"
)

type testMeta struct {
	Method string `json:"method"`
	Seed   uint64 `json:"seed"`
}

// TestLoadModelRefusesAnotherRun: the best parameters of one run are not loaded as another's,
// even with the same architecture; seeds that differ beyond 2^53 are different runs.
func TestLoadModelRefusesAnotherRun(t *testing.T) {
	mine := testMeta{Method: "dw", Seed: math.MaxUint64}
	s := newFitSession(t, "full", mine)
	if _, err := s.RunEpoch(nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "best.ckpt")
	if err := s.SaveModel(path); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		meta any
		want string
	}{
		{"same run", mine, ""},
		{"another method", testMeta{Method: "full", Seed: math.MaxUint64}, `meta.method: checkpoint "dw", this run "full"`},
		{"seed 2^64-2", testMeta{Method: "dw", Seed: math.MaxUint64 - 1}, "meta.seed: checkpoint 18446744073709551615, this run 18446744073709551614"},
		{"no identity", nil, "meta: checkpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := model.New(fitModel)
			err := LoadModel(path, f, tc.meta)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ie *IdentityError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("LoadModel: %v, want an *IdentityError containing %q", err, tc.want)
			}
		})
	}
	// A session with seed 2^64-2 does not resume the checkpoint of seed 2^64-1.
	last := filepath.Join(t.TempDir(), "last.ckpt")
	if err := s.Save(last); err != nil {
		t.Fatal(err)
	}
	other := newFitSession(t, "full", testMeta{Method: "dw", Seed: math.MaxUint64 - 1})
	if err := other.Load(last); err == nil || !strings.Contains(err.Error(), "meta.seed") {
		t.Errorf("resuming seed 2^64-1 as seed 2^64-2: %v", err)
	}
}

// TestCheckBest: a resumed session recognises its own best checkpoint and refuses a missing,
// truncated, stale or foreign one.
func TestCheckBest(t *testing.T) {
	s := newFitSession(t, "full", "wave")
	dir := t.TempDir()
	best := filepath.Join(dir, "best.ckpt")
	if _, err := s.RunEpoch(nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveModel(best); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "stale.ckpt")
	raw, _ := os.ReadFile(best)
	if err := os.WriteFile(stale, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	s.sinceBest, s.bestVal = 0, math.Inf(1) // make epoch 2 the best whatever its loss
	if _, err := s.RunEpoch(nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveModel(best); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckBest(best); err != nil {
		t.Fatalf("CheckBest of its own best checkpoint: %v", err)
	}
	raw, _ = os.ReadFile(best)
	truncated := filepath.Join(dir, "truncated.ckpt")
	if err := os.WriteFile(truncated, raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.ckpt")
	if err := newFitSession(t, "full", "other").SaveModel(foreign); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.ckpt"), "no such file"},
		{truncated, "checksum mismatch"},
		{stale, "holds the parameters of epoch 1, this run's best epoch is 2"},
		{foreign, `meta: checkpoint "other", this run "wave"`},
	} {
		if err := s.CheckBest(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckBest(%s): %v, want an error containing %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

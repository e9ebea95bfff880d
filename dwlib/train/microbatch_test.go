package train

import (
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// TestTrajectoryMicrobatches: 10 units in microbatches of 4 give groups of 4, 4 and 2 units, every
// unit exactly once; each group's starts are distinct, inside the valid range of its shortest unit,
// and shared by all of its units (trajectory-major order).
func TestTrajectoryMicrobatches(t *testing.T) {
	units := rampUnits(40, 40, 40, 40, 40, 40, 40, 40, 40, 30)
	g := Geometry{Window: 3, K: 4, BurnIn: 0}
	groups, err := TrajectoryMicrobatches(rand.New(rand.NewPCG(1, 2)), units, 4, 5, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 3 || len(groups[0]) != 20 || len(groups[1]) != 20 || len(groups[2]) != 10 {
		t.Fatalf("group sizes %d, %d, %d; want 20, 20, 10 windows (4, 4, 2 units × 5 starts)", len(groups[0]), len(groups[1]), len(groups[2]))
	}
	seen := map[int]int{}
	for gi, picks := range groups {
		n := len(picks) / 5
		hi := 40 - 1 - 4
		for j := range n {
			u := picks[j*5].Unit
			seen[u]++
			if units[u].Len() == 30 {
				hi = 30 - 1 - 4
			}
		}
		origins := map[int]bool{}
		for s := range 5 {
			o := picks[s].Origin
			origins[o] = true
			for j := range n {
				p := picks[j*5+s]
				if p.Origin != o || p.Unit != picks[j*5].Unit {
					t.Fatalf("group %d: window %d is %+v, want unit %d at the shared start %d", gi, j*5+s, p, picks[j*5].Unit, o)
				}
			}
			if o < 2 || o > hi {
				t.Fatalf("group %d: start %d outside [2, %d]", gi, o, hi)
			}
		}
		if len(origins) != 5 {
			t.Errorf("group %d: %d distinct starts, want 5", gi, len(origins))
		}
	}
	for u := range units {
		if seen[u] != 1 {
			t.Errorf("unit %d is in %d microbatches, want 1", u, seen[u])
		}
	}
	if _, err := TrajectoryMicrobatches(rand.New(rand.NewPCG(1, 2)), units, 0, 5, g); err == nil {
		t.Error("perMicro = 0: no error")
	}
}

// TestTrajectoryEpochSteps: in grouping "trajectories", 7 units in microbatches of 2 make 4
// microbatches; Accumulate 3 gives 2 optimizer steps per epoch (3 + the remainder 1), and DW's
// clock ticks once per microbatch.
func TestTrajectoryEpochSteps(t *testing.T) {
	f, err := model.New(fitModel)
	if err != nil {
		t.Fatal(err)
	}
	tc := fitTrain
	tc.Method, tc.Warmup, tc.Period = "dw", 1, 1
	fc := fitFit
	fc.Grouping, fc.MicroTrajectories, fc.Accumulate, fc.AccumulateScale, fc.Chunk = GroupTrajectories, 2, 3, ScaleAuthors, 3
	s, err := NewSession(backend.MustShared(), f, tc, fc, waveUnits(7, 30, 1), waveUnits(2, 30, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.BatchesPerEpoch() != 4 {
		t.Errorf("BatchesPerEpoch = %d, want 4 microbatches", s.BatchesPerEpoch())
	}
	rec, err := s.RunEpoch(nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Batches != 4 || rec.Steps != 2 {
		t.Errorf("epoch: %d microbatches and %d optimizer steps, want 4 and 2", rec.Batches, rec.Steps)
	}
	if got := s.Trainer().Controller().Minibatch(); got != 4 {
		t.Errorf("DW clock after one epoch = %d microbatches, want 4", got)
	}
	if s.Trainer().Pending() != 0 {
		t.Errorf("%d microbatches left unapplied at the end of the epoch", s.Trainer().Pending())
	}
}

// TestNoiseGroupSharesADraw: with NoiseGroup 3, windows 0-2 and 3-5 of a calibration microbatch
// get identical probe noise rows (one draw per trajectory), and the groups are not all equal.
func TestNoiseGroupSharesADraw(t *testing.T) {
	tr, err := NewTrainer(backend.MustShared(), model64(t, "mlp", 1), Config{Method: "dw", K: 2, Warmup: 1, Period: 1, NoiseGroup: 3, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b := benchBatch(6, 1, 2, 2, 3)
	for range 3 { // warm-up, then calibrations with a committed template
		if _, err := tr.Step(b); err != nil {
			t.Fatal(err)
		}
	}
	s := tr.Controller().Sampler()
	rng := rand.New(rand.NewPCG(5, 5))
	eps, err := s.Sample(rng, 6, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	grouped := applyNoiseGroup(append([]float64(nil), eps...), 6, 2*2, 3)
	differ := false
	for j := range 4 {
		differ = differ || eps[j] != 0 && eps[j] != eps[3*4+j] || eps[j] != eps[4+j]
	}
	if !differ {
		t.Fatalf("the sampler drew the same row for every window: the test cannot tell groups apart (%v)", eps)
	}
	row := func(x []float64, i int) []float64 { return x[i*4 : (i+1)*4] }
	for i := range 6 {
		first := i - i%3
		for j, v := range row(grouped, i) {
			if v != row(eps, first)[j] {
				t.Fatalf("window %d entry %d = %g, want the first window %d's %g", i, j, v, first, row(eps, first)[j])
			}
		}
	}
}

package train

import (
	"math"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// TestTaskLoss checks both training losses on a hand-worked [N=1, K=2, D=2] case: errors (3, 4)
// and (0, 1) against targets (0, 5) and (1, 0).
func TestTaskLoss(t *testing.T) {
	pred := [][][]float64{{{3, 9}, {1, 1}}}
	target := [][][]float64{{{0, 5}, {1, 0}}}
	for _, c := range []struct {
		name string
		want float64
	}{
		{"", (5.0/5 + 1.0/1) / 2},         // rel-L2: ‖e‖/‖x*‖ per step, mean over steps
		{LossRelL2, (5.0/5 + 1.0/1) / 2},  // the same, by name
		{LossMSE, (9.0 + 16 + 0 + 1) / 4}, // mean of the squared errors
	} {
		out := MustExecOnce(backend.MustShared(), func(p, x *Node) *Node { return TaskLoss(c.name, p, x) }, pred, target)
		if got := tensors.MustCopyFlatData[float64](out)[0]; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("loss %q = %v, want %v", c.name, got, c.want)
		}
	}
	cfg := Config{Method: "full", K: 2, BatchSize: 1, LR: 1, ClipNorm: 1, Loss: "huber"}.Defaults()
	if err := cfg.Validate(); err == nil {
		t.Error(`Loss "huber" accepted`)
	}
}

// TestLossReachesTraining: the configured loss is the one a session trains on and reports.
func TestLossReachesTraining(t *testing.T) {
	epochLoss := func(loss string) float64 {
		f, err := model.New(fitModel)
		if err != nil {
			t.Fatal(err)
		}
		tc := fitTrain
		tc.Method, tc.Loss = "full", loss
		s, err := NewSession(backend.MustShared(), f, tc, fitFit, waveUnits(3, 30, 1), waveUnits(2, 30, 2), "wave")
		if err != nil {
			t.Fatal(err)
		}
		rec, err := s.RunEpoch(nil)
		if err != nil {
			t.Fatal(err)
		}
		return rec.TrainLoss
	}
	rel, mse := epochLoss(""), epochLoss(LossMSE)
	if !(rel > 0 && mse > 0) || rel == mse {
		t.Errorf("first-epoch training loss: rel-L2 %v, MSE %v; want two different positive values", rel, mse)
	}
}

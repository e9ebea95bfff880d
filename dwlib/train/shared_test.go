package train

import (
	"sync"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// TestSharedStepGraphs: two runs of one architecture (different seeds) share the step engine's
// graphs: the second builds none, and each run's numbers are bit-identical to those of the same
// run on executables of its own, even with the two runs' microbatches interleaved, concurrently.
func TestSharedStepGraphs(t *testing.T) {
	newModel := func(seed uint64) *model.Forecaster {
		f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 7, Layers: 2, SSMState: 3, Window: 4, Seed: seed, DType: dtypes.Float32})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	cfg := Config{Method: "dw", K: 5, BatchSize: 6, LR: 1e-2, Warmup: 1, Period: 2, Engine: EngineSteps}
	batch := driveBatch(6, 4, 5, 2, 1, 17)
	train := func(tr *Trainer, f *model.Forecaster, steps int) {
		for range steps {
			if _, err := tr.Step(batch); err != nil {
				t.Error(err)
				return
			}
		}
	}
	own := func(seed uint64) []float64 { // the run on its own executables
		f := newModel(seed)
		c := cfg
		c.Seed = seed
		tr, err := newTrainer(backend.MustShared(), f, c, func(string, *Graph, []*Node) {})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tr.engine.bwd.(*boundExec); ok {
			t.Fatal("a trainer with an inspection hook got shared executables")
		}
		train(tr, f, 5)
		return paramValues(t, f)
	}
	want := map[uint64][]float64{11: own(11), 12: own(12)}

	shared := func(seed uint64) (*Trainer, *model.Forecaster) {
		f := newModel(seed)
		c := cfg
		c.Seed = seed
		tr, err := NewTrainer(backend.MustShared(), f, c)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tr.engine.bwd.(*boundExec); !ok {
			t.Fatal("the step engine did not share its executables")
		}
		return tr, f
	}
	trA, fA := shared(11)
	train(trA, fA, 5)
	built := sharedBuilds()
	trB, fB := shared(12)
	train(trB, fB, 5)
	if n := sharedBuilds() - built; n != 0 {
		t.Errorf("the second run built %d graphs, want 0", n)
	}
	for seed, f := range map[uint64]*model.Forecaster{11: fA, 12: fB} {
		if d := maxAbsDiff(paramValues(t, f), want[seed]); d != 0 {
			t.Errorf("seed %d: shared executables changed the parameters by %g", seed, d)
		}
	}
	// Two runs at once, their calls interleaving on the shared executables.
	trC, fC := shared(11)
	trD, fD := shared(12)
	var wg sync.WaitGroup
	wg.Go(func() { train(trC, fC, 5) })
	wg.Go(func() { train(trD, fD, 5) })
	wg.Wait()
	for seed, f := range map[uint64]*model.Forecaster{11: fC, 12: fD} {
		if d := maxAbsDiff(paramValues(t, f), want[seed]); d != 0 {
			t.Errorf("seed %d, concurrent runs: the parameters differ by %g", seed, d)
		}
	}
}

// TestSharedCompileThenNewRun: compiling a session's shared graphs up front leaves the template
// usable by the next run.
func TestSharedCompileThenNewRun(t *testing.T) {
	t.Setenv(EngineEnv, EngineSteps)
	for range 2 {
		s := newFitSession(t, "dw", nil)
		if _, ok := s.Trainer().engine.bwd.(*boundExec); !ok {
			t.Fatal("the session's step engine does not share its executables")
		}
		if _, _, err := s.Compile(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RunEpoch(nil); err != nil {
			t.Fatal(err)
		}
	}
}

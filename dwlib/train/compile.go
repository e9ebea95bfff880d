package train

import (
	"fmt"
	"time"

	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// CompileTime is how long one graph took to build and compile.
type CompileTime struct {
	Name    string
	Seconds float64
}

// Compile builds and compiles the graphs the session runs but the optimizer step: its training
// step's at its microbatch size (the chunk size when FitConfig.Chunk is smaller) and its
// validation's. It returns each
// graph's time and the wall time of all, and changes no value. Calling it is optional (a graph
// compiles at its first call otherwise); on an XLA backend it moves the compilations before the
// first step, where a progress bar does not count them, and says what they cost.
func (s *Session) Compile() ([]CompileTime, float64, error) {
	batch := s.tr.cfg.BatchSize
	if s.cfg.Grouping == GroupTrajectories {
		batch = min(s.cfg.MicroTrajectories, len(s.train)) * s.cfg.StartsPerUnit
	}
	if c := s.cfg.Chunk; c > 0 && c < batch {
		batch = c
	}
	spec := GraphSpec{Batch: batch, EvalBatch: s.cfg.EvalBatch, Eval: [][2]int{{s.geo.Window, s.tr.cfg.K}}}
	calls, err := s.tr.graphCalls(spec, s.pred)
	if err != nil {
		return nil, 0, err
	}
	if s.pred.step != nil && s.tr.engine == nil || s.pred.step == nil && s.tr.engine != nil {
		return nil, 0, fmt.Errorf("train: Compile: the session's predictor and trainer run different engines")
	}
	var times []CompileTime
	start := time.Now()
	store := s.f.Store()
	for _, c := range calls {
		if c.exec == s.tr.apply {
			// The optimizer step creates Adam's state when it is built: it compiles at its first
			// call, where that state is initialised as GoMLX expects.
			continue
		}
		// GoMLX's model.Exec.PreCompile hands the buffers of the variables a graph updates to the
		// call it does not make (donated, the variables reset): keep the values and put them back,
		// graph by graph (so the compilations cannot overlap: one would find another's variables
		// empty).
		saved, err := snapshot(store)
		if err != nil {
			return nil, 0, err
		}
		t0 := time.Now()
		err = c.exec.PreCompile(c.args...)
		times = append(times, CompileTime{Name: c.name, Seconds: time.Since(t0).Seconds()})
		for v, t := range saved {
			if rerr := v.SetValuePreservingOld(t); rerr != nil && err == nil {
				err = rerr
			}
		}
		if err != nil {
			return nil, 0, fmt.Errorf("train: compiling %s: %w", c.name, err)
		}
	}
	return times, time.Since(start).Seconds(), nil
}

// snapshot clones the value of every variable of store that has one.
func snapshot(store *mlmodel.Store) (map[*mlmodel.Variable]*tensors.Tensor, error) {
	out := map[*mlmodel.Variable]*tensors.Tensor{}
	for v := range store.IterVariables() {
		if !v.HasValue() {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, err
		}
		if out[v], err = t.LocalClone(); err != nil {
			return nil, fmt.Errorf("train: keeping %s while compiling: %w", v.Path(), err)
		}
	}
	return out, nil
}

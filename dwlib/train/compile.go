package train

import (
	"fmt"
	"sync"
	"time"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
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
	// The optimizer step first and alone: building it creates Adam's state in the store, which the
	// other builds read. Then the others at once: model.Exec.Compile runs nothing and touches no
	// variable's value.
	times := make([]CompileTime, len(calls))
	errs := make([]error, len(calls))
	compile := func(i int) {
		t0 := time.Now()
		_, errs[i] = calls[i].exec.Compile(shapesOf(calls[i].args)...)
		times[i] = CompileTime{Name: calls[i].name, Seconds: time.Since(t0).Seconds()}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range calls {
		if c.exec == stepExec(s.tr.apply) {
			compile(i)
		}
	}
	for i, c := range calls {
		if c.exec != stepExec(s.tr.apply) {
			wg.Go(func() { compile(i) })
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, 0, fmt.Errorf("train: compiling %s: %w", calls[i].name, err)
		}
	}
	return times, time.Since(start).Seconds(), nil
}

// shapesOf returns the shapes of a call's tensor arguments.
func shapesOf(args []any) []shapes.Shape {
	out := make([]shapes.Shape, len(args))
	for i, a := range args {
		out[i] = a.(*tensors.Tensor).Shape()
	}
	return out
}

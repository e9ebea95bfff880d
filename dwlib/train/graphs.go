package train

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// GraphInfo describes one graph a run compiles.
type GraphInfo struct {
	Name  string
	Nodes int
	// Inputs are the shapes of the call's explicit inputs; the parameters, the gradient
	// accumulators and the optimizer's state come from the variable store besides.
	Inputs []shapes.Shape
}

// String is the graph's name, node count and input shapes (a run of equal shapes as "shape×n").
func (g GraphInfo) String() string {
	var in []string // runs of equal shapes as "shape×n"
	for i := 0; i < len(g.Inputs); {
		j := i + 1
		for j < len(g.Inputs) && g.Inputs[j].Equal(g.Inputs[i]) {
			j++
		}
		if s := g.Inputs[i].String(); j-i > 1 {
			in = append(in, fmt.Sprintf("%s×%d", s, j-i))
		} else {
			in = append(in, s)
		}
		i = j
	}
	return fmt.Sprintf("%-24s %7d nodes   inputs (%s)", g.Name, g.Nodes, strings.Join(in, ", "))
}

// GraphSpec is what Graphs needs of a run besides its model and configuration.
type GraphSpec struct {
	Batch     int      // windows per training call (Config.BatchSize, or the chunk size)
	EvalBatch int      // windows per evaluation call (FitConfig.EvalBatch); 0: no evaluation
	Eval      [][2]int // (context W, horizon H) of every evaluation the run makes
}

// errInspected stops a graph build once the inspection hook has seen it.
var errInspected = errors.New("train: graph inspected, not compiled")

// Graphs builds, and stops before compiling, every graph a run of m with cfg compiles on bk: the
// training step's graphs (on the engine cfg.Engine resolves to) and the evaluation's. It returns
// them in the order a run builds them. It changes nothing in m's store but the gradient
// accumulators a Trainer adds (zero).
func Graphs(bk compute.Backend, m Model, cfg Config, spec GraphSpec) ([]GraphInfo, error) {
	var infos []GraphInfo
	hook := func(name string, g *Graph, in []*Node) {
		info := GraphInfo{Name: name, Nodes: len(g.Nodes())}
		for _, n := range in {
			info.Inputs = append(info.Inputs, n.Shape())
		}
		infos = append(infos, info)
		panic(errInspected)
	}
	tr, err := newTrainer(bk, m, cfg, hook)
	if err != nil {
		return nil, err
	}
	if spec.Batch < 1 {
		spec.Batch = tr.cfg.BatchSize
	}
	mc := m.Spec()
	dt, N, D, J, K, L, W := mc.DType, spec.Batch, mc.StateDim, mc.DriveDim, tr.cfg.K, m.NumLayers(), mc.Window
	zeros := func(dims ...int) *tensors.Tensor { return tensors.FromShape(shapes.Make(dt, dims...)) }
	inspect := func(e *mlmodel.Exec, args ...any) error {
		if err := e.PreCompile(args...); err == nil || !strings.Contains(err.Error(), errInspected.Error()) {
			return fmt.Errorf("train: Graphs: building %s: %v", e.Name(), err)
		}
		return nil
	}
	if e := tr.engine; e != nil {
		var state []any
		for _, s := range e.m.StateShapes(N) {
			state = append(state, tensors.FromShape(s))
		}
		fwd := []any{zeros(N, D)}
		if J > 0 {
			fwd = append(fwd, zeros(N, J))
		}
		if err := inspect(e.fwd, append(fwd, state...)...); err != nil {
			return nil, err
		}
		bwd := []any{zeros(N, D), zeros(N, D), zeros(L, 2), zeros(), zeros(), zeros(N, D)}
		if J > 0 {
			bwd = append(bwd, zeros(N, J))
		}
		bwd = append(append(bwd, state...), state...)
		if e.layout.jreg {
			bwd = append(bwd, zeros(N, D), zeros())
		}
		if err := inspect(e.bwd, bwd...); err != nil {
			return nil, err
		}
		if e.probe != nil {
			probe := []any{zeros(N, D), zeros(N, D)}
			if J > 0 {
				probe = append(probe, zeros(N, J))
			}
			probe = append(append(probe, state...), zeros(N, D), zeros(N, D))
			probe = append(append(append(probe, state...), zeros(N, D)), state...)
			if err := inspect(e.probe, probe...); err != nil {
				return nil, err
			}
		}
	} else {
		args := []any{zeros(N, W, D), zeros(N, K, D), zeros(K, L, 2), zeros()}
		if J > 0 {
			args = append(args, zeros(N, W-1+K, J))
		}
		withDirs := func(a []any) []any {
			if tr.cfg.Method == "jreg" {
				return append(a, zeros(N, D))
			}
			return a
		}
		if err := inspect(tr.task, withDirs(args)...); err != nil {
			return nil, err
		}
		if tr.probe != nil {
			if err := inspect(tr.probe, withDirs(append(args, zeros(N, K, D)))...); err != nil {
				return nil, err
			}
		}
	}
	if err := inspect(tr.apply); err != nil {
		return nil, err
	}
	if spec.EvalBatch < 1 || len(spec.Eval) == 0 {
		return infos, nil
	}
	p, err := tr.predictor(spec.EvalBatch)
	if err != nil {
		return nil, err
	}
	Ne := spec.EvalBatch
	if p.step != nil {
		if tr.engine != nil && Ne == N {
			return infos, nil // the training forward step serves evaluation too
		}
		args := []any{zeros(Ne, D)}
		if J > 0 {
			args = append(args, zeros(Ne, J))
		}
		m, _ := stepperOf(m)
		for _, s := range m.StateShapes(Ne) {
			args = append(args, tensors.FromShape(s))
		}
		if err := inspect(p.step, args...); err != nil {
			return nil, err
		}
		infos[len(infos)-1].Name = "step-forward-eval"
		return infos, nil
	}
	seen := map[[2]int]bool{}
	for _, wh := range spec.Eval {
		if seen[wh] {
			continue
		}
		seen[wh] = true
		e, err := p.exec(wh[1])
		if err != nil {
			return nil, err
		}
		args := []any{zeros(Ne, wh[0], D)}
		if J > 0 {
			args = append(args, zeros(Ne, wh[0]-1+wh[1], J))
		}
		if err := inspect(e, args...); err != nil {
			return nil, err
		}
	}
	return infos, nil
}

// Largest is the node count of the largest graph in infos.
func Largest(infos []GraphInfo) int {
	n := 0
	for _, g := range infos {
		n = max(n, g.Nodes)
	}
	return n
}

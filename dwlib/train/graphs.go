package train

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/model"
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
	calls, err := tr.graphCalls(spec, nil)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		if _, err := c.exec.Compile(shapesOf(c.args)...); err == nil || !strings.Contains(err.Error(), errInspected.Error()) {
			return nil, fmt.Errorf("train: Graphs: building %s: %v", c.name, err)
		}
		infos[len(infos)-1].Name = c.name
	}
	return infos, nil
}

// graphCall is one executable a run compiles, with arguments of the shapes it is called with.
type graphCall struct {
	name string
	exec stepExec
	args []any
}

// graphCalls lists the executables of a run of the trainer (spec.Batch windows per training call)
// and of its evaluation (by p, or a new predictor of spec.EvalBatch windows when p is nil), in the order a run builds them, with zero arguments of their shapes.
func (t *Trainer) graphCalls(spec GraphSpec, p *Predictor) ([]graphCall, error) {
	m := t.model
	mc := m.Spec()
	dt, N, D, J, K, L, W := mc.DType, spec.Batch, mc.StateDim, mc.DriveDim, t.cfg.K, m.NumLayers(), mc.Window
	zeros := func(dims ...int) *tensors.Tensor { return tensors.FromShape(shapes.Make(dt, dims...)) }
	var calls []graphCall
	add := func(name string, e stepExec, args ...any) { calls = append(calls, graphCall{name, e, args}) }
	stateOf := func(n int) []any {
		var out []any
		if s, ok := m.(model.Stepper); ok {
			for _, sh := range s.StateShapes(n) {
				out = append(out, tensors.FromShape(sh))
			}
		}
		return out
	}
	if e := t.engine; e != nil {
		state := stateOf(N)
		fwd := []any{zeros(N, D)}
		if J > 0 {
			fwd = append(fwd, zeros(N, J))
		}
		add("step-forward", e.fwd, append(fwd, state...)...)
		bwd := []any{zeros(N, D), zeros(N, D), zeros(L, 2), zeros(), zeros(), zeros(N, D)}
		if J > 0 {
			bwd = append(bwd, zeros(N, J))
		}
		bwd = append(append(bwd, state...), state...)
		if e.layout.jreg {
			bwd = append(bwd, zeros(N, D), zeros())
		}
		add("step-backward", e.bwd, bwd...)
		if e.probe != nil {
			probe := []any{zeros(N, D), zeros(N, D)}
			if J > 0 {
				probe = append(probe, zeros(N, J))
			}
			probe = append(append(probe, state...), zeros(N, D), zeros(N, D))
			probe = append(append(append(probe, state...), zeros(N, D)), state...)
			add("step-probe", e.probe, probe...)
		}
	} else {
		args := []any{zeros(N, W, D), zeros(N, K, D), zeros(K, L, 2), zeros()}
		if J > 0 {
			args = append(args, zeros(N, W-1+K, J))
		}
		withDirs := func(a []any) []any {
			if t.cfg.Method == "jreg" {
				return append(a, zeros(N, D))
			}
			return a
		}
		add("unrolled-gradient", t.task, withDirs(args)...)
		if t.probe != nil {
			add("unrolled-probe", t.probe, withDirs(append(args, zeros(N, K, D)))...)
		}
	}
	add("optimizer-step", t.apply)
	if spec.EvalBatch < 1 || len(spec.Eval) == 0 {
		return calls, nil
	}
	if p == nil {
		var err error
		if p, err = t.predictor(spec.EvalBatch); err != nil {
			return nil, err
		}
	}
	Ne := p.batch
	if p.step != nil {
		if t.engine != nil && Ne == N {
			return calls, nil // the training forward step serves evaluation too
		}
		args := []any{zeros(Ne, D)}
		if J > 0 {
			args = append(args, zeros(Ne, J))
		}
		add("step-forward-eval", p.step, append(args, stateOf(Ne)...)...)
		return calls, nil
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
		add(fmt.Sprintf("unrolled-predict-W%d-H%d", wh[0], wh[1]), e, args...)
	}
	return calls, nil
}

// Largest is the node count of the largest graph in infos.
func Largest(infos []GraphInfo) int {
	n := 0
	for _, g := range infos {
		n = max(n, g.Nodes)
	}
	return n
}

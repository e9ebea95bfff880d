package train

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// Executables shared across runs. GoMLX binds a model.Exec to the variables of one store, so two
// runs of a sweep (two seeds, two methods) would compile the same step graphs twice. The step
// engine instead builds its graphs once per process on a template forecaster of the same
// architecture and, around every call, points the template's variables at the calling run's
// tensors (no copy) and hands the updated ones (the gradient accumulators) back. Calls on one
// template are serialised by its mutex; on a GPU they queue on the device anyway.

// stepExec is what the step engine and the predictor call: a *mlmodel.Exec, or a shared one bound
// to a run's variables.
type stepExec interface {
	Call(args ...any) ([]*tensors.Tensor, error)
	Compile(inputShapes ...shapes.Shape) (*Graph, error)
}

// sharedModel is one architecture's template and the executables built on it.
type sharedModel struct {
	mu    sync.Mutex
	tmpl  *model.Forecaster
	fwd   *mlmodel.Exec
	steps map[string]*sharedSteps // by training signature
	// shapes are the template variables' shapes, recorded when created (a template variable's
	// value may be a tensor a run has since handed to an update).
	shapes map[string]shapes.Shape
	// builds counts the graphs built on this template (tests check that a second run builds none).
	builds int
}

// sharedSteps are the backward and probe executables of one training signature.
type sharedSteps struct {
	vars, accums []*mlmodel.Variable
	bwd, probe   *mlmodel.Exec
}

var (
	sharedMu     sync.Mutex
	sharedModels = map[string]*sharedModel{}
)

// sharedKey identifies what a forecaster's step graphs depend on: its configuration without the
// seed (which changes values, not graphs) and the backend.
func sharedKey(bk compute.Backend, f *model.Forecaster) (string, error) {
	c := f.Config()
	c.Seed = 0
	b, err := json.Marshal(c)
	return fmt.Sprintf("%p/%s", bk, b), err
}

// sharedFor returns the template of f's architecture on bk, creating it on first use.
func sharedFor(bk compute.Backend, f *model.Forecaster) (*sharedModel, error) {
	key, err := sharedKey(bk, f)
	if err != nil {
		return nil, err
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sm, ok := sharedModels[key]; ok {
		return sm, nil
	}
	tmpl, err := model.New(f.Config())
	if err != nil {
		return nil, err
	}
	sm := &sharedModel{tmpl: tmpl, steps: map[string]*sharedSteps{}, shapes: map[string]shapes.Shape{}}
	for v := range tmpl.Store().IterVariables() {
		sm.shapes[v.Path()] = v.Shape()
	}
	count := func(string, *Graph, []*Node) { sm.builds++ }
	if sm.fwd, err = model.NewLiveExec(bk, tmpl.Store(), buildForwardStep(tmpl, tmpl.Config().DriveDim > 0, count)); err != nil {
		return nil, err
	}
	sharedModels[key] = sm
	return sm, nil
}

// stepsFor returns the backward and probe executables of cfg on the template, creating them (and
// the template's gradient accumulators) on first use.
func (sm *sharedModel) stepsFor(bk compute.Backend, cfg Config, layout stepLayout) (*sharedSteps, error) {
	sig, err := json.Marshal(struct {
		Routed, JReg, Probe bool
		K                   int
		Loss, JRegStyle     string
		JRegCoef, JRegEps   float64
	}{routed(cfg.Method), layout.jreg, cfg.Method == "dw", cfg.K, cfg.Loss, cfg.JRegStyle, cfg.JRegCoef, cfg.JRegEps})
	if err != nil {
		return nil, err
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	if ss, ok := sm.steps[string(sig)]; ok {
		return ss, nil
	}
	store := sm.tmpl.Store()
	ss := &sharedSteps{vars: trainables(sm.tmpl)}
	for _, v := range ss.vars {
		path := accumScope + v.Path()
		a := store.GetVariable(path)
		if a == nil {
			shape := sm.shapes[v.Path()]
			a = store.VariableWithValue(path, tensors.FromShape(shape))
			sm.shapes[path] = shape
		}
		a.SetTrainable(false)
		ss.accums = append(ss.accums, a)
	}
	count := func(string, *Graph, []*Node) { sm.builds++ }
	L := sm.tmpl.NumLayers()
	if ss.bwd, err = model.NewTrainingExec(bk, store, buildBackwardStep(sm.tmpl, L, cfg, ss.vars, ss.accums, layout, count)); err != nil {
		return nil, err
	}
	if cfg.Method == "dw" {
		if ss.probe, err = model.NewLiveExec(bk, store, buildProbeStep(sm.tmpl, L, cfg, layout, count)); err != nil {
			return nil, err
		}
	}
	sm.steps[string(sig)] = ss
	return ss, nil
}

// bind returns e as a stepExec that runs on the variables of store (the run's), paired with the
// template's by path. Template variables the run does not have (another training signature's
// gradient accumulators, for a run that only predicts) get zeros of their shape: a graph that
// binds every variable of the store (model.NewLiveExec) reads them without using them.
func (sm *sharedModel) bind(e *mlmodel.Exec, store *mlmodel.Store) (*boundExec, error) {
	b := &boundExec{sm: sm, exec: e}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	for tv := range sm.tmpl.Store().IterVariables() {
		shape := sm.shapes[tv.Path()]
		rv := store.GetVariable(tv.Path())
		if rv == nil {
			if inScope(tv.Scope(), ModelScope) {
				return nil, fmt.Errorf("train: shared step graphs: the run has no variable %s", tv.Path())
			}
			b.spare = append(b.spare, spareVar{tv, tensors.FromShape(shape)})
			continue
		}
		if !rv.Shape().Equal(shape) {
			return nil, fmt.Errorf("train: shared step graphs: variable %s is %s in the run, %s in the template", tv.Path(), rv.Shape(), shape)
		}
		b.pairs = append(b.pairs, [2]*mlmodel.Variable{tv, rv})
	}
	return b, nil
}

// boundExec is a shared executable bound to one run's variables.
type boundExec struct {
	sm    *sharedModel
	exec  *mlmodel.Exec
	pairs [][2]*mlmodel.Variable // template, run
	spare []spareVar
}

// spareVar is a template variable the run does not have, with the zeros it reads instead.
type spareVar struct {
	tv    *mlmodel.Variable
	zeros *tensors.Tensor
}

// with runs fn with the template's variables holding the run's values, then gives the run the
// values the call left in the template (the updated accumulators).
func (b *boundExec) with(fn func() error) error {
	b.sm.mu.Lock()
	defer b.sm.mu.Unlock()
	for _, p := range b.pairs {
		if !p[1].HasValue() {
			continue
		}
		v, err := p[1].Value()
		if err != nil {
			return err
		}
		if err := p[0].SetValuePreservingOld(v); err != nil {
			return err
		}
	}
	for _, sp := range b.spare {
		if err := sp.tv.SetValuePreservingOld(sp.zeros); err != nil {
			return err
		}
	}
	err := fn()
	for _, p := range b.pairs {
		if !p[0].HasValue() {
			continue
		}
		tv, _ := p[0].Value()
		if rv, _ := p[1].Value(); rv != tv {
			if serr := p[1].SetValuePreservingOld(tv); serr != nil && err == nil {
				err = serr
			}
		}
	}
	return err
}

// Call implements stepExec.
func (b *boundExec) Call(args ...any) (outs []*tensors.Tensor, err error) {
	err = b.with(func() error {
		var cerr error
		outs, cerr = b.exec.Call(args...)
		return cerr
	})
	return outs, err
}

// Compile implements stepExec: it builds and compiles the graph for inputs of these shapes without
// running it. (It reads the template's variables, which Call rebinds: hence the lock.)
func (b *boundExec) Compile(inputShapes ...shapes.Shape) (*Graph, error) {
	b.sm.mu.Lock()
	defer b.sm.mu.Unlock()
	return b.exec.Compile(inputShapes...)
}

// Builds returns how many step graphs have been built on shared templates in this process (the
// sum over architectures): a second run of a sweep adds none.
func sharedBuilds() int {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	n := 0
	for _, sm := range sharedModels {
		sm.mu.Lock()
		n += sm.builds
		sm.mu.Unlock()
	}
	return n
}

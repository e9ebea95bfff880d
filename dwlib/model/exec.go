package model

import (
	"fmt"
	"reflect"

	"github.com/gomlx/compute"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
)

// Executables over a model's store.
//
// The project's variables are live: training changes them between two calls of one executable,
// the finite-difference tests perturb them with Variable.SetValue, checkpoints load into them, and
// every executable of a run (the predictor of each validation, the diagnostics) is compiled once
// and called again after they changed. So every variable must enter a graph as a parameter, fed
// with the variable's current value at each call.
//
// GoMLX (from v0.28.x with compute v0.1.x) does otherwise on backends whose capabilities set
// PreferConstantsForVariables, which the pure-Go backend does: ml/model's Variable.paramNode
// embeds a variable that already has a value as a constant of the graph, frozen at compile time,
// unless Store.IsTraining(g) holds for the graph at the moment the variable is first read (and
// model.Exec then feeds nothing for it). Such an executable ignores every later SetValue or
// training step. There is no per-store or per-backend switch to keep parameters, so every
// executable of the project over a store is built with NewLiveExec or NewTrainingExec below,
// never with mlmodel.NewExec directly (TestNoDirectStoreExec checks the sources).

// NewLiveExec is mlmodel.NewExec for graphs that read the store's variables without training them
// (predictions, losses, gradients for diagnostics and tests): before fn runs, every variable of the
// store that has a value enters the graph as a parameter. The graph stays out of training mode
// (Store.IsTraining reports false, as for mlmodel.NewExec), so layers that behave differently in
// training (dropout) see inference.
//
// fn must reach its graph through its arguments: a *Graph, a *Node, or a non-empty []*Node.
func NewLiveExec[F mlmodel.ExecGraphFn](bk compute.Backend, store *mlmodel.Store, fn F) (*mlmodel.Exec, error) {
	return mlmodel.NewExec(bk, store, withLiveVariables(store, fn, false))
}

// MustNewLiveExec is NewLiveExec for tests and programs that cannot continue without it: it panics on error.
func MustNewLiveExec[F mlmodel.ExecGraphFn](bk compute.Backend, store *mlmodel.Store, fn F) *mlmodel.Exec {
	e, err := NewLiveExec(bk, store, fn)
	if err != nil {
		panic(err)
	}
	return e
}

// NewTrainingExec is mlmodel.NewExec for the graphs of a training step (the gradient into the
// accumulators, the optimizer's update): the graph is marked as training (Store.SetTraining)
// before fn runs, as GoMLX's own trainer does, so every variable it reads is a parameter and
// layers see training mode. Only the variables fn reads enter the graph, which matters to GoMLX's
// optimizers: they pair the gradients with the trainable variables in use by the graph.
func NewTrainingExec[F mlmodel.ExecGraphFn](bk compute.Backend, store *mlmodel.Store, fn F) (*mlmodel.Exec, error) {
	return mlmodel.NewExec(bk, store, withLiveVariables(store, fn, true))
}

// withLiveVariables returns fn, of the same type, preceded by BindVariables (or, for training,
// by Store.SetTraining) on the graph that fn's arguments belong to.
func withLiveVariables[F any](store *mlmodel.Store, fn F, training bool) F {
	fv := reflect.ValueOf(fn)
	if fv.Kind() != reflect.Func || fv.IsNil() {
		panic(fmt.Errorf("model: NewLiveExec needs a graph function, got %T", fn))
	}
	wrapped := reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
		g := graphOfArgs(args)
		if g == nil {
			panic(fmt.Errorf("model: the graph function %T has no *Graph, *Node or non-empty []*Node argument to find its graph by; take the *Graph form", fn))
		}
		if training {
			store.SetTraining(g, true)
		} else {
			BindVariables(store, g)
		}
		return fv.Call(args)
	})
	return wrapped.Interface().(F)
}

var (
	graphType = reflect.TypeFor[*Graph]()
	nodeType  = reflect.TypeFor[*Node]()
	nodesType = reflect.TypeFor[[]*Node]()
)

// graphOfArgs finds the graph that a graph function's arguments belong to, or nil.
func graphOfArgs(args []reflect.Value) *Graph {
	for _, a := range args {
		switch a.Type() {
		case graphType:
			if g := a.Interface().(*Graph); g != nil {
				return g
			}
		case nodeType:
			if n := a.Interface().(*Node); n != nil {
				return n.Graph()
			}
		case nodesType:
			for _, n := range a.Interface().([]*Node) {
				if n != nil {
					return n.Graph()
				}
			}
		}
	}
	return nil
}

// BindVariables makes every variable of store that has a value a parameter of g, fed with the
// variable's value at each call, and leaves g's training mode as it was. Variables that g has read
// already keep the node they have; NewLiveExec calls this before the graph function runs, so there
// are none. (GoMLX decides parameter or constant when a graph first reads a variable, and chooses
// a parameter while the graph is in training mode: see the comment at the top of this file.)
func BindVariables(store *mlmodel.Store, g *Graph) {
	was := store.IsTraining(g)
	store.SetTraining(g, true)
	defer store.SetTraining(g, was)
	for v := range store.IterVariables() {
		if v.HasValue() {
			_ = v.NodeValue(g)
		}
	}
}

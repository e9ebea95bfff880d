package appdiag

import (
	"fmt"
	"strings"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// Model is what the gradient probe differentiates: a store whose trainable variables under
// model.ModelScope are the parameters, and a closed-loop rollout returning the K per-step
// predictions, each [N, D]. Forecaster adapts any train.Model (the Mamba/MLP forecaster, the
// U-Net of a field testbed); tests plug in models whose per-step gradients are known in closed form.
type Model interface {
	Store() *mlmodel.Store
	Predictions(in model.Inputs, K int) []*Node
}

// Forecaster adapts a train.Model (a *model.Forecaster, a *model.UNet, ...) to Model: its rollout
// with every route open (plain residual merges, i.e. full BPTT, as the authors' probe forces
// "fully open"), and the run's DetachContext (the authors' probe, like their training, runs the
// context without gradient).
type Forecaster struct {
	F             train.Model
	DetachContext bool
}

// Store implements Model.
func (m Forecaster) Store() *mlmodel.Store { return m.F.Store() }

// Spec is the forecaster's: how its training shifted each window (Spec.Shift), which the
// measurements shift the same way.
func (m Forecaster) Spec() model.Spec { return m.F.Spec() }

// Predictions implements Model.
func (m Forecaster) Predictions(in model.Inputs, K int) []*Node {
	return m.F.Rollout(nil, in, K, model.RolloutOptions{DetachContext: m.DetachContext}).Preds
}

// Step losses (StepGradients.Loss).
const (
	// LossRelL2 is the training loss per step: ‖x̂_k − x*_k‖ / max(‖x*_k‖, 1e-8), mean over the
	// batch (dwlib/train's; the authors' rel_l2, the loss of their MG and NARMA runs).
	LossRelL2 = train.LossRelL2
	// LossMSE is mean_{i,d} (x̂_k − x*_k)², the authors' other step loss (their known-SNR runs').
	LossMSE = train.LossMSE
)

// StepGradients computes, for a batch of rollout windows, the parameter gradient of any weighted
// sum Σ_k w_k L_k of the per-step losses, and the per-step losses themselves: one compiled graph,
// called once per weight vector (a one-hot w gives the gradient of a single step's loss).
type StepGradients struct {
	m     Model
	K     int
	loss  string
	vars  []*mlmodel.Variable
	total int
	exec  *mlmodel.Exec
}

// Parameters returns m's trainable variables under model.ModelScope, in store order: the order
// of the flattened gradient.
func Parameters(m Model) []*mlmodel.Variable {
	var vs []*mlmodel.Variable
	for v := range m.Store().IterVariables() {
		if v.Trainable && (v.Scope() == model.ModelScope || strings.HasPrefix(v.Scope(), model.ModelScope+"/")) {
			vs = append(vs, v)
		}
	}
	return vs
}

// NewStepGradients prepares the gradient graph of m for K-step rollouts with the given step loss
// (LossRelL2 or LossMSE; "" is LossRelL2).
func NewStepGradients(bk compute.Backend, m Model, K int, loss string) (*StepGradients, error) {
	if loss == "" {
		loss = LossRelL2
	}
	if loss != LossRelL2 && loss != LossMSE {
		return nil, fmt.Errorf("appdiag: step loss %q, want %q or %q", loss, LossRelL2, LossMSE)
	}
	if K < 1 {
		return nil, fmt.Errorf("appdiag: K = %d, must be >= 1", K)
	}
	s := &StepGradients{m: m, K: K, loss: loss, vars: Parameters(m)}
	if len(s.vars) == 0 {
		return nil, fmt.Errorf("appdiag: the model has no trainable variables under %s", model.ModelScope)
	}
	for _, v := range s.vars {
		s.total += v.Shape().Size()
	}
	var err error
	s.exec, err = model.NewLiveExec(bk, m.Store(), s.build)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// NumParameters is the length of the flattened gradient.
func (s *StepGradients) NumParameters() int { return s.total }

// build is the graph: inputs history [N, W, D], targets [N, K, D], weights [K] and, with drive,
// drive [N, W−1+K, J]; outputs the per-step losses [K] and the flattened gradient [P], float64.
func (s *StepGradients) build(scope *mlmodel.Scope, in []*Node) []*Node {
	hist, target, w := in[0], in[1], in[2]
	var drive *Node
	if len(in) > 3 {
		drive = in[3]
	}
	preds := s.m.Predictions(model.Inputs{History: hist, Drive: drive}, s.K)
	if len(preds) != s.K {
		panic(fmt.Errorf("appdiag: the model returned %d predictions for K = %d", len(preds), s.K))
	}
	g := hist.Graph()
	losses := make([]*Node, s.K)
	for k, p := range preds {
		y := Reshape(Slice(target, AxisRange(), AxisElem(k), AxisRange()), p.Shape().Dimensions...)
		y = ConvertDType(y, p.DType())
		losses[k] = train.TaskLoss(s.loss, p, y)
	}
	stepLoss := Stack(losses, 0)
	objective := ReduceAllSum(Mul(stepLoss, ConvertDType(w, stepLoss.DType())))
	nodes := make([]*Node, len(s.vars))
	for j, v := range s.vars {
		nodes[j] = v.NodeValue(g)
	}
	grads := Gradient(objective, nodes...)
	flat := make([]*Node, len(grads))
	for j, gr := range grads {
		flat[j] = ConvertDType(Reshape(gr, gr.Shape().Size()), dtypes.Float64)
	}
	return []*Node{ConvertDType(stepLoss, dtypes.Float64), Concatenate(flat, 0)}
}

// Compute returns the per-step losses L_1..L_K of the batch and the gradient of Σ_k w_k L_k with
// respect to every parameter, flattened in Parameters order.
func (s *StepGradients) Compute(b *train.Batch, w []float64) (losses, grad []float64, err error) {
	if err := b.Validate(); err != nil {
		return nil, nil, err
	}
	if b.K != s.K || len(w) != s.K {
		return nil, nil, fmt.Errorf("appdiag: batch K = %d and %d weights, want K = %d", b.K, len(w), s.K)
	}
	dt := s.vars[0].DType()
	args := []any{
		train.ToTensor(dt, b.History, b.N, b.Window, b.D),
		train.ToTensor(dt, b.Targets, b.N, b.K, b.D),
		train.ToTensor(dt, w, s.K),
	}
	if b.J > 0 {
		args = append(args, train.ToTensor(dt, b.Drive, b.N, b.Window-1+b.K, b.J))
	}
	outs, err := s.exec.Call(args...)
	if err != nil {
		return nil, nil, fmt.Errorf("appdiag: gradient graph: %w", err)
	}
	defer func() {
		for _, o := range outs {
			o.FinalizeAll()
		}
	}()
	losses = tensors.MustCopyFlatData[float64](outs[0])
	grad = tensors.MustCopyFlatData[float64](outs[1])
	if len(grad) != s.total {
		return nil, nil, fmt.Errorf("appdiag: gradient of %d entries, want %d", len(grad), s.total)
	}
	return losses, grad, nil
}

// PerStep returns the per-step losses and the K gradients g_k of the single step losses L_k
// (one-hot weights), and the gradient of the full-horizon mean (1/K) Σ_k L_k, which equals
// (1/K) Σ_k g_k: K + 1 graph calls.
func (s *StepGradients) PerStep(b *train.Batch) (losses []float64, g [][]float64, mean []float64, err error) {
	w := make([]float64, s.K)
	g = make([][]float64, s.K)
	for k := range s.K {
		clear(w)
		w[k] = 1
		l, gr, err := s.Compute(b, w)
		if err != nil {
			return nil, nil, nil, err
		}
		losses, g[k] = l, gr
	}
	mean, err = s.Mean(b)
	return losses, g, mean, err
}

// Mean returns the gradient of the full-horizon loss (1/K) Σ_k L_k: one graph call.
func (s *StepGradients) Mean(b *train.Batch) ([]float64, error) {
	w := make([]float64, s.K)
	for k := range w {
		w[k] = 1 / float64(s.K)
	}
	_, gr, err := s.Compute(b, w)
	return gr, err
}

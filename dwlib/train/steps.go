package train

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// stepEngine runs a trainer's microbatches as Go loops over small step graphs (steps_graph.go):
// a forward pass that keeps every step's input (x_k and the recurrent state) on the device, then a
// backward pass from the last step to the first that recomputes each step and carries the
// gradients of its inputs to the step before. TBPTT and the detached context are where that
// carry stops.
type stepEngine struct {
	m      model.Stepper
	cfg    Config
	L      int
	dtype  dtypes.DType
	D, J   int
	fwd    stepExec
	bwd    stepExec
	probe  stepExec // DW only; nil otherwise
	layout stepLayout
}

// newStepEngine builds (but does not compile) the step executables of a run: shared with every run
// of the same architecture for a model.Forecaster (shared.go), the run's own otherwise (a user's
// cell, or an inspection by Graphs).
func newStepEngine(bk compute.Backend, f Model, m model.Stepper, cfg Config, vars, accums []*mlmodel.Variable, hook graphHook) (*stepEngine, error) {
	spec := f.Spec()
	e := &stepEngine{m: m, cfg: cfg, L: f.NumLayers(), dtype: spec.DType, D: spec.StateDim, J: spec.DriveDim}
	e.layout = stepLayout{hasDrive: spec.DriveDim > 0, nState: len(m.StateShapes(1)), jreg: cfg.Method == "jreg"}
	if fc, ok := f.(*model.Forecaster); ok && hook == nil {
		// A forecaster's step graphs are shared by every run of its architecture (shared.go).
		sm, err := sharedFor(bk, fc)
		if err != nil {
			return nil, err
		}
		ss, err := sm.stepsFor(bk, cfg, e.layout)
		if err != nil {
			return nil, err
		}
		if e.fwd, err = sm.bind(sm.fwd, f.Store()); err != nil {
			return nil, err
		}
		if e.bwd, err = sm.bind(ss.bwd, f.Store()); err != nil {
			return nil, err
		}
		if ss.probe != nil {
			if e.probe, err = sm.bind(ss.probe, f.Store()); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
	fwd, err := model.NewLiveExec(bk, f.Store(), buildForwardStep(m, e.layout.hasDrive, hook))
	if err != nil {
		return nil, err
	}
	bwd, err := model.NewTrainingExec(bk, f.Store(), buildBackwardStep(m, e.L, cfg, vars, accums, e.layout, hook))
	if err != nil {
		return nil, err
	}
	e.fwd, e.bwd = fwd, bwd
	if cfg.Method == "dw" {
		probe, err := model.NewLiveExec(bk, f.Store(), buildProbeStep(m, e.L, cfg, e.layout, hook))
		if err != nil {
			return nil, err
		}
		e.probe = probe
	}
	return e, nil
}

// stepArgs holds one call's host data split per step, as tensors.
type stepArgs struct {
	n          int
	hist       []*tensors.Tensor // Window × [N, D]
	targets    []*tensors.Tensor // K × [N, D]
	drive      []*tensors.Tensor // (Window−1+K) × [N, J], nil without drive
	noise      []*tensors.Tensor // K × [N, D], calibration only
	dirs       *tensors.Tensor   // [N, D], JReg only
	zeroX      *tensors.Tensor   // [N, D] of zeros
	zeroTarget *tensors.Tensor
}

// column returns rows [N, Cols] of entry t of a [N, T, Cols] row-major array as a tensor.
func column(dt dtypes.DType, flat []float64, n, T, cols, t int) *tensors.Tensor {
	out := make([]float64, n*cols)
	for i := range n {
		copy(out[i*cols:(i+1)*cols], flat[(i*T+t)*cols:(i*T+t+1)*cols])
	}
	return ToTensor(dt, out, n, cols)
}

func (e *stepEngine) split(b *Batch, noise, dirs []float64) *stepArgs {
	a := &stepArgs{n: b.N}
	for t := range b.Window {
		a.hist = append(a.hist, column(e.dtype, b.History, b.N, b.Window, b.D, t))
	}
	for k := range b.K {
		a.targets = append(a.targets, column(e.dtype, b.Targets, b.N, b.K, b.D, k))
		if noise != nil {
			a.noise = append(a.noise, column(e.dtype, noise, b.N, b.K, b.D, k))
		}
	}
	if b.J > 0 {
		T := b.Window - 1 + b.K
		for t := range T {
			a.drive = append(a.drive, column(e.dtype, b.Drive, b.N, T, b.J, t))
		}
	}
	if dirs != nil {
		a.dirs = ToTensor(e.dtype, dirs, b.N, b.D)
	}
	a.zeroX = tensors.FromShape(shapes.Make(e.dtype, b.N, b.D))
	a.zeroTarget = a.zeroX
	return a
}

// zeros returns zero tensors of the recurrent state's shapes for n windows.
func (e *stepEngine) zeros(n int) []*tensors.Tensor {
	var out []*tensors.Tensor
	for _, s := range e.m.StateShapes(n) {
		out = append(out, tensors.FromShape(s))
	}
	return out
}

func scalarTensor(dt dtypes.DType, v float64) *tensors.Tensor { return ToTensor(dt, []float64{v}) }

// forward runs the context (for a model with recurrent state) and the K rollout steps, returning
// the inputs of every rollout step (xs[k], states[k]), the context steps' states and the
// predictions.
func (e *stepEngine) forward(a *stepArgs, K int) (xs []*tensors.Tensor, states, ctx [][]*tensors.Tensor, preds []*tensors.Tensor, err error) {
	state := e.zeros(a.n)
	window := len(a.hist)
	call := func(x *tensors.Tensor, t int, state []*tensors.Tensor) (*tensors.Tensor, []*tensors.Tensor, error) {
		args := []any{x}
		if e.layout.hasDrive {
			args = append(args, a.drive[t])
		}
		for _, s := range state {
			args = append(args, s)
		}
		outs, err := e.fwd.Call(args...)
		if err != nil {
			return nil, nil, err
		}
		return outs[0], outs[1:], nil
	}
	if len(state) > 0 {
		for t := 0; t < window-1; t++ {
			ctx = append(ctx, state)
			var out *tensors.Tensor
			if out, state, err = call(a.hist[t], t, state); err != nil {
				return
			}
			out.FinalizeAll()
		}
	}
	x := a.hist[window-1]
	for k := range K {
		xs, states = append(xs, x), append(states, state)
		if x, state, err = call(x, window-1+k, state); err != nil {
			return
		}
		preds = append(preds, x)
	}
	for _, s := range state {
		s.FinalizeAll()
	}
	return
}

// run is Trainer.call on the step engine.
func (e *stepEngine) run(t *Trainer, b *Batch, weight float64, calibrate bool, noise, dirs []float64) (callResult, error) {
	var r callResult
	a := e.split(b, noise, dirs)
	K := b.K
	xs, states, ctx, preds, err := e.forward(a, K)
	defer func() {
		for k := range xs {
			if k > 0 {
				xs[k].FinalizeAll() // xs[k] = preds[k-1]; xs[0] is history
			}
			releaseAll(states[k])
		}
		for _, s := range ctx {
			releaseAll(s)
		}
		if len(preds) > 0 {
			preds[len(preds)-1].FinalizeAll()
		}
	}()
	if err != nil {
		return r, err
	}
	gains := t.Gains()
	w := scalarTensor(e.dtype, weight)
	one, zero := scalarTensor(e.dtype, 1), scalarTensor(e.dtype, 0)
	open := onesGains(e.dtype, e.L) // the context steps' plain merges
	ns := e.layout.nState
	xBar, sBar := a.zeroX, e.zeros(a.n)
	var xTot, xNoise *tensors.Tensor
	var sTot, sNoise []*tensors.Tensor
	if calibrate {
		xTot, xNoise, sTot, sNoise = a.zeroX, a.zeroX, e.zeros(a.n), e.zeros(a.n)
		r.tot = make([]wiener.Sym2, K*e.L)
		r.nz = make([]wiener.Sym2, K*e.L)
	}
	window := len(a.hist)
	// backward calls the backward graph on step k (k < 0: context step window−1+k).
	backward := func(k int, x *tensors.Tensor, state []*tensors.Tensor) ([]*tensors.Tensor, error) {
		lossOn, target, gk := one, a.zeroTarget, open
		at := window - 1 + k
		if k >= 0 {
			target = a.targets[k]
			gk = ToTensor(e.dtype, gains[k*e.L*2:(k+1)*e.L*2], e.L, 2)
		} else {
			lossOn = zero
		}
		args := []any{x, target, gk, w, lossOn, xBar}
		if e.layout.hasDrive {
			args = append(args, a.drive[at])
		}
		for _, s := range state {
			args = append(args, s)
		}
		for _, s := range sBar {
			args = append(args, s)
		}
		if e.layout.jreg {
			on := zero
			if k >= 0 && (k == 0 || e.cfg.JRegStyle != JRegAuthors) {
				on = one
			}
			args = append(args, a.dirs, on)
		}
		exec := e.bwd
		outs, err := exec.Call(args...)
		if gk != open {
			gk.FinalizeAll()
		}
		return outs, err
	}
	losses := make([]*tensors.Tensor, K)
	moments := make([][2]*tensors.Tensor, K)
	jregSums := make([]*tensors.Tensor, K) // steps whose gain JReg penalises
	defer func() {
		for k := range K {
			release(losses[k], nil)
			release(jregSums[k], nil)
			release(moments[k][0], nil)
			release(moments[k][1], nil)
		}
	}()
	for k := K - 1; k >= 0; k-- {
		outs, err := backward(k, xs[k], states[k])
		if err != nil {
			return r, fmt.Errorf("train: microbatch %d, rollout step %d: %w", t.steps, k, err)
		}
		losses[k] = outs[0] // read after the loop: a read waits for the device
		if e.layout.jreg {
			if k == 0 || e.cfg.JRegStyle != JRegAuthors {
				jregSums[k] = outs[2+ns]
			} else {
				outs[2+ns].FinalizeAll()
			}
		}
		release(xBar, a.zeroX)
		releaseAll(sBar)
		xBar, sBar = outs[1], outs[2:2+ns]
		if calibrate {
			args := []any{xs[k], a.targets[k]}
			if e.layout.hasDrive {
				args = append(args, a.drive[window-1+k])
			}
			args = appendTensors(args, states[k])
			args = append(args, a.noise[k], xTot)
			args = appendTensors(args, sTot)
			args = append(args, xNoise)
			args = appendTensors(args, sNoise)
			outs, err := e.probe.Call(args...)
			if err != nil {
				return r, fmt.Errorf("train: microbatch %d, probes at rollout step %d: %w", t.steps, k, err)
			}
			i := 0
			moments[k] = [2]*tensors.Tensor{outs[i], outs[i+1]}
			i += 2
			release(xTot, a.zeroX)
			releaseAll(sTot)
			release(xNoise, a.zeroX)
			releaseAll(sNoise)
			xTot, sTot = outs[i], outs[i+1:i+1+ns]
			i += 1 + ns
			xNoise, sNoise = outs[i], outs[i+1:i+1+ns]
		}
		if s := e.cfg.truncateEvery(); s > 0 && k > 0 && k%s == 0 {
			release(xBar, a.zeroX)
			releaseAll(sBar)
			xBar, sBar = a.zeroX, e.zeros(a.n)
		}
	}
	if calibrate {
		release(xTot, a.zeroX)
		releaseAll(sTot)
		release(xNoise, a.zeroX)
		releaseAll(sNoise)
	}
	if ns > 0 && !e.cfg.DetachContext {
		// The context steps' outputs x' are discarded (the next one reads the history): only the
		// recurrent state's gradient flows into them.
		release(xBar, a.zeroX)
		xBar = a.zeroX
		for j := window - 2; j >= 0; j-- {
			outs, err := backward(j-(window-1), a.hist[j], ctx[j])
			if err != nil {
				return r, fmt.Errorf("train: microbatch %d, context step %d: %w", t.steps, j, err)
			}
			outs[0].FinalizeAll()
			outs[1].FinalizeAll()
			if e.layout.jreg {
				outs[2+ns].FinalizeAll()
			}
			releaseAll(sBar)
			sBar = outs[2 : 2+ns]
		}
	}
	release(xBar, a.zeroX)
	releaseAll(sBar)
	if t.ctrl != nil { // read after the backward calls are queued, so the device is not waited for between them
		r.residuals = e.residuals(b, preds)
	}
	// Sum in the order the unrolled graph's loss does not fix either: step by step, first to last.
	for k := range K {
		r.loss += tensors.ToScalar[float64](convert(losses[k]))
		if calibrate {
			copy(r.tot[k*e.L:(k+1)*e.L], toSym2(tensorValues(moments[k][0])))
			copy(r.nz[k*e.L:(k+1)*e.L], toSym2(tensorValues(moments[k][1])))
		}
		if jregSums[k] != nil {
			mergeJReg(&r.jreg, new(jregStatsOf(tensorValues(jregSums[k]), b.N)))
		}
	}
	return r, nil
}

// residuals returns x* − x̂ over [N, K, D], in the model's dtype as the unrolled graph computes it.
func (e *stepEngine) residuals(b *Batch, preds []*tensors.Tensor) []float64 {
	out := make([]float64, b.N*b.K*b.D)
	for k, p := range preds {
		vals := tensorValues(p)
		for i := range b.N {
			for d := range b.D {
				at := (i*b.K+k)*b.D + d
				if e.dtype == dtypes.Float64 {
					out[at] = b.Targets[at] - vals[i*b.D+d]
				} else {
					out[at] = float64(float32(b.Targets[at]) - float32(vals[i*b.D+d]))
				}
			}
		}
	}
	return out
}

func onesGains(dt dtypes.DType, L int) *tensors.Tensor {
	g := make([]float64, 2*L)
	for i := range g {
		g[i] = 1
	}
	return ToTensor(dt, g, L, 2)
}

// release finalizes t unless it is the shared zero tensor keep.
func release(t, keep *tensors.Tensor) {
	if t != nil && t != keep {
		t.FinalizeAll()
	}
}

func releaseAll(ts []*tensors.Tensor) {
	for _, t := range ts {
		t.FinalizeAll()
	}
}

func appendTensors(args []any, ts []*tensors.Tensor) []any {
	for _, t := range ts {
		args = append(args, t)
	}
	return args
}

package train

import (
	"fmt"
	"math"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// Predictor rolls a forecaster out without gradients: the forward pass of every method is the
// same, so one Predictor serves validation and test evaluation. It implements
// eval.BatchForecaster and eval.BatchSizer.
//
// Every call is padded to MaxBatch windows (repeating the last one), so a single compiled graph
// per horizon H serves all units whatever their number of origins; eval.Evaluate fills the
// calls across units, so only the last call of an evaluation is padded. A window's forecast does
// not depend on the other windows of its call, but its last float bits may depend on its row
// (1e-10 relative on a Mamba-24 validation): packed and per-unit calls agree to that.
type Predictor struct {
	f     Model
	bk    compute.Backend
	batch int
	hook  graphHook

	mu    sync.Mutex
	execs map[int]*mlmodel.Exec // unrolled: one graph per horizon
	step  stepExec              // step engine: the forward step (shared, see shared.go)
}

var (
	_ eval.BatchForecaster = (*Predictor)(nil)
	_ eval.BatchSizer      = (*Predictor)(nil)
)

// NewPredictor returns a Predictor evaluating f's current parameters in chunks of maxBatch windows.
// The engine is chosen as for a Trainer with Config.Engine unset (ResolveEngine): the step engine
// rolls out with one compiled forward step whatever the horizon and context.
func NewPredictor(bk compute.Backend, f Model, maxBatch int) (*Predictor, error) {
	return newPredictor(bk, f, maxBatch, EngineAuto, nil, nil)
}

// newPredictor is NewPredictor with an engine, the trainer's forward-step executable to share (nil:
// its own) and an inspection hook.
func newPredictor(bk compute.Backend, f Model, maxBatch int, engine string, step stepExec, hook graphHook) (*Predictor, error) {
	if maxBatch < 1 {
		return nil, fmt.Errorf("train: NewPredictor: maxBatch = %d, must be >= 1", maxBatch)
	}
	p := &Predictor{f: f, bk: bk, batch: maxBatch, hook: hook, execs: map[int]*mlmodel.Exec{}, step: step}
	engine, err := ResolveEngine(bk, engine)
	if err != nil {
		return nil, err
	}
	if engine == EngineSteps && p.step == nil {
		m, err := stepperOf(f)
		if err != nil {
			return nil, err
		}
		if fc, ok := f.(*model.Forecaster); ok && hook == nil {
			sm, err := sharedFor(bk, fc)
			if err != nil {
				return nil, err
			}
			if p.step, err = sm.bind(sm.fwd, f.Store()); err != nil {
				return nil, err
			}
		} else if p.step, err = model.NewLiveExec(bk, f.Store(), buildForwardStep(m, f.Spec().DriveDim > 0, hook)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// MaxBatch implements eval.BatchSizer.
func (p *Predictor) MaxBatch() int { return p.batch }

func (p *Predictor) exec(H int) (*mlmodel.Exec, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.execs[H]; ok {
		return e, nil
	}
	e, err := model.NewLiveExec(p.bk, p.f.Store(), hooked(fmt.Sprintf("unrolled-predict-H%d", H), p.hook, func(scope *mlmodel.Scope, in []*Node) []*Node {
		var drive *Node
		if len(in) > 1 {
			drive = in[1]
		}
		ro := p.f.Rollout(nil, model.Inputs{History: in[0], Drive: drive}, H, model.RolloutOptions{})
		return []*Node{Stack(ro.Preds, 1)}
	}))
	if err != nil {
		return nil, err
	}
	p.execs[H] = e
	return e, nil
}

// ForecastBatch implements eval.BatchForecaster: the windows' History hold W >= 1 states, the
// same W for every window of the call (the last one is the origin state; W may differ from the
// training Window, e.g. the authors' 16-step test context after 32-step training), and, with
// drive, FutureDrive at least H−1 rows. One graph is compiled per (W, H).
func (p *Predictor) ForecastBatch(ws []eval.Window, H int) ([][][]float64, error) {
	if len(ws) == 0 || len(ws) > p.batch {
		return nil, fmt.Errorf("train: Predictor.ForecastBatch: %d windows, want 1..%d", len(ws), p.batch)
	}
	mc := p.f.Spec()
	W, D, J, N := len(ws[0].History), mc.StateDim, mc.DriveDim, p.batch
	if W < 1 {
		return nil, fmt.Errorf("train: Predictor: window 0 has no history rows")
	}
	hist := make([]float64, 0, N*W*D)
	var drive []float64
	if J > 0 {
		drive = make([]float64, 0, N*(W-1+H)*J)
	}
	for i := range N {
		w := ws[min(i, len(ws)-1)]
		if len(w.History) != W {
			return nil, fmt.Errorf("train: Predictor: window %d has %d history rows, window 0 has %d (one call, one context length)", i, len(w.History), W)
		}
		for _, row := range w.History {
			if len(row) != D {
				return nil, fmt.Errorf("train: Predictor: window %d has states of dimension %d, the model forecasts %d", i, len(row), D)
			}
			hist = append(hist, row...)
		}
		if J > 0 {
			if len(w.HistoryDrive) != W || len(w.FutureDrive) < H-1 {
				return nil, fmt.Errorf("train: Predictor: window %d has %d history and %d future drive rows, want %d and >= %d",
					i, len(w.HistoryDrive), len(w.FutureDrive), W, H-1)
			}
			for _, row := range w.HistoryDrive {
				drive = append(drive, row...)
			}
			for _, row := range w.FutureDrive[:H-1] {
				drive = append(drive, row...)
			}
		}
	}
	for i, v := range hist {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("train: Predictor: history value %d (window %d) is %v", i, i/(W*D), v)
		}
	}
	// A shifted model (model.Spec.Shift) forecasts x − c from the shifted history; c is added back.
	c, err := model.ShiftOffsets(mc.Shift, hist, N, W, D)
	if err != nil {
		return nil, fmt.Errorf("train: Predictor: %w", err)
	}
	if c != nil {
		hist = model.SubtractOffsets(hist, c, N, W, D)
	}
	preds, err := p.forecast(len(ws), hist, drive, W, H)
	if err != nil || c == nil {
		return preds, err
	}
	for i, pi := range preds {
		for _, row := range pi {
			for j := range row {
				row[j] += c[i*D+j]
			}
		}
	}
	return preds, nil
}

// forecast rolls the model out from the (shifted) histories of nw windows, padded to MaxBatch.
func (p *Predictor) forecast(nw int, hist, drive []float64, W, H int) ([][][]float64, error) {
	mc := p.f.Spec()
	D, J, N := mc.StateDim, mc.DriveDim, p.batch
	if p.step != nil {
		return p.forecastSteps(nw, hist, drive, W, H)
	}
	e, err := p.exec(H)
	if err != nil {
		return nil, err
	}
	args := []any{ToTensor(mc.DType, hist, N, W, D)}
	if J > 0 {
		args = append(args, ToTensor(mc.DType, drive, N, W-1+H, J))
	}
	outs, err := e.Call(args...)
	if err != nil {
		return nil, fmt.Errorf("train: Predictor: %w", err)
	}
	flat := FromTensor(outs[0])
	preds := make([][][]float64, nw)
	for i := range preds {
		preds[i] = make([][]float64, H)
		for h := range H {
			off := (i*H + h) * D
			preds[i][h] = flat[off : off+D : off+D]
		}
	}
	return preds, nil
}

// Units converts dataset series to evaluation units, dropping the first burnIn steps (never used,
// see dwlib/model).
func Units(series []data.Series, burnIn int) []eval.Unit {
	out := make([]eval.Unit, len(series))
	for i, s := range series {
		out[i] = eval.Unit{X: s.X[min(burnIn, len(s.X)):]}
		if s.Drive != nil {
			out[i].Drive = s.Drive[min(burnIn, len(s.Drive)):]
		}
	}
	return out
}

// forecastSteps is ForecastBatch on the step engine: the context (for a model with recurrent
// state) and H steps of the forward-step graph, every value staying on the device until the
// forecasts are read.
func (p *Predictor) forecastSteps(nw int, hist, drive []float64, W, H int) ([][][]float64, error) {
	mc := p.f.Spec()
	D, J, N, dt := mc.StateDim, mc.DriveDim, p.batch, mc.DType
	m, err := stepperOf(p.f)
	if err != nil {
		return nil, err
	}
	var state []*tensors.Tensor
	for _, s := range m.StateShapes(N) {
		state = append(state, tensors.FromShape(s))
	}
	step := func(x *tensors.Tensor, t int) (*tensors.Tensor, error) {
		args := []any{x}
		if J > 0 {
			d := column(dt, drive, N, W-1+H, J, t)
			defer d.FinalizeAll()
			args = append(args, d)
		}
		for _, s := range state {
			args = append(args, s)
		}
		outs, err := p.step.Call(args...)
		if err != nil {
			return nil, fmt.Errorf("train: Predictor: %w", err)
		}
		releaseAll(state)
		state = outs[1:]
		return outs[0], nil
	}
	defer func() { releaseAll(state) }()
	if len(state) > 0 {
		for t := 0; t < W-1; t++ {
			x := column(dt, hist, N, W, D, t)
			out, err := step(x, t)
			x.FinalizeAll()
			if err != nil {
				return nil, err
			}
			out.FinalizeAll()
		}
	}
	x := column(dt, hist, N, W, D, W-1)
	preds := make([][][]float64, nw)
	for i := range preds {
		preds[i] = make([][]float64, H)
	}
	out := make([]*tensors.Tensor, H) // read after the loop: a read waits for the device
	defer func() {
		for _, t := range out {
			release(t, nil)
		}
	}()
	for h := range H {
		next, err := step(x, W-1+h)
		if h == 0 {
			x.FinalizeAll() // the history's last state; later x are kept in out
		}
		if err != nil {
			return nil, err
		}
		x, out[h] = next, next
	}
	for h, t := range out {
		vals := tensorValues(t)
		for i := range nw {
			preds[i][h] = vals[i*D : (i+1)*D : (i+1)*D]
		}
	}
	return preds, nil
}

// tensorValues copies a Float32 or Float64 tensor's values to float64 (the tensor stays valid).
func tensorValues(t *tensors.Tensor) []float64 {
	if t.DType() == dtypes.Float64 {
		return tensors.MustCopyFlatData[float64](t)
	}
	f := tensors.MustCopyFlatData[float32](t)
	out := make([]float64, len(f))
	for i, v := range f {
		out[i] = float64(v)
	}
	return out
}

package model_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// This file checks the GoMLX step-mode forecaster against a plain-Go float64 reference written in
// the other form of a Mamba model: each block is applied to a whole sequence at once, the causal
// depthwise convolution over the full sequence with zero left padding and the selective SSM as a
// scan over time (Gu & Dao, 2023). The closed-loop rollout is obtained by re-running the whole
// sequence model on the growing input sequence [x_0 … x_{W−1}, x̂_1 … x̂_k] and keeping its last
// output, so the reference carries no recurrent state between steps at all.

// refVec is one time step's feature vector.
type refVec = []float64

// refParams reads the forecaster's parameters by scope and name.
type refParams struct {
	t     testing.TB
	store *mlmodel.Store
}

// get returns the value of /model/scope/name and checks its shape.
func (p refParams) get(scope, name string, dims ...int) []float64 {
	p.t.Helper()
	v := p.store.GetVariable(model.ModelScope + "/" + scope + "/" + name)
	if v == nil {
		p.t.Fatalf("no variable /model/%s/%s", scope, name)
	}
	if got := v.Shape().Dimensions; !slices.Equal(got, dims) {
		p.t.Fatalf("variable /model/%s/%s has dimensions %v, want %v", scope, name, got, dims)
	}
	return values64(p.t, v)
}

// refDense is x·W + b with W stored [in, out] row-major; b may be nil.
type refDense struct {
	in, out int
	w, b    []float64
}

func (p refParams) dense(scope string, in, out int, bias bool) refDense {
	d := refDense{in: in, out: out, w: p.get(scope, "w", in, out)}
	if bias {
		d.b = p.get(scope, "b", out)
	}
	return d
}

func (d refDense) apply(x refVec) refVec {
	if len(x) != d.in {
		panic(fmt.Sprintf("refDense: input has %d entries, want %d", len(x), d.in))
	}
	y := make(refVec, d.out)
	for j := range d.out {
		s := 0.0
		if d.b != nil {
			s = d.b[j]
		}
		for i := range d.in {
			s += x[i] * d.w[i*d.out+j]
		}
		y[j] = s
	}
	return y
}

func (d refDense) seq(xs []refVec) []refVec {
	out := make([]refVec, len(xs))
	for t, x := range xs {
		out[t] = d.apply(x)
	}
	return out
}

func refRMSNorm(x refVec, g []float64) refVec {
	ms := 0.0
	for _, v := range x {
		ms += v * v
	}
	ms /= float64(len(x))
	r := 1 / math.Sqrt(ms+1e-6)
	y := make(refVec, len(x))
	for i, v := range x {
		y[i] = v * r * g[i]
	}
	return y
}

// refNorm is a block's (or the stem's or head's) normalisation: RMSNorm with a gain, or
// LayerNorm with gain and bias (ε = 1e-5, biased variance).
type refNorm struct {
	kind string
	g, b []float64
}

func (p refParams) norm(scope, kind string, dim int) refNorm {
	n := refNorm{kind: kind, g: p.get(scope, "g", dim)}
	if kind == model.NormLayer {
		n.b = p.get(scope, "b", dim)
	}
	return n
}

func (n refNorm) apply(x refVec) refVec {
	if n.kind != model.NormLayer {
		return refRMSNorm(x, n.g)
	}
	mean, vr := 0.0, 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		vr += (v - mean) * (v - mean)
	}
	vr /= float64(len(x))
	y := make(refVec, len(x))
	for i, v := range x {
		y[i] = (v-mean)/math.Sqrt(vr+1e-5)*n.g[i] + n.b[i]
	}
	return y
}

func refGELU(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }

func refSiLU(x float64) float64 { return x / (1 + math.Exp(-x)) }

func refSoftplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

func mapVec(x refVec, f func(float64) float64) refVec {
	y := make(refVec, len(x))
	for i, v := range x {
		y[i] = f(v)
	}
	return y
}

// refBlock is a residual block F applied to a whole sequence [T][Hidden] → [T][Hidden].
type refBlock interface {
	seq(xs []refVec) []refVec
	// stepFrozen is F at one more input cur, after the inputs past were consumed by the same kind
	// of block b0 with other parameter values (TBPTT: the recurrent state is a constant).
	stepFrozen(b0 refBlock, past []refVec, cur refVec) refVec
}

// refMamba is one Mamba block in sequence (convolution + scan) form.
type refMamba struct {
	e, s, width   int
	norm          refNorm
	inX, inZ      refDense
	convW         [][]float64 // [width][E]; tap j multiplies u_{t−width+1+j}
	convB         []float64
	dt1, dt2      refDense
	projB, projC  refDense
	aLog, d       []float64
	out           refDense
	hidden, rankR int
}

func newRefMamba(p refParams, l int, c model.Config) *refMamba {
	h, e, s, w := c.Hidden, c.Expand*c.Hidden, c.SSMState, c.ConvWidth
	rank := (h + 15) / 16 // Mamba's dt_rank = ⌈Hidden/16⌉
	sc := func(part string) string { return fmt.Sprintf("block%d/%s", l, part) }
	b := &refMamba{
		e: e, s: s, width: w, hidden: h, rankR: rank,
		norm:  p.norm(sc("norm"), c.Norm, h),
		inX:   p.dense(sc("in_x"), h, e, false),
		inZ:   p.dense(sc("in_z"), h, e, false),
		convB: p.get(sc("conv"), "b", e),
		dt1:   p.dense(sc("dt1"), e, rank, false),
		dt2:   p.dense(sc("dt2"), rank, e, true),
		projB: p.dense(sc("B"), e, s, false),
		projC: p.dense(sc("C"), e, s, false),
		aLog:  p.get(sc("ssm"), "A_log", e, s),
		d:     p.get(sc("ssm"), "D", e),
		out:   p.dense(sc("out"), e, h, false),
	}
	for j := range w {
		b.convW = append(b.convW, p.get(sc("conv"), fmt.Sprintf("w%d", j), e))
	}
	return b
}

func (b *refMamba) seq(xs []refVec) []refVec {
	out, _ := b.run(xs, nil)
	return out
}

// refPast is what a Mamba block remembers of the inputs before a sequence: their in-projections
// (the convolution reaches back into them) and the SSM state after them.
type refPast struct {
	u []refVec
	h []float64
}

// run applies the block to xs, continuing after past (nil: start of the sequence), and returns the
// outputs and what it remembers at the end.
func (b *refMamba) run(xs []refVec, past *refPast) ([]refVec, refPast) {
	T := len(xs)
	var u []refVec                // in-projections of past then xs: position P+t is xs[t]
	h := make([]float64, b.e*b.s) // SSM state [E, S]
	if past != nil {
		u = slices.Clone(past.u)
		h = slices.Clone(past.h)
	}
	P := len(u)
	z := make([]refVec, T)
	for t, x := range xs {
		n := b.norm.apply(x)
		u, z[t] = append(u, b.inX.apply(n)), b.inZ.apply(n)
	}
	// Causal depthwise convolution over the whole sequence, zero left padding.
	v := make([]refVec, T)
	for t := range T {
		c := slices.Clone(b.convB)
		for j := range b.width {
			src := P + t - b.width + 1 + j
			if src < 0 {
				continue // zero padding
			}
			for e := range b.e {
				c[e] += b.convW[j][e] * u[src][e]
			}
		}
		v[t] = mapVec(c, refSiLU)
	}
	// Selective scan.
	out := make([]refVec, T)
	for t := range T {
		delta := mapVec(b.dt2.apply(b.dt1.apply(v[t])), refSoftplus)
		bt, ct := b.projB.apply(v[t]), b.projC.apply(v[t])
		y := make(refVec, b.e)
		for e := range b.e {
			for s := range b.s {
				a := -math.Exp(b.aLog[e*b.s+s])
				h[e*b.s+s] = math.Exp(delta[e]*a)*h[e*b.s+s] + delta[e]*v[t][e]*bt[s]
				y[e] += h[e*b.s+s] * ct[s]
			}
			y[e] += b.d[e] * v[t][e]
			y[e] *= refSiLU(z[t][e])
		}
		out[t] = b.out.apply(y)
	}
	return out, refPast{u: u, h: h}
}

// stepFrozen applies the block to cur with the memory that the block b0 (other parameter values)
// built from the inputs past: the convolution buffer and the SSM state are constants of b0.
func (b *refMamba) stepFrozen(b0 refBlock, past []refVec, cur refVec) refVec {
	_, mem := b0.(*refMamba).run(past, nil)
	out, _ := b.run([]refVec{cur}, &mem)
	return out[0]
}

// refMLP is the MLP stepper's block, F(x) = W₂ tanh(W₁ RMSNorm(x) + b₁).
type refMLP struct {
	norm    []float64
	up, out refDense
}

func newRefMLP(p refParams, l int, c model.Config) *refMLP {
	sc := func(part string) string { return fmt.Sprintf("block%d/%s", l, part) }
	return &refMLP{
		norm: p.get(sc("norm"), "g", c.Hidden),
		up:   p.dense(sc("up"), c.Hidden, 2*c.Hidden, true),
		out:  p.dense(sc("out"), 2*c.Hidden, c.Hidden, false),
	}
}

func (b *refMLP) stepFrozen(_ refBlock, _ []refVec, cur refVec) refVec {
	return b.seq([]refVec{cur})[0]
}

func (b *refMLP) seq(xs []refVec) []refVec {
	out := make([]refVec, len(xs))
	for t, x := range xs {
		out[t] = b.out.apply(mapVec(b.up.apply(refRMSNorm(x, b.norm)), math.Tanh))
	}
	return out
}

// refForecaster is the whole forecaster in sequence form.
type refForecaster struct {
	cfg                model.Config
	stemNorm, headNorm refNorm // "layernorm-gelu" stem and head only
	readIn             refDense
	blocks             []refBlock
	ro1, ro2           refDense
}

func newRefForecaster(t testing.TB, f *model.Forecaster) *refForecaster {
	t.Helper()
	c := f.Config()
	p := refParams{t: t, store: f.Store()}
	r := &refForecaster{
		cfg:    c,
		readIn: p.dense("read_in", c.StateDim+c.DriveDim, c.Hidden, true),
		ro1:    p.dense("read_out1", c.Hidden, c.Hidden, true),
		ro2:    p.dense("read_out2", c.Hidden, c.StateDim, true),
	}
	if c.Stem == model.StemLayerNormGELU {
		r.stemNorm = p.norm("read_in_norm", model.NormLayer, c.StateDim+c.DriveDim)
	}
	if c.Head == model.HeadLayerNormGELU {
		r.headNorm = p.norm("read_out_norm", model.NormLayer, c.Hidden)
	}
	for l := range c.Layers {
		switch c.Kind {
		case "mamba":
			r.blocks = append(r.blocks, newRefMamba(p, l, c))
		case "mlp":
			r.blocks = append(r.blocks, newRefMLP(p, l, c))
		default:
			t.Fatalf("no reference for Kind %q", c.Kind)
		}
	}
	return r
}

// hidden returns the inputs z_ℓ of every block ℓ over the sequence xs [T][D] (with drive ds [T][J],
// or nil), and z_L after the last block: L+1 sequences [T][Hidden].
func (r *refForecaster) hidden(xs, ds []refVec) [][]refVec {
	z := make([]refVec, len(xs))
	for t, x := range xs {
		in := slices.Clone(x)
		if ds != nil {
			in = append(in, ds[t]...)
		}
		z[t] = r.readInApply(in)
	}
	zs := [][]refVec{z}
	for _, b := range r.blocks {
		f := b.seq(z)
		next := make([]refVec, len(z))
		for t := range z {
			next[t] = slices.Clone(z[t])
			for i := range z[t] {
				next[t][i] += f[t][i]
			}
		}
		z = next
		zs = append(zs, z)
	}
	return zs
}

// readInApply is the read-in: Linear, or LayerNorm → Linear → GELU.
func (r *refForecaster) readInApply(in refVec) refVec {
	if r.cfg.Stem == model.StemLayerNormGELU {
		return mapVec(r.readIn.apply(r.stemNorm.apply(in)), refGELU)
	}
	return r.readIn.apply(in)
}

// forecast is x + readout(z).
func (r *refForecaster) forecast(x, z refVec) refVec {
	var delta refVec
	if r.cfg.Head == model.HeadLayerNormGELU {
		delta = r.ro2.apply(mapVec(r.ro1.apply(r.headNorm.apply(z)), refGELU))
	} else {
		delta = r.ro2.apply(mapVec(r.ro1.apply(z), refSiLU))
	}
	out := slices.Clone(x)
	for i := range out {
		out[i] += delta[i]
	}
	return out
}

// seq maps the state sequence xs [T][D] (and drive ds [T][J], or nil) to the one-step forecasts
// x_t + readout(z_t) for every t.
func (r *refForecaster) seq(xs, ds []refVec) []refVec {
	zs := r.hidden(xs, ds)
	z := zs[len(zs)-1]
	out := make([]refVec, len(xs))
	for t := range xs {
		out[t] = r.forecast(xs[t], z[t])
	}
	return out
}

// stepFrozen is the forecast at input x (drive d) after the inputs xs (drive ds) were consumed by
// r0, a forecaster with other parameter values: every block's recurrent state is r0's, a constant.
func (r *refForecaster) stepFrozen(r0 *refForecaster, xs, ds []refVec, x, d refVec) refVec {
	past := r0.hidden(xs, ds)
	in := slices.Clone(x)
	if d != nil {
		in = append(in, d...)
	}
	z := r.readInApply(in)
	for l, b := range r.blocks {
		f := b.stepFrozen(r0.blocks[l], past[l], z)
		for i := range z {
			z[i] += f[i]
		}
	}
	return r.forecast(x, z)
}

// rollout is the K-step closed-loop forecast from the observed window hist [Window][D] with drive
// [Window−1+K][J] (nil if none): the sequence model is re-run on the growing input sequence and its
// last output is the next prediction.
func (r *refForecaster) rollout(hist, drive []refVec, K int) []refVec {
	xs := slices.Clone(hist)
	preds := make([]refVec, K)
	for k := range K {
		var ds []refVec
		if drive != nil {
			ds = drive[:len(xs)]
		}
		out := r.seq(xs, ds)
		preds[k] = out[len(out)-1]
		xs = append(xs, preds[k])
	}
	return preds
}

// at returns entries [n, t, :] of a row-major [N, T, C] array as a vector.
func at(data []float64, T, C, n, t int) refVec {
	off := (n*T + t) * C
	return slices.Clone(data[off : off+C])
}

func TestRolloutMatchesSequenceReference(t *testing.T) {
	const batch = 2
	for _, tc := range []struct {
		name string
		cfg  model.Config
		K    int
	}{
		// Window longer than the convolution: the buffer is full when the rollout starts.
		{"mamba", model.Config{Kind: "mamba", StateDim: 3, Hidden: 8, Layers: 2, SSMState: 4, ConvWidth: 4, Window: 6}, 4},
		// Window shorter than the convolution: the rollout reaches back into the zero padding.
		{"mamba/drive/short-window", model.Config{Kind: "mamba", StateDim: 2, DriveDim: 2, Hidden: 8, Layers: 3, SSMState: 3, ConvWidth: 3, Window: 2}, 4},
		// Hidden 20 gives a Δ projection of rank 2; width 1 has no convolution buffer.
		{"mamba/rank2/width1", model.Config{Kind: "mamba", StateDim: 2, Hidden: 20, Layers: 1, SSMState: 2, ConvWidth: 1, Expand: 1, Window: 3}, 3},
		// Window 1: no teacher-forced step at all.
		{"mamba/window1", model.Config{Kind: "mamba", StateDim: 3, Hidden: 8, Layers: 2, SSMState: 4, ConvWidth: 4, Window: 1}, 3},
		{"mlp/drive", model.Config{Kind: "mlp", StateDim: 3, DriveDim: 1, Hidden: 8, Layers: 2, Window: 4}, 4},
		// The authors' architecture: LayerNorm blocks, LayerNorm-GELU stem and head, PyTorch init.
		{"mamba/authors/drive", model.AuthorsArchitecture(model.Config{Kind: "mamba", StateDim: 3, DriveDim: 2, Hidden: 8, Layers: 2, SSMState: 4, ConvWidth: 4, Window: 6}), 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.DType, cfg.Seed = dtypes.Float64, 11
			f := newForecaster(t, cfg)
			c := f.Config()
			rng := rand.New(rand.NewPCG(3, uint64(len(tc.name))))
			perturbVariables(t, f, rng, 0.2)
			ref := newRefForecaster(t, f)

			histData := randn(rng, batch*c.Window*c.StateDim, 1)
			args := []any{tensors.FromFlatDataAndDimensions(histData, batch, c.Window, c.StateDim)}
			var driveData []float64
			T := c.Window - 1 + tc.K
			if c.DriveDim > 0 {
				driveData = randn(rng, batch*T*c.DriveDim, 1)
				args = append(args, tensors.FromFlatDataAndDimensions(driveData, batch, T, c.DriveDim))
			}
			exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, in []*Node) *Node {
				return Stack(f.Rollout(nil, rolloutInputs(f, in), tc.K, model.RolloutOptions{}).Preds, 1)
			})
			out := exec.MustCall(args...)[0]
			if want := []int{batch, tc.K, c.StateDim}; !slices.Equal(out.Shape().Dimensions, want) {
				t.Fatalf("rollout output shape %s, want dimensions %v", out.Shape(), want)
			}
			got := tensors.MustCopyFlatData[float64](out)

			maxErr := 0.0
			for n := range batch {
				hist := make([]refVec, c.Window)
				for w := range c.Window {
					hist[w] = at(histData, c.Window, c.StateDim, n, w)
				}
				var drive []refVec
				if c.DriveDim > 0 {
					for s := range T {
						drive = append(drive, at(driveData, T, c.DriveDim, n, s))
					}
				}
				want := ref.rollout(hist, drive, tc.K)
				for k := range tc.K {
					g := at(got, tc.K, c.StateDim, n, k)
					for i := range g {
						d := math.Abs(g[i] - want[k][i])
						maxErr = math.Max(maxErr, d)
						if d > 1e-10 || math.IsNaN(g[i]) {
							t.Errorf("x̂[n=%d, k=%d, %d] = %.15g, reference %.15g (|diff| %.3g)", n, k, i, g[i], want[k][i], d)
						}
					}
				}
				// The forecast must actually move away from the last observed state: otherwise the
				// comparison would only check persistence.
				if d := maxAbs(subVec(want[0], hist[c.Window-1])); d < 1e-3 {
					t.Fatalf("reference increment %.3g is too small for a meaningful comparison", d)
				}
			}
			t.Logf("max |step − sequence reference| = %.3g", maxErr)
		})
	}
}

func subVec(a, b refVec) refVec {
	out := make(refVec, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// TestReferenceSeesTheHistory guards the reference comparison itself: for the Mamba stepper the
// teacher-forced window must change the forecast (the recurrent state is really built from it),
// while for the stateless MLP stepper only the last observed state matters.
func TestReferenceSeesTheHistory(t *testing.T) {
	for _, tc := range []struct {
		kind      string
		dependent bool
	}{{"mamba", true}, {"mlp", false}} {
		t.Run(tc.kind, func(t *testing.T) {
			f := newForecaster(t, model.Config{Kind: tc.kind, StateDim: 2, Hidden: 8, Layers: 2, SSMState: 3, ConvWidth: 2, Window: 5, DType: dtypes.Float64, Seed: 5})
			exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, hist *Node) *Node {
				return Stack(f.Rollout(nil, model.Inputs{History: hist}, 2, model.RolloutOptions{}).Preds, 1)
			})
			rng := rand.New(rand.NewPCG(9, 9))
			a := randn(rng, 5*2, 1)
			b := slices.Clone(a)
			b[0] += 0.5 // change the oldest observed state only
			ya := tensors.MustCopyFlatData[float64](exec.MustCall(tensors.FromFlatDataAndDimensions(a, 1, 5, 2))[0])
			yb := tensors.MustCopyFlatData[float64](exec.MustCall(tensors.FromFlatDataAndDimensions(b, 1, 5, 2))[0])
			d := maxAbs(subVec(ya, yb))
			if tc.dependent && d < 1e-8 {
				t.Errorf("%s forecast does not depend on the oldest observed state (|diff| = %.3g)", tc.kind, d)
			}
			if !tc.dependent && d != 0 {
				t.Errorf("%s forecast depends on the observed states before the origin (|diff| = %.3g)", tc.kind, d)
			}
		})
	}
}

// TestStepIsFirstRolloutStep checks Forecaster.Step (fresh state, all routes open) against the
// first step of a Window-1 rollout and against the sequence reference.
func TestStepIsFirstRolloutStep(t *testing.T) {
	for _, kind := range model.Kinds {
		t.Run(kind, func(t *testing.T) {
			f := newForecaster(t, model.Config{Kind: kind, StateDim: 3, DriveDim: 2, Hidden: 8, Layers: 2, SSMState: 4, Window: 1, DType: dtypes.Float64, Seed: 2})
			rng := rand.New(rand.NewPCG(4, 4))
			perturbVariables(t, f, rng, 0.2)
			x, d := randn(rng, 3, 1), randn(rng, 2, 1)
			exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, x, d *Node) (*Node, *Node) {
				step := f.Step(x, d)
				roll := f.Rollout(nil, model.Inputs{History: InsertAxes(x, 1), Drive: InsertAxes(d, 1)}, 1, model.RolloutOptions{}).Preds[0]
				return step, roll
			})
			out := exec.MustCall(tensors.FromFlatDataAndDimensions(x, 1, 3), tensors.FromFlatDataAndDimensions(d, 1, 2))
			step, roll := tensors.MustCopyFlatData[float64](out[0]), tensors.MustCopyFlatData[float64](out[1])
			want := newRefForecaster(t, f).seq([]refVec{x}, []refVec{d})[0]
			for i := range step {
				if step[i] != roll[i] {
					t.Errorf("Step[%d] = %.17g, first rollout step %.17g", i, step[i], roll[i])
				}
				if math.Abs(step[i]-want[i]) > 1e-12 {
					t.Errorf("Step[%d] = %.17g, reference %.17g", i, step[i], want[i])
				}
			}
		})
	}
}

// TestVariableLayout pins the variable scopes and names that checkpoints and the reference rely on.
func TestVariableLayout(t *testing.T) {
	mamba := []string{"norm::g", "in_x::w", "in_z::w", "conv::b", "dt1::w", "dt2::w", "B::w", "C::w", "out::w",
		"conv::w0", "conv::w1", "dt2::b", "ssm::A_log", "ssm::D"}
	mlp := []string{"norm::g", "up::w", "up::b", "out::w"}
	for _, tc := range []struct {
		kind  string
		block []string
	}{{"mamba", mamba}, {"mlp", mlp}} {
		t.Run(tc.kind, func(t *testing.T) {
			f := newForecaster(t, model.Config{Kind: tc.kind, StateDim: 2, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2})
			want := []string{"/model/read_in::w", "/model/read_in::b"}
			for l := range 2 {
				for _, s := range tc.block {
					want = append(want, fmt.Sprintf("/model/block%d/%s", l, s))
				}
			}
			want = append(want, "/model/read_out1::w", "/model/read_out1::b", "/model/read_out2::w", "/model/read_out2::b")
			var got []string
			total := 0
			for _, v := range variables(f) {
				got = append(got, v.Scope()+"::"+v.Name())
				total += v.Shape().Size()
				if !v.Trainable {
					t.Errorf("%s is not trainable", v.Path())
				}
				if v.DType() != dtypes.Float32 {
					t.Errorf("%s has dtype %s, want the default Float32", v.Path(), v.DType())
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("variables\n got %q\nwant %q", got, want)
			}
			if f.NumParameters() != total {
				t.Errorf("NumParameters() = %d, variables hold %d", f.NumParameters(), total)
			}
		})
	}
}

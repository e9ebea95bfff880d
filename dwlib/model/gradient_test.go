package model_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// gradCase is a small float64 forecaster and a rollout problem for it.
type gradCase struct {
	name string
	cfg  model.Config
	K    int
}

var gradCases = []gradCase{
	{"mamba", model.Config{Kind: "mamba", StateDim: 2, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2, Window: 3}, 3},
	{"mamba/drive", model.Config{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 3, Window: 2}, 3},
	{"mlp", model.Config{Kind: "mlp", StateDim: 2, DriveDim: 1, Hidden: 4, Layers: 2, Window: 2}, 3},
	// Channel independence: the blocks run on N·D rows, each with the whole drive.
	{"mamba/channels", model.Config{Kind: "mamba", StateDim: 3, DriveDim: 1, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2, Window: 3, ChannelIndependent: true}, 3},
	{"mamba/channels-own", model.Config{Kind: "mamba", StateDim: 3, DriveDim: 3, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2, Window: 3, ChannelIndependent: true, ChannelDrive: model.ChannelDriveOwn}, 3},
	// The authors' architecture: LayerNorm blocks, LayerNorm-GELU stem and head, PyTorch init.
	{"mamba/authors", model.AuthorsArchitecture(model.Config{Kind: "mamba", StateDim: 3, DriveDim: 1, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2, Window: 3}), 3},
}

// gradProblem holds a perturbed forecaster and the tensors of one rollout-loss evaluation.
type gradProblem struct {
	f    *model.Forecaster
	data []any // history[, drive], target; the gains are appended per call
	K    int
}

func newGradProblem(t *testing.T, tc gradCase) *gradProblem {
	t.Helper()
	const batch = 2
	cfg := tc.cfg
	cfg.DType, cfg.Seed = dtypes.Float64, 21
	f := newForecaster(t, cfg)
	c := f.Config()
	rng := rand.New(rand.NewPCG(8, uint64(len(tc.name))))
	perturbVariables(t, f, rng, 0.2)
	data := []any{tensors.FromFlatDataAndDimensions(randn(rng, batch*c.Window*c.StateDim, 1), batch, c.Window, c.StateDim)}
	if c.DriveDim > 0 {
		T := c.Window - 1 + tc.K
		data = append(data, tensors.FromFlatDataAndDimensions(randn(rng, batch*T*c.DriveDim, 1), batch, T, c.DriveDim))
	}
	data = append(data, tensors.FromFlatDataAndDimensions(randn(rng, batch*tc.K*c.StateDim, 1), batch, tc.K, c.StateDim))
	return &gradProblem{f: f, data: data, K: tc.K}
}

func (p *gradProblem) args(gains *tensors.Tensor) []any {
	return append(append([]any(nil), p.data...), gains)
}

// lossAndGrads runs a lossAndGradExec and returns the loss and the gradients as float64 slices,
// checking that there is one gradient per variable.
func (p *gradProblem) lossAndGrads(t *testing.T, routed bool, gains *tensors.Tensor) (float64, [][]float64) {
	t.Helper()
	out := lossAndGradExec(p.f, p.K, routed).MustCall(p.args(gains)...)
	if nv := len(variables(p.f)); len(out) != 1+nv {
		t.Fatalf("got %d gradients for %d trainable variables: some variable is not used by the rollout", len(out)-1, nv)
	}
	grads := make([][]float64, len(out)-1)
	for i, g := range out[1:] {
		grads[i] = tensors.MustCopyFlatData[float64](g)
		for j, x := range grads[i] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("gradient %d entry %d is %g", i, j, x)
			}
		}
	}
	return tensors.MustCopyFlatData[float64](out[0])[0], grads
}

// TestGradientMatchesFiniteDifferences checks, with every route open (α = m = 1), the routed
// rollout's BPTT gradient w.r.t. every entry of every trainable variable against central finite
// differences of the loss, and against the gradient of the same rollout built without a router.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	for _, tc := range gradCases {
		t.Run(tc.name, func(t *testing.T) {
			p := newGradProblem(t, tc)
			L := p.f.NumLayers()
			open := openGains(p.K, L)
			loss, grads := p.lossAndGrads(t, true, open)

			// Without a router the rollout is plain BPTT: the open routed gradient must equal it.
			plainLoss, plain := p.lossAndGrads(t, false, open)
			if plainLoss != loss {
				t.Errorf("loss with open router %.17g, without router %.17g", loss, plainLoss)
			}
			vars := variables(p.f)
			for i := range grads {
				if d := relDiff(grads[i], plain[i]); !(d <= 1e-12) {
					t.Errorf("%s: open routed gradient differs from plain BPTT by %.3g (relative)", vars[i].Path(), d)
				}
			}

			lossOf := lossExec(p.f, p.K)
			eval := func() float64 { return tensors.MustCopyFlatData[float64](lossOf.MustCall(p.args(open)...)[0])[0] }
			if l := eval(); l != loss {
				t.Fatalf("loss-only graph gives %.17g, loss-and-gradient graph %.17g", l, loss)
			}
			checkFiniteDifferences(t, p.f, grads, eval)
			if l := eval(); l != loss {
				t.Fatalf("parameters not restored: loss %.17g, was %.17g", l, loss)
			}
		})
	}
}

// checkFiniteDifferences compares grads (one slice per variable, in ctx.IterVariables order) with
// central differences (step 1e-6) of loss, evaluated at the forecaster's current variable values,
// entry by entry, to 1e-6 relative. Entries much smaller than the largest gradient entry are
// compared relative to 1e-3 of it, the level that rounding in the loss allows.
func checkFiniteDifferences(t *testing.T, f *model.Forecaster, grads [][]float64, loss func() float64) {
	t.Helper()
	const (
		step = 1e-6
		rtol = 1e-6
	)
	vars := variables(f)
	if len(grads) != len(vars) {
		t.Fatalf("%d gradients for %d variables", len(grads), len(vars))
	}
	scale := 0.0
	for _, g := range grads {
		scale = math.Max(scale, maxAbs(g))
	}
	worst, checked := 0.0, 0
	for i, v := range vars {
		theta := values64(t, v)
		for j := range theta {
			orig := theta[j]
			theta[j] = orig + step
			setValues64(t, v, theta)
			up := loss()
			theta[j] = orig - step
			setValues64(t, v, theta)
			down := loss()
			theta[j] = orig
			setValues64(t, v, theta)

			fd := (up - down) / (2 * step)
			err := math.Abs(fd-grads[i][j]) / (math.Abs(grads[i][j]) + 1e-3*scale)
			worst = math.Max(worst, err)
			checked++
			if !(err <= rtol) {
				t.Errorf("%s[%d]: gradient %.12g, central difference %.12g (relative error %.3g)", v.Path(), j, grads[i][j], fd, err)
			}
		}
	}
	t.Logf("%d parameters, ‖∇‖_∞ %.3g, worst relative error %.3g", checked, scale, worst)
}

// TestRoutedGradientReachesModel checks that gains in (0, 1) change the parameter gradient of the
// rollout (the routed merges sit on the model's backward paths) while the forward loss stays
// bit-identical to the fully open one.
func TestRoutedGradientReachesModel(t *testing.T) {
	for _, tc := range gradCases {
		t.Run(tc.name, func(t *testing.T) {
			p := newGradProblem(t, tc)
			L := p.f.NumLayers()
			rng := rand.New(rand.NewPCG(13, 13))
			gains := gainsTensor(p.K, L, func(int, int) (float64, float64) {
				return 0.1 + 0.8*rng.Float64(), 0.1 + 0.8*rng.Float64()
			})
			openLoss, open := p.lossAndGrads(t, true, openGains(p.K, L))
			routedLoss, routed := p.lossAndGrads(t, true, gains)
			if math.Float64bits(routedLoss) != math.Float64bits(openLoss) {
				t.Errorf("routed forward loss %.17g differs from the open one %.17g", routedLoss, openLoss)
			}
			var all, allOpen []float64
			readIns := 0
			for i, v := range variables(p.f) {
				all, allOpen = append(all, routed[i]...), append(allOpen, open[i]...)
				if v.Scope() != "/model/read_in" {
					continue
				}
				// The read-in sits below every routed merge: its gradient only arrives through them.
				readIns++
				if d := relDiff(routed[i], open[i]); !(d >= 1e-2) {
					t.Errorf("%s: routed gradient differs from the open one by only %.3g (relative)", v.Path(), d)
				}
			}
			if readIns != 2 {
				t.Errorf("found %d read-in variables, want 2 (w, b)", readIns)
			}
			d := relDiff(all, allOpen)
			if !(d >= 1e-2) {
				t.Errorf("routed gradient differs from the open one by only %.3g (relative)", d)
			}
			t.Logf("relative difference of the routed gradient: %.3g", d)
		})
	}
}

// refData returns the problem per batch entry as reference vectors: the observed window
// [N][Window][D], the drive [N][Window−1+K][J] (nil entries without drive) and the targets [N][K][D].
func (p *gradProblem) refData() (hist, drive, target [][]refVec) {
	c := p.f.Config()
	flat := func(i int) []float64 { return tensors.MustCopyFlatData[float64](p.data[i].(*tensors.Tensor)) }
	histData, targetData := flat(0), flat(len(p.data)-1)
	N := len(histData) / (c.Window * c.StateDim)
	T := c.Window - 1 + p.K
	hist, drive, target = make([][]refVec, N), make([][]refVec, N), make([][]refVec, N)
	for n := range N {
		for w := range c.Window {
			hist[n] = append(hist[n], at(histData, c.Window, c.StateDim, n, w))
		}
		for k := range p.K {
			target[n] = append(target[n], at(targetData, p.K, c.StateDim, n, k))
		}
		if c.DriveDim > 0 {
			driveData := flat(1)
			for s := range T {
				drive[n] = append(drive[n], at(driveData, T, c.DriveDim, n, s))
			}
		}
	}
	return hist, drive, target
}

// refLossOf is rolloutLoss for reference predictions preds [N][K][D].
func refLossOf(preds, target [][]refVec) float64 {
	total := 0.0
	for n := range preds {
		K := len(preds[n])
		for k := range K {
			diff := subVec(preds[n][k], target[n][k])
			total += (1 + float64(k)/float64(K)) * dotVec(diff, diff)
		}
	}
	return 0.5 * total / float64(len(preds))
}

// TestZeroNonlinearGainFreezesBlocks checks what m = 0 (α = 1) at every routed merge means for the
// parameter gradient, against finite differences of an independent characterisation: with
// v ↦ α·v + m·J_Fᵀv and m = 0, nothing flows back into any block's input or recurrent state (the
// SSM state and the convolution buffer are routed with m too), so the gradient is that of the loss
// in which every block F_ℓ at every step sees its input and its state frozen at their current
// values and only its own parameters move, while the read-in, the identity routes, the read-out
// and the fed-back state x_k (the outer update stays open) carry the parameters' influence across
// steps. In particular the teacher-forced window gets no gradient at all.
func TestZeroNonlinearGainFreezesBlocks(t *testing.T) {
	for _, tc := range gradCases {
		if tc.cfg.ChannelIndependent {
			// The plain-Go reference forecaster has no channel-independent mode;
			// TestChannelIndependentIsPerCoordinate ties that mode to the single-coordinate one.
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			p := newGradProblem(t, tc)
			f, c := p.f, p.f.Config()
			gains := gainsTensor(p.K, c.Layers, func(int, int) (float64, float64) { return 1, 0 })
			loss, grads := p.lossAndGrads(t, true, gains)

			hist, drive, target := p.refData()
			r0 := newRefForecaster(t, f) // the values the block inputs and states are frozen at
			// Block inputs z_ℓ at every position of the unperturbed rollout, computed with r0.
			frozen := make([][][]refVec, len(hist))
			for n := range hist {
				xs := append(slices.Clone(hist[n]), r0.rollout(hist[n], nilIfEmpty(drive[n]), p.K)[:p.K-1]...)
				var ds []refVec
				if len(drive[n]) > 0 {
					ds = drive[n][:len(xs)]
				}
				frozen[n] = r0.hidden(xs, ds)
			}
			refLoss := func() float64 {
				r := newRefForecaster(t, f)
				preds := make([][]refVec, len(hist))
				for n := range hist {
					x := hist[n][c.Window-1]
					for k := range p.K {
						cur := c.Window - 1 + k
						in := slices.Clone(x)
						if len(drive[n]) > 0 {
							in = append(in, drive[n][cur]...)
						}
						z := r.readInApply(in)
						for l, b := range r.blocks {
							fl := b.stepFrozen(r0.blocks[l], frozen[n][l][:cur], frozen[n][l][cur])
							for i := range z {
								z[i] += fl[i]
							}
						}
						x = r.forecast(x, z)
						preds[n] = append(preds[n], x)
					}
				}
				return refLossOf(preds, target)
			}
			if l := refLoss(); math.Abs(l-loss) > 1e-12*math.Max(1, loss) {
				t.Fatalf("frozen-block reference loss %.15g, graph loss %.15g", l, loss)
			}
			checkFiniteDifferences(t, f, grads, refLoss)
		})
	}
}

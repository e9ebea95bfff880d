package model_test

import (
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
	"github.com/internal-dw/dwgo/dwlib/route"
)

// TestJacobianNormsMatchReference checks RolloutOptions.JacobianDirection: the per-step norms
// ‖(step(x+εu) − step(x))/ε‖ are taken with the recurrent state the step really has (checked
// against the sequence reference run on the inputs so far with the last one moved by εu), and
// computing them leaves the forecast bit-identical.
func TestJacobianNormsMatchReference(t *testing.T) {
	const (
		batch = 2
		K     = 3
		eps   = 1e-3
	)
	for _, cfg := range []model.Config{
		{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 8, Layers: 2, SSMState: 3, ConvWidth: 3, Window: 3},
		{Kind: "mlp", StateDim: 2, Hidden: 8, Layers: 2, Window: 2},
	} {
		t.Run(cfg.Kind, func(t *testing.T) {
			cfg.DType, cfg.Seed = dtypes.Float64, 17
			f := newForecaster(t, cfg)
			c := f.Config()
			rng := rand.New(rand.NewPCG(6, 6))
			perturbVariables(t, f, rng, 0.2)
			ref := newRefForecaster(t, f)

			histData := randn(rng, batch*c.Window*c.StateDim, 1)
			T := c.Window - 1 + K
			var driveData []float64
			args := []any{tensors.FromFlatDataAndDimensions(histData, batch, c.Window, c.StateDim)}
			if c.DriveDim > 0 {
				driveData = randn(rng, batch*T*c.DriveDim, 1)
				args = append(args, tensors.FromFlatDataAndDimensions(driveData, batch, T, c.DriveDim))
			}
			dir := randn(rng, batch*c.StateDim, 1)
			for n := range batch { // unit rows
				row := dir[n*c.StateDim : (n+1)*c.StateDim]
				s := math.Sqrt(dotVec(row, row))
				for i := range row {
					row[i] /= s
				}
			}
			args = append(args, tensors.FromFlatDataAndDimensions(dir, batch, c.StateDim))

			numNorms, numPlain := -1, -1
			exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
				inputs := rolloutInputs(f, in)
				plain := f.Rollout(nil, inputs, K, model.RolloutOptions{})
				withJ := f.Rollout(nil, inputs, K, model.RolloutOptions{JacobianDirection: in[len(in)-1], JacobianEps: eps})
				numNorms, numPlain = len(withJ.JacobianNorms), len(plain.JacobianNorms)
				return []*Node{Stack(plain.Preds, 1), Stack(withJ.Preds, 1), Stack(withJ.JacobianNorms, 1)}
			})
			out := exec.MustCall(args...)
			if numNorms != K || numPlain != 0 {
				t.Fatalf("got %d Jacobian norms with a direction and %d without, want %d and 0", numNorms, numPlain, K)
			}
			plain, preds := tensors.MustCopyFlatData[float64](out[0]), tensors.MustCopyFlatData[float64](out[1])
			if !slices.Equal(plain, preds) {
				t.Errorf("computing the Jacobian norms changed the forecast")
			}
			norms := tensors.MustCopyFlatData[float64](out[2]) // [N, K]

			for n := range batch {
				xs := make([]refVec, c.Window)
				for w := range c.Window {
					xs[w] = at(histData, c.Window, c.StateDim, n, w)
				}
				var drive []refVec
				if c.DriveDim > 0 {
					for s := range T {
						drive = append(drive, at(driveData, T, c.DriveDim, n, s))
					}
				}
				u := dir[n*c.StateDim : (n+1)*c.StateDim]
				for k := range K {
					var ds []refVec
					if drive != nil {
						ds = drive[:len(xs)]
					}
					base := ref.seq(xs, ds)
					moved := slices.Clone(xs)
					last := slices.Clone(xs[len(xs)-1])
					for i := range last {
						last[i] += eps * u[i]
					}
					moved[len(moved)-1] = last
					pert := ref.seq(moved, ds)
					diff := subVec(pert[len(pert)-1], base[len(base)-1])
					want := math.Sqrt(dotVec(diff, diff)) / eps
					if got := norms[n*K+k]; math.Abs(got-want) > 1e-9*math.Max(1, want) {
						t.Errorf("Jacobian norm [n=%d, k=%d] = %.12g, reference %.12g", n, k, got, want)
					}
					xs = append(xs, base[len(base)-1])
				}
			}
		})
	}
}

func dotVec(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestTruncateEvery checks RolloutOptions.TruncateEvery (TBPTT): the forecast and the loss are
// unchanged; segments at least K long give the full BPTT gradient bit for bit; cutting every step
// leaves the read-out bias with only its direct gradient Σ_k ∂loss/∂x̂_k; and shorter segments change
// the gradient of the read-in.
func TestTruncateEvery(t *testing.T) {
	const K = 4
	for _, tc := range gradCases {
		t.Run(tc.name, func(t *testing.T) {
			p := newGradProblem(t, gradCase{tc.name, tc.cfg, K})
			f := p.f
			c := f.Config()
			L := f.NumLayers()
			rng := rand.New(rand.NewPCG(2, 2))
			gains := gainsTensor(K, L, func(int, int) (float64, float64) { return 0.3 + 0.6*rng.Float64(), 0.3 + 0.6*rng.Float64() })
			run := func(every int) (preds []float64, loss float64, grads map[string][]float64) {
				exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
					n := len(in)
					r := f.Rollout(route.NewRouter(in[n-1]), rolloutInputs(f, in), K, model.RolloutOptions{TruncateEvery: every})
					loss := rolloutLoss(r.Preds, in[n-2])
					return append([]*Node{Stack(r.Preds, 1), loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
				})
				out := exec.MustCall(p.args(gains)...)
				grads = map[string][]float64{}
				for i, v := range variables(f) {
					grads[v.Scope()+"::"+v.Name()] = tensors.MustCopyFlatData[float64](out[2+i])
				}
				return tensors.MustCopyFlatData[float64](out[0]), tensors.MustCopyFlatData[float64](out[1])[0], grads
			}
			fullPreds, fullLoss, full := run(0)
			for _, every := range []int{1, 2, K, K + 3} {
				preds, loss, grads := run(every)
				if !slices.Equal(preds, fullPreds) || loss != fullLoss {
					t.Errorf("TruncateEvery=%d changed the forward pass", every)
				}
				if len(grads["/model/read_in::w"]) == 0 || len(grads["/model/read_out2::b"]) == 0 {
					t.Fatalf("no gradient for /model/read_in::w or /model/read_out2::b")
				}
				readIn := relDiff(grads["/model/read_in::w"], full["/model/read_in::w"])
				switch {
				case every >= K:
					for name, g := range grads {
						if !slices.Equal(g, full[name]) {
							t.Errorf("TruncateEvery=%d ≥ K: gradient of %s differs from full BPTT", every, name)
						}
					}
				case !(readIn >= 1e-3):
					t.Errorf("TruncateEvery=%d: read-in gradient differs from full BPTT by only %.3g", every, readIn)
				}
				if every != 1 {
					continue
				}
				// ∂loss/∂x̂[n,k] = w_k (x̂ − T)/N, and with every step cut b only reaches x̂_k directly.
				target := tensors.MustCopyFlatData[float64](p.data[len(p.data)-1].(*tensors.Tensor))
				N := len(preds) / (K * c.StateDim)
				nb := c.StateDim // read_out2's bias: one entry per coordinate, or one shared by all
				if c.ChannelIndependent {
					nb = 1
				}
				want := make([]float64, nb)
				for n := range N {
					for k := range K {
						for i := range c.StateDim {
							j := (n*K+k)*c.StateDim + i
							want[i%nb] += (1 + float64(k)/K) * (preds[j] - target[j]) / float64(N)
						}
					}
				}
				got := grads["/model/read_out2::b"]
				for i := range want {
					if math.Abs(got[i]-want[i]) > 1e-12*math.Max(1, math.Abs(want[i])) {
						t.Errorf("TruncateEvery=1: ∂loss/∂read_out2::b[%d] = %.15g, want the direct term %.15g", i, got[i], want[i])
					}
				}
				if d := relDiff(full["/model/read_out2::b"], want); !(d >= 1e-3) {
					t.Errorf("full BPTT read-out bias gradient is the direct term too (relative difference %.3g): the check is void", d)
				}
			}
		})
	}
}

// TestTruncatedGradientMatchesFrozenStateReference checks the TBPTT gradient with a cut before
// every rollout step (TruncateEvery = 1) against central finite differences of the loss it is the
// gradient of: step 0 sees the parameters through the teacher-forced window and the step itself,
// while every later step k sees them only through step k, its input x̂_k and every block's
// recurrent state (SSM state and convolution buffer) being frozen at the current parameters. The
// frozen-state loss is evaluated with the sequence reference.
func TestTruncatedGradientMatchesFrozenStateReference(t *testing.T) {
	const K = 3
	for _, tc := range gradCases {
		if tc.cfg.ChannelIndependent {
			continue // no reference (see TestZeroNonlinearGainFreezesBlocks)
		}
		t.Run(tc.name, func(t *testing.T) {
			p := newGradProblem(t, gradCase{tc.name, tc.cfg, K})
			f := p.f
			c := f.Config()
			exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
				n := len(in)
				r := f.Rollout(nil, rolloutInputs(f, in), K, model.RolloutOptions{TruncateEvery: 1})
				loss := rolloutLoss(r.Preds, in[n-2])
				return append([]*Node{loss}, scope.BuildTrainableVariablesGradientsGraph(loss)...)
			})
			out := exec.MustCall(p.args(openGains(K, c.Layers))...)
			loss := tensors.MustCopyFlatData[float64](out[0])[0]

			hist, drive, target := p.refData()
			N := len(hist)
			r0 := newRefForecaster(t, f) // the parameters the recurrent state is frozen at
			// Inputs x_0 … x_{Window−1+K−1} of the unperturbed rollout.
			inputs := make([][]refVec, N)
			for n := range N {
				inputs[n] = append(slices.Clone(hist[n]), r0.rollout(hist[n], nilIfEmpty(drive[n]), K)...)
			}
			refLoss := func() float64 {
				r := newRefForecaster(t, f)
				preds := make([][]refVec, N)
				for n := range N {
					for k := range K {
						cur := c.Window - 1 + k // position of the step's input
						xs, ds := inputs[n][:cur+1], nilIfEmpty(drive[n])
						if ds != nil {
							ds = ds[:cur+1]
						}
						if k == 0 {
							out := r.seq(xs, ds) // window and first step: all differentiated
							preds[n] = append(preds[n], out[len(out)-1])
							continue
						}
						var d refVec
						if ds != nil {
							d, ds = ds[cur], ds[:cur]
						}
						preds[n] = append(preds[n], r.stepFrozen(r0, xs[:cur], ds, xs[cur], d))
					}
				}
				return refLossOf(preds, target)
			}
			if l := refLoss(); math.Abs(l-loss) > 1e-12*math.Max(1, loss) {
				t.Fatalf("reference loss %.15g, graph loss %.15g", l, loss)
			}

			grads := make([][]float64, len(out)-1)
			for i, g := range out[1:] {
				grads[i] = tensors.MustCopyFlatData[float64](g)
			}
			checkFiniteDifferences(t, f, grads, refLoss)
		})
	}
}

func nilIfEmpty(x []refVec) []refVec {
	if len(x) == 0 {
		return nil
	}
	return x
}

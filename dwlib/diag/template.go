package diag

import (
	"fmt"
	"math/rand/v2"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// ResidualShares compares what the noise probe q_noise = mean x̂ᵀε sees for three choices of ε,
// relative to the total probe q_tot = ½ mean ‖x̂ − x*‖² (App. C.3). Each value is
// Σ_{k,ℓ} tr R / Σ_{k,ℓ} tr T over the same minibatches, with every route open.
//
//   - Own: each window's own residual x* − x̂. Since ∂q_noise/∂x̂ is then the negative of
//     ∂q_tot/∂x̂, this is exactly 1: a check that the two probes share one scale.
//   - Template: DW-Generic's choice, one window's residual (window 0 of the minibatch) given to
//     every window with an independent random sign (without the EMA centring: App. D.1).
//   - Shuffled: every window gets the residual of another window of the minibatch.
//
// If Template and Shuffled are close to 1, a residual from another window moves the routes as
// much as each window's own, so DW-Generic's R̂ ≈ T̂ in expectation and P̂ = Π(T̂ − R̂) is mostly
// estimation noise.
type ResidualShares struct {
	Own, Template, Shuffled float64
	Minibatches             int
}

// MeasureResidualShares evaluates ResidualShares for forecaster f (parameters unchanged) on
// minibatches of batch random windows of units (uniform origins, as in training), for K-step
// rollouts.
func MeasureResidualShares(bk compute.Backend, f *model.Forecaster, units []data.Series, K, batch, minibatches int, seed uint64) (ResidualShares, error) {
	mc := f.Config()
	if batch < 2 || minibatches < 1 || len(units) == 0 {
		return ResidualShares{}, fmt.Errorf("diag: MeasureResidualShares needs a minibatch of at least 2 windows (got %d), at least one minibatch (got %d) and units (got %d)", batch, minibatches, len(units))
	}
	if mc.DriveDim != 0 {
		return ResidualShares{}, fmt.Errorf("diag: MeasureResidualShares supports autonomous testbeds only (the forecaster reads %d drive channels)", mc.DriveDim)
	}
	L, D := f.NumLayers(), mc.StateDim
	g := train.Geometry{Window: mc.Window, K: K, BurnIn: mc.BurnIn}
	scale := 1 / float64(batch*K)
	exec, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, hist, target, eps *graph.Node) []*graph.Node {
		router := route.NewRouter(graph.Ones(hist.Graph(), shapes.Make(dtypes.Float32, K, L, 2)))
		pred := graph.Stack(f.Rollout(router, model.Inputs{History: hist}, K, model.RolloutOptions{}).Preds, 1)
		e := graph.Sub(pred, graph.ConvertDType(target, pred.DType()))
		qTot := graph.MulScalar(graph.ReduceAllSum(graph.Mul(e, e)), 0.5*scale)
		qNoise := graph.MulScalar(graph.ReduceAllSum(graph.Mul(pred, graph.ConvertDType(eps, pred.DType()))), scale)
		return []*graph.Node{graph.StopGradient(graph.Neg(e)), router.ProbeMoments(qTot), router.ProbeMoments(qNoise)}
	})
	if err != nil {
		return ResidualShares{}, err
	}
	trace := func(m []float64) float64 {
		s := 0.0
		for i := 0; i+2 < len(m); i += 3 {
			s += m[i] + m[i+2]
		}
		return s
	}
	rng := rand.New(rand.NewPCG(seed, 0x736861726573))
	var tot, own, tpl, shuf float64
	for range minibatches {
		picks, err := train.EpochPicks(rng, units, (batch+len(units)-1)/len(units), g)
		if err != nil {
			return ResidualShares{}, err
		}
		b, err := train.ModelBatch(f, units, picks[:batch], g) // shifted as training shifted it
		if err != nil {
			return ResidualShares{}, err
		}
		run := func(eps []float64) ([]float64, float64, float64, error) {
			outs, err := exec.Call(train.ToTensor(mc.DType, b.History, batch, g.Window, D),
				train.ToTensor(mc.DType, b.Targets, batch, K, D), train.ToTensor(mc.DType, eps, batch, K, D))
			if err != nil {
				return nil, 0, 0, err
			}
			return train.FromTensor(outs[0]), trace(train.FromTensor(outs[1])), trace(train.FromTensor(outs[2])), nil
		}
		res, t, _, err := run(make([]float64, batch*K*D))
		if err != nil {
			return ResidualShares{}, err
		}
		_, _, o, err := run(res)
		if err != nil {
			return ResidualShares{}, err
		}
		n := K * D
		template, shuffled := make([]float64, len(res)), make([]float64, len(res))
		perm := derangement(rng, batch)
		for i := range batch {
			sign := 1.0
			if rng.Uint64()&1 == 1 {
				sign = -1
			}
			for j := range n {
				template[i*n+j] = sign * res[j]
				shuffled[i*n+j] = res[perm[i]*n+j]
			}
		}
		_, _, tp, err := run(template)
		if err != nil {
			return ResidualShares{}, err
		}
		_, _, sh, err := run(shuffled)
		if err != nil {
			return ResidualShares{}, err
		}
		tot, own, tpl, shuf = tot+t, own+o, tpl+tp, shuf+sh
	}
	return ResidualShares{Own: own / tot, Template: tpl / tot, Shuffled: shuf / tot, Minibatches: minibatches}, nil
}

// derangement returns a random permutation of 0..n−1 with no fixed point (n >= 2).
func derangement(rng *rand.Rand, n int) []int {
	for {
		p := rng.Perm(n)
		ok := true
		for i, v := range p {
			if i == v {
				ok = false
				break
			}
		}
		if ok {
			return p
		}
	}
}

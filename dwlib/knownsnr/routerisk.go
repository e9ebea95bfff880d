package knownsnr

import (
	"fmt"
	"math/rand/v2"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/calib"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/route"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// RiskConfig is the protocol of panel c (App. E.3): with the forecaster's parameters fixed, the
// DW controller (W/C = Warmup/Period, DW-Generic) calibrates over Passes traversals of the
// training set; at every post-warm-up minibatch (at most MaxEval, evenly spaced) the local route
// risk of each gain setting is evaluated with P exact and R from EvalDraws independent draws;
// the oracle's R comes from another OracleDraws draws.
//
// "Post-warm-up" follows the released probe: from minibatch Warmup + Period on, the first whose
// gains come from a calibration (at minibatch Warmup the DW gains are still all one, and scoring
// it would add full BPTT's risk to DW's). The paper's "22 post-warm-up batches" are the released
// geometry's 34 microbatches minus those 12 (AuthorsRisk). Read with the text's minibatches of
// 32 (PaperRisk: 70 training trajectories, seven rollout starts each, 15 minibatches per pass),
// the same definition leaves 18 of 30.
type RiskConfig struct {
	Passes        int    `json:"passes"`
	StartsPerUnit int    `json:"starts_per_unit"`
	BatchSize     int    `json:"batch_size"`
	Warmup        int    `json:"warmup"`
	Period        int    `json:"period"`
	OracleDraws   int    `json:"oracle_draws"`
	EvalDraws     int    `json:"eval_draws"`
	MaxEval       int    `json:"max_eval"` // 0: every post-warm-up minibatch
	Seed          uint64 `json:"seed"`
	// Sampler is the DW noise sampler ("" is DW-Generic, the paper's text; the released
	// known-SNR study uses "diagonal-gaussian").
	Sampler string `json:"sampler,omitempty"`
}

// PaperRisk is the paper's protocol as its text reads (DW-Generic, minibatches of 32).
func PaperRisk() RiskConfig {
	return RiskConfig{Passes: 2, StartsPerUnit: 7, BatchSize: 32, Warmup: 8, Period: 4, OracleDraws: 64, EvalDraws: 64, Seed: 1}
}

// AuthorsRisk is the protocol of the authors' released route-risk probe: microbatches of 4
// trajectories with one rollout start each, two passes, the diagonal-Gaussian noise sampler,
// and every minibatch from Warmup + Period on evaluated. With 67 training trajectories the
// released loader makes 17 microbatches per pass (the last of 3), 34 in all, 22 of them
// evaluated: the paper's "22 post-warm-up batches". Here a pass drops a partial last
// microbatch; with this project's 70 training trajectories that also leaves 17 per pass and 22
// evaluated.
func AuthorsRisk() RiskConfig {
	return RiskConfig{Passes: 2, StartsPerUnit: 1, BatchSize: 4, Warmup: 8, Period: 4, OracleDraws: 64, EvalDraws: 64, Seed: 1,
		Sampler: noise.DiagonalName}
}

// Settings whose route risk RouteRisk compares.
const (
	SettingFull      = "full BPTT"
	SettingDW        = "Internal-DW"
	SettingMisplaced = "misplaced DW"
	SettingOracle    = "noise-informed oracle"
)

// Settings lists them in the paper's order.
var Settings = []string{SettingFull, SettingDW, SettingMisplaced, SettingOracle}

// Risk is panel c for one checkpoint: route risk summed over every (k, l) and evaluated
// minibatch, per setting, and the same divided by full BPTT's.
type Risk struct {
	Config    RiskConfig
	Evaluated int                // minibatches evaluated
	Sum       map[string]float64 // Σ_batches Σ_{k,l} R(w)
	Ratio     map[string]float64 // Sum / Sum[SettingFull]
	// PerHorizon[setting][k] is the risk at horizon k summed over layers and batches, divided by
	// full BPTT's total (so each setting's curve sums to its Ratio).
	PerHorizon map[string][]float64
	// Gains are the DW gains in force at the last evaluated minibatch and OracleGains the oracle's
	// there, [K][L][2] flat.
	Gains, OracleGains []float64
	Calibrations       int
}

// RouteRisk runs panel c for forecaster f on the known-SNR training units (normalised with norm).
func RouteRisk(bk compute.Backend, f *model.Forecaster, trainUnits []data.Series, norm data.Affine, K int, cfg RiskConfig, rep progress.Reporter) (*Risk, error) {
	if cfg.Passes < 1 || cfg.StartsPerUnit < 1 || cfg.BatchSize < 1 || cfg.OracleDraws < 1 || cfg.EvalDraws < 1 || cfg.MaxEval < 0 {
		return nil, fmt.Errorf("knownsnr: invalid RiskConfig %+v", cfg)
	}
	samplerName, evalFrom := cfg.Sampler, cfg.Warmup+cfg.Period // the first minibatch with calibrated gains
	if samplerName == "" {
		samplerName = noise.GenericName
	}
	mc := f.Config()
	L, N, D := f.NumLayers(), cfg.BatchSize, mc.StateDim
	g := train.Geometry{Window: mc.Window, K: K, BurnIn: mc.BurnIn}
	sampler, err := noise.New(samplerName)
	if err != nil {
		return nil, err
	}
	cc := calib.DefaultConfig(K, L)
	cc.Warmup, cc.Period = cfg.Warmup, cfg.Period
	ctrl, err := calib.New(cc, sampler)
	if err != nil {
		return nil, err
	}
	probe, err := newProbeExec(bk, f, N, K)
	if err != nil {
		return nil, err
	}
	drawsOf := func(B int) (*drawExec, error) { return newDrawExec(bk, f, N, B, K) }
	oracleExec, err := drawsOf(cfg.OracleDraws)
	if err != nil {
		return nil, err
	}
	evalExec := oracleExec
	if cfg.EvalDraws != cfg.OracleDraws {
		if evalExec, err = drawsOf(cfg.EvalDraws); err != nil {
			return nil, err
		}
	}

	// The minibatches: Passes traversals, each a fresh shuffle of StartsPerUnit starts per unit.
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x726f757465))
	var batches [][]train.Pick
	for range cfg.Passes {
		picks, err := train.EpochPicks(rng, trainUnits, cfg.StartsPerUnit, g)
		if err != nil {
			return nil, err
		}
		for i := 0; i+N <= len(picks); i += N {
			batches = append(batches, picks[i:i+N])
		}
	}
	post := len(batches) - evalFrom
	if post < 1 {
		return nil, fmt.Errorf("knownsnr: %d minibatches, none after the warm-up and first period (%d + %d) to evaluate", len(batches), cfg.Warmup, cfg.Period)
	}
	evalAt := map[int]bool{}
	nEval := post
	if cfg.MaxEval > 0 {
		nEval = min(post, cfg.MaxEval)
	}
	for i := range nEval {
		evalAt[evalFrom+i*post/nEval] = true
	}

	rep = progress.OrNop(rep)
	rep.Start(len(batches), "known-SNR route risk")
	defer rep.Finish()
	res := &Risk{Config: cfg, Sum: map[string]float64{}, Ratio: map[string]float64{}, PerHorizon: map[string][]float64{}}
	for _, s := range Settings {
		res.PerHorizon[s] = make([]float64, K)
	}
	signRNG := rand.New(rand.NewPCG(cfg.Seed, 0x7369676e))
	for bi, picks := range batches {
		st, err := NewStarts(trainUnits, picks, g, norm)
		if err != nil {
			return nil, err
		}
		calibrate := ctrl.IsCalibration()
		gains := ctrl.Gains() // the committed gains this minibatch's task backward would use
		eps := make([]float64, N*K*D)
		var ready []bool
		if calibrate {
			ready = sampler.Ready(K)
			if eps, err = sampler.Sample(signRNG, N, K, D); err != nil {
				return nil, err
			}
		}
		pr, err := probe.run(st, eps)
		if err != nil {
			return nil, err
		}
		if evalAt[bi] {
			seed := cfg.Seed*1_000_003 + uint64(bi)
			ro, err := oracleExec.run(st, st.Draws(cfg.OracleDraws, 2*seed))
			if err != nil {
				return nil, err
			}
			re, err := evalExec.run(st, st.Draws(cfg.EvalDraws, 2*seed+1))
			if err != nil {
				return nil, err
			}
			res.Evaluated++
			res.OracleGains = make([]float64, 2*K*L)
			for k := range K {
				for l := range L {
					i := k*L + l
					P, Re := pr.P[i], re[i]
					w := map[string][2]float64{
						SettingFull:      {1, 1},
						SettingDW:        {gains[2*i], gains[2*i+1]},
						SettingMisplaced: misplaced(gains, k, l, K, L),
					}
					wo, _ := wiener.Solve(P.Add(ro[i]), ro[i])
					w[SettingOracle] = wo
					res.OracleGains[2*i], res.OracleGains[2*i+1] = wo[0], wo[1]
					for s, ws := range w {
						r := wiener.Risk(ws, P, Re)
						res.Sum[s] += r
						res.PerHorizon[s][k] += r
					}
				}
			}
			res.Gains = gains
		}
		if calibrate {
			if err := ctrl.Stage(pr.T, pr.R, ready); err != nil {
				return nil, err
			}
		}
		if err := sampler.Stage(pr.residuals, N, K, D); err != nil {
			return nil, err
		}
		ctrl.Commit()
		rep.Step(1, fmt.Sprintf("minibatch %d/%d (%d evaluated)", bi+1, len(batches), res.Evaluated))
	}
	full := res.Sum[SettingFull]
	for _, s := range Settings {
		res.Ratio[s] = res.Sum[s] / full
		for k := range K {
			res.PerHorizon[s][k] /= full
		}
	}
	res.Calibrations = ctrl.Calibrations()
	return res, nil
}

// misplaced returns the DW gains of layer l at horizon (k + K/2) mod K: the same gains, moved by
// half the horizon range within the layer (App. E.3).
func misplaced(gains []float64, k, l, K, L int) [2]float64 {
	i := ((k+K/2)%K)*L + l
	return [2]float64{gains[2*i], gains[2*i+1]}
}

// probeExec computes, for a minibatch with its realised targets, the residuals and three
// fully-open route-moment probes (App. C.3), each reduced to (1/D_ℓ)·dᵀd summed over the batch:
//
//	T: q_tot   = ½ mean_{i,k} ‖x̂ − x*‖²   (what the calibration sees)
//	R: q_noise = mean_{i,k} x̂ᵀε          (ε: the DW-Generic sample)
//	P: q_sig   = ½ mean_{i,k} ‖x̂ − x̄‖²   (x̄ = A^k x_t: its messages are exactly the signal s)
type probeExec struct {
	f    *model.Forecaster
	exec *mlmodel.Exec
	N, K int
}

type probeOut struct {
	residuals []float64
	T, R, P   []wiener.Sym2
}

func newProbeExec(bk compute.Backend, f *model.Forecaster, N, K int) (*probeExec, error) {
	L := f.NumLayers()
	scale := 1 / float64(N*K)
	exec, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
		hist, target, eps, mean := in[0], in[1], in[2], in[3]
		gains := Ones(hist.Graph(), shapes.Make(dtypes.Float32, K, L, 2))
		router := route.NewRouter(gains)
		pred := Stack(f.Rollout(router, model.Inputs{History: hist}, K, model.RolloutOptions{}).Preds, 1)
		half := func(t *Node) *Node {
			e := Sub(pred, ConvertDType(t, pred.DType()))
			return MulScalar(ReduceAllSum(Mul(e, e)), 0.5*scale)
		}
		qNoise := MulScalar(ReduceAllSum(Mul(pred, ConvertDType(eps, pred.DType()))), scale)
		return []*Node{StopGradient(Sub(ConvertDType(target, pred.DType()), pred)),
			router.ProbeMoments(half(target)), router.ProbeMoments(qNoise), router.ProbeMoments(half(mean))}
	})
	if err != nil {
		return nil, err
	}
	return &probeExec{f: f, exec: exec, N: N, K: K}, nil
}

func (p *probeExec) run(st *Starts, eps []float64) (*probeOut, error) {
	dt, D := p.f.Config().DType, st.D
	outs, err := p.exec.Call(train.ToTensor(dt, st.History, p.N, st.Window, D), train.ToTensor(dt, st.Targets, p.N, p.K, D),
		train.ToTensor(dt, eps, p.N, p.K, D), train.ToTensor(dt, st.Mean, p.N, p.K, D))
	if err != nil {
		return nil, fmt.Errorf("knownsnr: route probes: %w", err)
	}
	res := &probeOut{residuals: train.FromTensor(outs[0]), T: sym2s(outs[1]), R: sym2s(outs[2]), P: sym2s(outs[3])}
	return res, nil
}

// drawExec computes the noise moment R = Σ_i E_b[(1/D_ℓ) n_iᵀn_i] of the messages n = A(x̄ − x^(b))
// of independent draws x^(b) of the true process, with the same 1/(N·K) scale as the probes:
// the B draws of every window are stacked in the batch (rows i·B + b), so one backward pass gives
// them all.
type drawExec struct {
	f       *model.Forecaster
	exec    *mlmodel.Exec
	N, B, K int
}

func newDrawExec(bk compute.Backend, f *model.Forecaster, N, B, K int) (*drawExec, error) {
	L := f.NumLayers()
	scale := 1 / float64(N*K) // N, not N·B: the draws are an expectation, not more samples
	exec, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, hist, eps *Node) *Node {
		gains := Ones(hist.Graph(), shapes.Make(dtypes.Float32, K, L, 2))
		router := route.NewRouter(gains)
		pred := Stack(f.Rollout(router, model.Inputs{History: hist}, K, model.RolloutOptions{}).Preds, 1)
		q := MulScalar(ReduceAllSum(Mul(pred, ConvertDType(eps, pred.DType()))), scale)
		return MulScalar(router.ProbeMoments(q), 1/float64(B))
	})
	if err != nil {
		return nil, err
	}
	return &drawExec{f: f, exec: exec, N: N, B: B, K: K}, nil
}

// run returns R per (k, l) for the draws (each [N, K, D] flat, as Starts.Draws returns them).
func (d *drawExec) run(st *Starts, draws [][]float64) ([]wiener.Sym2, error) {
	if len(draws) != d.B {
		return nil, fmt.Errorf("knownsnr: %d draws for an executable of %d", len(draws), d.B)
	}
	D, W := st.D, st.Window
	hist := make([]float64, 0, d.N*d.B*W*D)
	eps := make([]float64, 0, d.N*d.B*d.K*D)
	for i := range d.N {
		h := st.History[i*W*D : (i+1)*W*D]
		for b := range d.B {
			hist = append(hist, h...)
			for j := i * d.K * D; j < (i+1)*d.K*D; j++ {
				eps = append(eps, st.Mean[j]-draws[b][j])
			}
		}
	}
	dt := d.f.Config().DType
	outs, err := d.exec.Call(train.ToTensor(dt, hist, d.N*d.B, W, D), train.ToTensor(dt, eps, d.N*d.B, d.K, D))
	if err != nil {
		return nil, fmt.Errorf("knownsnr: draw moments: %w", err)
	}
	return sym2s(outs[0]), nil
}

func sym2s(t *tensors.Tensor) []wiener.Sym2 {
	v := train.FromTensor(t)
	out := make([]wiener.Sym2, len(v)/3)
	for i := range out {
		out[i] = wiener.Sym2{II: v[3*i], IJ: v[3*i+1], JJ: v[3*i+2]}
	}
	return out
}

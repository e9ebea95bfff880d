package knownsnr

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// SplitConfig is the probe protocol of panels a and b (App. E.2: 15 test trajectories, one
// rollout start each, 64 innovation draws per conditional state, four replicates).
type SplitConfig struct {
	Trajectories int    `json:"trajectories"`
	Draws        int    `json:"draws"`
	Replicates   int    `json:"replicates"`
	Seed         uint64 `json:"seed"`
}

// PaperSplit is the paper's protocol.
func PaperSplit() SplitConfig {
	return SplitConfig{Trajectories: 15, Draws: 64, Replicates: 4, Seed: 1}
}

// GradSplit is the signal/innovation split of the per-horizon gradients, per replicate and averaged.
// A replicate draws new rollout starts (one per trajectory) and new innovations; within a
// replicate every curve uses the same realised gradients.
type GradSplit struct {
	Config     SplitConfig
	K, Params  int
	Replicates []eval.PrefixRisk
	// Means over replicates, indexed by horizon k−1.
	RMSRel, SNR, NoiseFraction []float64
	Bias, Innovation, Total    []float64
	// KStarGrad is the prefix length with minimum mean Total risk (1-based); PerReplicate lists
	// each replicate's own.
	KStarGrad             int
	KStarGradPerReplicate []int
	// MaxClosure is the largest Monte Carlo closure error |Direct − Total| / Total_K over
	// replicates and horizons (the paper reports at most 0.082).
	MaxClosure float64
}

// GradientSplit measures panels a and b for the forecaster f (its parameters are not changed) on
// the known-SNR test units (normalised with norm, the dataset's Norm.State), for training
// horizon K. rep (may be nil) shows one step per backward pass.
func GradientSplit(bk compute.Backend, f *model.Forecaster, test []data.Series, norm data.Affine, K int, cfg SplitConfig, rep progress.Reporter) (*GradSplit, error) {
	if cfg.Trajectories < 1 || cfg.Draws < 2 || cfg.Replicates < 1 {
		return nil, fmt.Errorf("knownsnr: SplitConfig %+v: need >= 1 trajectory, >= 2 draws, >= 1 replicate", cfg)
	}
	mc := f.Config()
	g := train.Geometry{Window: mc.Window, K: K, BurnIn: mc.BurnIn}
	N := cfg.Trajectories
	vjp, err := newParamVJP(bk, f, N, K)
	if err != nil {
		return nil, err
	}
	pred, err := train.NewPredictor(bk, f, N)
	if err != nil {
		return nil, err
	}
	rep = progress.OrNop(rep)
	rep.Start(cfg.Replicates*K*(1+cfg.Draws), "known-SNR gradient split")
	defer rep.Finish()

	out := &GradSplit{Config: cfg, K: K, Params: vjp.P}
	for r := range cfg.Replicates {
		picks, err := RandomPicks(test, N, g, rand.New(rand.NewPCG(cfg.Seed, uint64(r))))
		if err != nil {
			return nil, err
		}
		st, err := NewStarts(test, picks, g, norm)
		if err != nil {
			return nil, err
		}
		xhat, err := forecast(pred, st)
		if err != nil {
			return nil, err
		}
		scale := 2 / float64(N*K) // d/dx̂ of (1/N) Σ_i K⁻¹‖x̂ − x‖²
		horizonVJP := func(target []float64, k int) ([]float64, error) {
			cot := make([]float64, N*K*st.D)
			for i := range N {
				for d := range st.D {
					j := (i*K+k)*st.D + d
					cot[j] = scale * target[j]
				}
			}
			return vjp.apply(st.History, cot)
		}
		diff := make([]float64, len(xhat))
		for j := range diff {
			diff[j] = xhat[j] - st.Mean[j]
		}
		signal := make([][]float64, K)
		for k := range K {
			if signal[k], err = horizonVJP(diff, k); err != nil {
				return nil, err
			}
			rep.Step(1, fmt.Sprintf("replicate %d/%d: signal k=%d", r+1, cfg.Replicates, k+1))
		}
		acc, err := eval.NewPrefixAccumulator(signal)
		if err != nil {
			return nil, err
		}
		noise := make([][]float64, K)
		for b, x := range st.Draws(cfg.Draws, cfg.Seed*1_000_033+uint64(r)) {
			for j := range diff {
				diff[j] = st.Mean[j] - x[j]
			}
			for k := range K {
				if noise[k], err = horizonVJP(diff, k); err != nil {
					return nil, err
				}
			}
			if err := acc.AddDraw(noise); err != nil {
				return nil, err
			}
			rep.Step(K, fmt.Sprintf("replicate %d/%d: draw %d/%d", r+1, cfg.Replicates, b+1, cfg.Draws))
		}
		out.Replicates = append(out.Replicates, acc.Result())
	}
	out.average()
	return out, nil
}

// forecast returns the K-step forecasts of the starts, [N, K, D] flat.
func forecast(p *train.Predictor, st *Starts) ([]float64, error) {
	ws := make([]eval.Window, st.N)
	for i := range ws {
		ws[i].History = make([][]float64, st.Window)
		for w := range st.Window {
			off := (i*st.Window + w) * st.D
			ws[i].History[w] = st.History[off : off+st.D]
		}
	}
	preds, err := p.ForecastBatch(ws, st.K)
	if err != nil {
		return nil, err
	}
	out := make([]float64, 0, st.N*st.K*st.D)
	for _, pr := range preds {
		for _, row := range pr {
			out = append(out, row...)
		}
	}
	return out, nil
}

func (s *GradSplit) average() {
	K, n := s.K, float64(len(s.Replicates))
	mean := func(get func(eval.PrefixRisk) []float64) []float64 {
		m := make([]float64, K)
		for _, r := range s.Replicates {
			for k, v := range get(r) {
				m[k] += v / n
			}
		}
		return m
	}
	s.RMSRel = mean(func(r eval.PrefixRisk) []float64 { return r.RMSRel })
	s.SNR = mean(func(r eval.PrefixRisk) []float64 { return r.SNR })
	s.NoiseFraction = mean(func(r eval.PrefixRisk) []float64 { return r.NoiseFraction })
	s.Bias = mean(func(r eval.PrefixRisk) []float64 { return r.Bias })
	s.Innovation = mean(func(r eval.PrefixRisk) []float64 { return r.Innovation })
	s.Total = mean(func(r eval.PrefixRisk) []float64 { return r.Total })
	s.KStarGrad = 1
	for k := range K {
		if s.Total[k] < s.Total[s.KStarGrad-1] {
			s.KStarGrad = k + 1
		}
	}
	s.KStarGradPerReplicate = nil
	s.MaxClosure = math.Inf(-1)
	for _, r := range s.Replicates {
		s.KStarGradPerReplicate = append(s.KStarGradPerReplicate, r.KStarGrad)
		s.MaxClosure = math.Max(s.MaxClosure, r.MaxClosure)
	}
}

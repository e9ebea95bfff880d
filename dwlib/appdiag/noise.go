package appdiag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
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

// Ratio kinds (NoiseConfig.RatioKind): what "residual-to-added-noise ratio" ρ divides.
const (
	// RatioRMS: ρ = RMS(b_k)/σ_k, an amplitude ratio, as the authors' probe defines its "snr"
	// (σ = rms(b)/snr). The paper's text does not say which.
	RatioRMS = "rms"
	// RatioVariance: ρ = mean(b_k²)/σ_k², a power ratio (σ_k = RMS(b_k)/√ρ).
	RatioVariance = "variance"
)

// DefaultRatios are the residual-to-added-noise ratios of the figure's L, M and H levels.
var DefaultRatios = []float64{4, 1, 0.25}

// DefaultNoiseBatches is the number of calibration batches per level, the authors'
// PIPELINE_BATCHES (480): enough for the residual EMA (β = .99) to converge to 99%.
const DefaultNoiseBatches = 480

// NoiseConfig configures GainResponse. Zero fields take the authors' defaults.
type NoiseConfig struct {
	Ratios        []float64 // residual-to-added-noise ratios (DefaultRatios: L, M, H)
	RatioKind     string    // RatioRMS (default, the authors') or RatioVariance
	Batches       int       // calibration batches per level (DefaultNoiseBatches)
	StartFraction float64   // relative start of every window (0: the earliest origin, as the authors' t0 = burn-in)
	RouteEMA      float64   // route-moment EMA a (calib.DefaultRouteEMA)
	Sampler       string    // noise sampler, a dwlib/noise name ("generic": DW-Generic)
	// SamplerConfig configures Sampler where it needs one (the field prior "spectral": the
	// field's layout, noise.SpectralConfig); nil for the samplers that need none.
	SamplerConfig noise.Config `json:",omitempty"`
	Seed          uint64       // added noise and probe signs; every level uses the same streams
}

// Defaults returns c with zero fields set.
func (c NoiseConfig) Defaults() NoiseConfig {
	if len(c.Ratios) == 0 {
		c.Ratios = slices.Clone(DefaultRatios)
	}
	if c.RatioKind == "" {
		c.RatioKind = RatioRMS
	}
	if c.Batches == 0 {
		c.Batches = DefaultNoiseBatches
	}
	if c.RouteEMA == 0 {
		c.RouteEMA = calib.DefaultRouteEMA
	}
	if c.Sampler == "" {
		c.Sampler = noise.GenericName
	}
	return c
}

// Validate reports the first invalid field.
func (c NoiseConfig) Validate() error {
	for _, r := range c.Ratios {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("appdiag: NoiseConfig.Ratios has %v, each must be > 0 and finite", r)
		}
	}
	if c.RatioKind != RatioRMS && c.RatioKind != RatioVariance {
		return fmt.Errorf("appdiag: NoiseConfig.RatioKind %q, want %q or %q", c.RatioKind, RatioRMS, RatioVariance)
	}
	if c.Batches < 2 {
		return fmt.Errorf("appdiag: NoiseConfig.Batches = %d, must be >= 2 (the first only fills the sampler)", c.Batches)
	}
	if !(c.StartFraction >= 0 && c.StartFraction <= 1) {
		return fmt.Errorf("appdiag: NoiseConfig.StartFraction = %v outside [0, 1]", c.StartFraction)
	}
	return nil
}

// NoiseLevel is the calibration's end state at one added-noise level.
type NoiseLevel struct {
	Ratio     float64
	Sigma     []float64 // σ_k of the added noise per forecast step (index k−1)
	MeanAlpha float64   // mean identity gain α over every (k, ℓ)
	MeanM     float64   // mean nonlinear gain m over every (k, ℓ)
	Gains     []float64 // the final committed gains, [K][L][2] flat as calib.Controller.Gains
	// NoiseShare is the mean over routes of tr R̂/tr T̂ at the end.
	NoiseShare float64
	// Calibrations counts the batches that staged a solve; Skipped those that only filled the
	// sampler (no template yet).
	Calibrations, Skipped int
	// TraceAlpha and TraceM are the mean gains after every batch.
	TraceAlpha, TraceM []float64
}

// NoiseResponse is GainResponse's result.
type NoiseResponse struct {
	K, L        int
	Windows     []Example // the batch: one window per unit
	ResidualRMS []float64 // RMS_k of the clean residual b_k = x̂_k − x*_k over windows and coordinates
	Levels      []NoiseLevel
	Seconds     float64 // wall time of the measurement
}

// prober runs the two DW probes (App. C.3) for one batch of fixed windows, with the given targets
// and probe noise ([N][K][D] flat), returning the reduced route moments [K][L] of q_tot and
// q_noise. Predictions do not depend on either input.
type prober interface {
	probe(targets, eps []float64) (tot, nz []wiener.Sym2, err error)
}

// GainResponse measures the response of the DW calibration to added noise with f's parameters
// frozen. The batch is one window per unit (at StartFraction of each unit's admissible origins),
// rolled out with the run's geometry g. Its predictions x̂ never change; only the targets do.
// For each ratio ρ, a fresh controller (calib, warm-up 0, every batch a calibration) and a fresh
// sampler run Batches batches; in each, independent Gaussian noise η_k ~ N(0, σ_k² I) with
// σ_k = RMS(b_k)/ρ (RatioRMS) is subtracted from the clean targets, so the residual the probes and
// the sampler see is b + η, and the calibration proceeds exactly as in training: the probes
// differentiate q_tot = ½ mean ‖x̂ − x*‖² and q_noise = mean x̂ᵀε with ε from the sampler's
// committed state, the controller folds the route moments into its EMAs and solves, the sampler
// stages the residuals, and both commit. The first batch only fills the sampler. detach follows
// the run's DetachContext. rep (may be nil) sees one step per batch.
func GainResponse(bk compute.Backend, f train.Model, units []data.Series, g train.Geometry, detach bool, cfg NoiseConfig, rep progress.Reporter) (*NoiseResponse, error) {
	start := time.Now()
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var picks []train.Pick
	var windows []Example
	for u, s := range units {
		o, err := StartAt(g, s.Len(), cfg.StartFraction)
		if err != nil {
			return nil, fmt.Errorf("appdiag: GainResponse: unit %d: %w", u, err)
		}
		picks = append(picks, train.Pick{Unit: u, Origin: o})
		windows = append(windows, Example{Unit: u, Origin: o})
	}
	if len(picks) == 0 {
		return nil, fmt.Errorf("appdiag: GainResponse: no units")
	}
	b, pr, pred, err := probeBatch(bk, f, units, picks, g, detach)
	if err != nil {
		return nil, err
	}
	rep = progress.OrNop(rep)
	rep.Start(len(cfg.Ratios)*cfg.Batches, "gain response to added noise")
	defer rep.Finish()
	r, err := respond(pr, pred, b.Targets, b.N, b.K, b.D, f.NumLayers(), windows, cfg, rep)
	if r != nil {
		r.Seconds = time.Since(start).Seconds()
	}
	return r, err
}

// respond runs every level of the pipeline with the prober pr, fixed predictions pred and clean
// targets (both [N][K][D]).
func respond(pr prober, pred, target []float64, N, K, D, L int, windows []Example, cfg NoiseConfig, rep progress.Reporter) (*NoiseResponse, error) {
	r := &NoiseResponse{K: K, L: L, Windows: windows, ResidualRMS: make([]float64, K)}
	for k := range K {
		s := 0.0
		for i := range N {
			for d := range D {
				e := pred[(i*K+k)*D+d] - target[(i*K+k)*D+d]
				s += e * e
			}
		}
		r.ResidualRMS[k] = math.Sqrt(s / float64(N*D))
	}
	// The levels are independent (each has its own controller, sampler and random streams), so
	// they run concurrently; the result does not depend on it.
	r.Levels = make([]NoiseLevel, len(cfg.Ratios))
	errs := make([]error, len(cfg.Ratios))
	rep = &lockedReporter{r: rep}
	var wg sync.WaitGroup
	for i, ratio := range cfg.Ratios {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Levels[i], errs[i] = level(pr, pred, target, N, K, D, L, ratio, r.ResidualRMS, cfg, rep)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("appdiag: ratio %v: %w", cfg.Ratios[i], err)
		}
	}
	return r, nil
}

// lockedReporter serialises a Reporter for the concurrent levels.
type lockedReporter struct {
	mu sync.Mutex
	r  progress.Reporter
}

func (l *lockedReporter) Start(total int, label string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.r.Start(total, label)
}

func (l *lockedReporter) Step(n int, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.r.Step(n, msg)
}

func (l *lockedReporter) Finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.r.Finish()
}

// level runs one added-noise level.
func level(pr prober, pred, target []float64, N, K, D, L int, ratio float64, rms []float64, cfg NoiseConfig, rep progress.Reporter) (NoiseLevel, error) {
	lv := NoiseLevel{Ratio: ratio, Sigma: make([]float64, K)}
	for k := range K {
		if cfg.RatioKind == RatioVariance {
			lv.Sigma[k] = rms[k] / math.Sqrt(ratio)
		} else {
			lv.Sigma[k] = rms[k] / ratio
		}
	}
	sampler, err := noise.New(cfg.Sampler, cfg.SamplerConfig)
	if err != nil {
		return lv, err
	}
	cc := calib.Config{K: K, L: L, Warmup: 0, Period: 1, RouteEMA: cfg.RouteEMA}
	ctrl, err := calib.New(cc, sampler)
	if err != nil {
		return lv, err
	}
	// The same streams at every level: the levels differ by the scale of the same draws.
	etaRNG := rand.New(rand.NewPCG(cfg.Seed, streamNoise))
	signRNG := rand.New(rand.NewPCG(cfg.Seed, streamProbeSign))
	noisy := make([]float64, len(target))
	resid := make([]float64, len(target))
	for it := range cfg.Batches {
		for i := range N {
			for k := range K {
				for d := range D {
					j := (i*K+k)*D + d
					noisy[j] = target[j] - lv.Sigma[k]*etaRNG.NormFloat64()
					resid[j] = noisy[j] - pred[j] // e = x* − x̂ = −(b + η)
				}
			}
		}
		ready := sampler.Ready(K)
		if slices.Contains(ready, true) {
			eps, err := sampler.Sample(signRNG, N, K, D)
			if err != nil {
				return lv, err
			}
			tot, nz, err := pr.probe(noisy, eps)
			if err != nil {
				return lv, err
			}
			if err := ctrl.Stage(tot, nz, ready); err != nil {
				return lv, err
			}
			lv.Calibrations++
		} else {
			lv.Skipped++
		}
		if err := sampler.Stage(resid, N, K, D); err != nil {
			return lv, err
		}
		ctrl.Commit()
		a, m := MeanGains(ctrl.Gains())
		lv.TraceAlpha, lv.TraceM = append(lv.TraceAlpha, a), append(lv.TraceM, m)
		rep.Step(1, fmt.Sprintf("ratio %g, batch %d/%d: mean α %.3f, m %.3f", ratio, it+1, cfg.Batches, a, m))
	}
	lv.Gains = ctrl.Gains()
	lv.MeanAlpha, lv.MeanM = MeanGains(lv.Gains)
	n := 0
	for k := range K {
		for l := range L {
			rt := ctrl.Route(k, l)
			if t := rt.T.II + rt.T.JJ; t > 0 {
				lv.NoiseShare += (rt.R.II + rt.R.JJ) / t
				n++
			}
		}
	}
	if n > 0 {
		lv.NoiseShare /= float64(n)
	}
	return lv, nil
}

// TailSD returns the standard deviations of the mean gains α and m over the last half of the
// batches (TraceAlpha, TraceM): how much the reported end values would move had the run stopped at
// another batch once converged. It is 0 for fewer than 4 batches.
func (lv NoiseLevel) TailSD() (alpha, m float64) {
	sd := func(xs []float64) float64 {
		if len(xs) < 4 {
			return 0
		}
		xs = xs[len(xs)/2:]
		mean, ss := 0.0, 0.0
		for _, x := range xs {
			mean += x / float64(len(xs))
		}
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		return math.Sqrt(ss / float64(len(xs)-1))
	}
	return sd(lv.TraceAlpha), sd(lv.TraceM)
}

// TailMean returns the means of the mean gains α and m over the last half of the batches: the
// converged value with the batch-to-batch wander averaged out (the authors report the last batch's
// gains instead, MeanAlpha and MeanM). It is the last value for fewer than 4 batches, and
// (MeanAlpha, MeanM) without a trace.
func (lv NoiseLevel) TailMean() (alpha, m float64) {
	if len(lv.TraceAlpha) == 0 || len(lv.TraceM) == 0 {
		return lv.MeanAlpha, lv.MeanM
	}
	mean := func(xs []float64) float64 {
		if len(xs) >= 4 {
			xs = xs[len(xs)/2:]
		} else {
			xs = xs[len(xs)-1:]
		}
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	return mean(lv.TraceAlpha), mean(lv.TraceM)
}

// WithTailMeans returns copies of levels whose MeanAlpha and MeanM are their TailMean, e.g. to
// apply BothFall or Describe to the converged averages instead of the last batch.
func WithTailMeans(levels []NoiseLevel) []NoiseLevel {
	out := slices.Clone(levels)
	for i := range out {
		out[i].MeanAlpha, out[i].MeanM = out[i].TailMean()
	}
	return out
}

// MeanGains returns the means of α and m over gains laid out [K][L][2] (calib.Controller.Gains).
func MeanGains(g []float64) (alpha, m float64) {
	for i := 0; i < len(g); i += 2 {
		alpha += g[i]
		m += g[i+1]
	}
	n := float64(len(g) / 2)
	return alpha / n, m / n
}

// BothFall reports whether both mean gains fall strictly from each level to the next (levels in
// the order of falling ratio ρ, i.e. growing noise, as DefaultRatios): the paper's claim.
func BothFall(levels []NoiseLevel) bool {
	if len(levels) < 2 {
		return false
	}
	for i := 1; i < len(levels); i++ {
		if !(levels[i].Ratio < levels[i-1].Ratio && levels[i].MeanAlpha < levels[i-1].MeanAlpha && levels[i].MeanM < levels[i-1].MeanM) {
			return false
		}
	}
	return true
}

// Describe says in words how the mean gains move from level to level (levels in the order of
// falling ratio): "both fall", or which gain rises or stays where.
func Describe(levels []NoiseLevel) string {
	if BothFall(levels) {
		return "both fall"
	}
	var notes []string
	for i := 1; i < len(levels); i++ {
		a, b := levels[i-1], levels[i]
		step := fmt.Sprintf("ρ %g→%g", a.Ratio, b.Ratio)
		for _, g := range []struct {
			name     string
			from, to float64
		}{{"α", a.MeanAlpha, b.MeanAlpha}, {"m", a.MeanM, b.MeanM}} {
			switch {
			case g.to > g.from:
				notes = append(notes, fmt.Sprintf("%s rises at %s", g.name, step))
			case g.to == g.from:
				notes = append(notes, fmt.Sprintf("%s stays at %.3g at %s", g.name, g.to, step))
			}
		}
	}
	return "not both falling: " + strings.Join(notes, "; ")
}

// LayerMeans returns the layer means of α and m per forecast step of gains laid out [K][L][2].
func LayerMeans(g []float64, K, L int) (alpha, m []float64) {
	alpha, m = make([]float64, K), make([]float64, K)
	for k := range K {
		for l := range L {
			alpha[k] += g[2*(k*L+l)] / float64(L)
			m[k] += g[2*(k*L+l)+1] / float64(L)
		}
	}
	return alpha, m
}

// graphProber runs the probes through the model's routed rollout graph.
type graphProber struct {
	f    train.Model
	b    *train.Batch
	dt   dtypes.DType
	exec *mlmodel.Exec
	L    int
}

// probeBatch builds the batch of picks, its probe graph and the frozen predictions ([N][K][D]).
func probeBatch(bk compute.Backend, f train.Model, units []data.Series, picks []train.Pick, g train.Geometry, detach bool) (*train.Batch, *graphProber, []float64, error) {
	b, err := train.ModelBatch(f, units, picks, g) // shifted as training shifted it (model.Spec.Shift)
	if err != nil {
		return nil, nil, nil, err
	}
	pr, err := newGraphProber(bk, f, b, detach)
	if err != nil {
		return nil, nil, nil, err
	}
	pred, err := pr.predictions()
	if err != nil {
		return nil, nil, nil, err
	}
	return b, pr, pred, nil
}

func newGraphProber(bk compute.Backend, f train.Model, b *train.Batch, detach bool) (*graphProber, error) {
	K, L := b.K, f.NumLayers()
	p := &graphProber{f: f, b: b, dt: f.Spec().DType}
	exec, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, in []*Node) []*Node {
		hist, target, eps, gains := in[0], in[1], in[2], in[3]
		var drive *Node
		if len(in) > 4 {
			drive = in[4]
		}
		router := route.NewRouter(gains)
		ro := f.Rollout(router, model.Inputs{History: hist, Drive: drive}, K, model.RolloutOptions{DetachContext: detach})
		pred := Stack(ro.Preds, 1)
		n, kk := float64(b.N), float64(K)
		e := Sub(pred, target)
		qTot := MulScalar(ReduceAllSum(Mul(e, e)), 0.5/(n*kk))
		qNoise := MulScalar(ReduceAllSum(Mul(pred, eps)), 1/(n*kk))
		return []*Node{ConvertDType(pred, dtypes.Float64), router.ProbeMoments(qTot), router.ProbeMoments(qNoise)}
	})
	if err != nil {
		return nil, err
	}
	p.exec, p.L = exec, L
	return p, nil
}

// call runs the graph with the given targets and noise. It builds its own input tensors, so
// concurrent calls share nothing but the compiled graph and the (read-only) parameters.
func (p *graphProber) call(targets, eps []float64) (pred []float64, tot, nz []wiener.Sym2, err error) {
	b := p.b
	ones := make([]float64, b.K*p.L*2)
	for i := range ones {
		ones[i] = 1
	}
	args := []any{train.ToTensor(p.dt, b.History, b.N, b.Window, b.D), train.ToTensor(p.dt, targets, b.N, b.K, b.D),
		train.ToTensor(p.dt, eps, b.N, b.K, b.D), train.ToTensor(p.dt, ones, b.K, p.L, 2)}
	if b.J > 0 {
		args = append(args, train.ToTensor(p.dt, b.Drive, b.N, b.Window-1+b.K, b.J))
	}
	outs, err := p.exec.Call(args...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("appdiag: probe graph: %w", err)
	}
	defer func() {
		for _, o := range outs {
			o.FinalizeAll()
		}
	}()
	return tensors.MustCopyFlatData[float64](outs[0]), sym2s(tensors.MustCopyFlatData[float64](outs[1])),
		sym2s(tensors.MustCopyFlatData[float64](outs[2])), nil
}

func (p *graphProber) predictions() ([]float64, error) {
	pred, _, _, err := p.call(p.b.Targets, make([]float64, len(p.b.Targets)))
	return pred, err
}

func (p *graphProber) probe(targets, eps []float64) (tot, nz []wiener.Sym2, err error) {
	_, tot, nz, err = p.call(targets, eps)
	return tot, nz, err
}

// sym2s converts [n][3] flat moments (II, IJ, JJ) to Sym2s.
func sym2s(flat []float64) []wiener.Sym2 {
	out := make([]wiener.Sym2, len(flat)/3)
	for i := range out {
		out[i] = wiener.Sym2{II: flat[3*i], IJ: flat[3*i+1], JJ: flat[3*i+2]}
	}
	return out
}

package appdiag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// linearRoutes is a prober whose route messages are linear and local in the probe's covector:
// at step k and layer l, d_I = c_k and d_F = M_l c_k for each window, where c_k = ∂q/∂x̂_k
// ((x̂ − x*)/(N·K) for q_tot, ε/(N·K) for q_noise). Its route moments in expectation over the
// added noise are known in closed form (expected).
type linearRoutes struct {
	N, K, D, L int
	pred       []float64
	M          [][]float64 // [L][D·D]
}

func (p *linearRoutes) moments(cov []float64) []wiener.Sym2 {
	out := make([]wiener.Sym2, p.K*p.L)
	for k := range p.K {
		for l := range p.L {
			var s wiener.Sym2
			for i := range p.N {
				c := cov[(i*p.K+k)*p.D : (i*p.K+k+1)*p.D]
				f := p.apply(l, c)
				for d := range p.D {
					s.II += c[d] * c[d]
					s.IJ += c[d] * f[d]
					s.JJ += f[d] * f[d]
				}
			}
			out[k*p.L+l] = s.Scale(1 / float64(p.D))
		}
	}
	return out
}

func (p *linearRoutes) apply(l int, c []float64) []float64 {
	out := make([]float64, p.D)
	for r := range p.D {
		for j := range p.D {
			out[r] += p.M[l][r*p.D+j] * c[j]
		}
	}
	return out
}

func (p *linearRoutes) probe(targets, eps []float64) (tot, nz []wiener.Sym2, err error) {
	s := 1 / float64(p.N*p.K)
	ct, cn := make([]float64, len(targets)), make([]float64, len(eps))
	for j := range targets {
		ct[j] = (p.pred[j] - targets[j]) * s
		cn[j] = eps[j] * s
	}
	return p.moments(ct), p.moments(cn), nil
}

// quad returns (1/D)·(vᵀv, vᵀM_l v, (M_l v)ᵀ(M_l v)) and the same traces (1/D)·tr(Q).
func (p *linearRoutes) quad(l int, v []float64) wiener.Sym2 {
	f := p.apply(l, v)
	var s wiener.Sym2
	for d := range p.D {
		s.II += v[d] * v[d]
		s.IJ += v[d] * f[d]
		s.JJ += f[d] * f[d]
	}
	return s.Scale(1 / float64(p.D))
}

func (p *linearRoutes) traces(l int) wiener.Sym2 {
	var s wiener.Sym2
	for j := range p.D {
		e := make([]float64, p.D)
		e[j] = 1
		s = s.Add(p.quad(l, e))
	}
	return s
}

// expected returns the route moments T and R in expectation at noise σ_k, given the clean
// residuals b (x̂ − x*): T = c²·Σ_i [q(b_ik) + σ_k² tr], and, since DW-Generic's probe noise is
// ±(template − mean) with the template the first window's lagged residual b_0 + η and the mean
// converging to the window mean b̄, R = c²·N·[q(b_0k − b̄_k) + σ_k² tr], with c = 1/(N·K).
func (p *linearRoutes) expected(b []float64, sigma []float64) (T, R []wiener.Sym2) {
	c2 := 1 / float64(p.N*p.K*p.N*p.K)
	T, R = make([]wiener.Sym2, p.K*p.L), make([]wiener.Sym2, p.K*p.L)
	for k := range p.K {
		mean := make([]float64, p.D)
		for i := range p.N {
			for d := range p.D {
				mean[d] += b[(i*p.K+k)*p.D+d] / float64(p.N)
			}
		}
		dev := make([]float64, p.D)
		for d := range p.D {
			dev[d] = b[k*p.D+d] - mean[d]
		}
		for l := range p.L {
			tr := p.traces(l).Scale(sigma[k] * sigma[k])
			var t wiener.Sym2
			for i := range p.N {
				t = t.Add(p.quad(l, b[(i*p.K+k)*p.D:(i*p.K+k+1)*p.D]))
			}
			T[k*p.L+l] = t.Add(tr.Scale(float64(p.N))).Scale(c2)
			R[k*p.L+l] = p.quad(l, dev).Add(tr).Scale(float64(p.N) * c2)
		}
	}
	return T, R
}

// TestGainsFollowKnownMoments runs the added-noise pipeline (sampler, controller, solve) on
// linearRoutes, whose moments are known: at each ratio the calibrated gains must match the Wiener
// solution of the expected moments, and both mean gains must fall as the ratio falls (as R grows
// with σ² while P = T − R stays put).
func TestGainsFollowKnownMoments(t *testing.T) {
	const N, K, D, L = 8, 3, 12, 2
	rng := rand.New(rand.NewPCG(5, 5))
	p := &linearRoutes{N: N, K: K, D: D, L: L, pred: make([]float64, N*K*D), M: make([][]float64, L)}
	for l := range L {
		p.M[l] = make([]float64, D*D)
		for j := range p.M[l] {
			p.M[l][j] = rng.NormFloat64() / math.Sqrt(D)
		}
	}
	target := make([]float64, N*K*D)
	shared := make([]float64, K*D) // residuals = a shared pattern plus a smaller per-window part
	for j := range shared {
		shared[j] = rng.NormFloat64()
	}
	for i := range N {
		for j := range K * D {
			p.pred[i*K*D+j] = rng.NormFloat64()
			target[i*K*D+j] = p.pred[i*K*D+j] - shared[j] - 0.3*rng.NormFloat64()
		}
	}
	cfg := NoiseConfig{Batches: 480, Seed: 3}.Defaults()
	r, err := respond(p, p.pred, target, N, K, D, L, nil, cfg, progress.Nop())
	if err != nil {
		t.Fatal(err)
	}
	b := make([]float64, len(target))
	for j := range b {
		b[j] = p.pred[j] - target[j]
	}
	for i, lv := range r.Levels {
		if lv.Skipped != 1 || lv.Calibrations != cfg.Batches-1 {
			t.Errorf("ratio %v: %d skipped, %d calibrations", lv.Ratio, lv.Skipped, lv.Calibrations)
		}
		for k := range K {
			if want := r.ResidualRMS[k] / lv.Ratio; math.Abs(lv.Sigma[k]-want) > 1e-15 {
				t.Errorf("ratio %v: σ_%d = %v, want RMS(b_k)/ρ = %v", lv.Ratio, k+1, lv.Sigma[k], want)
			}
		}
		T, R := p.expected(b, lv.Sigma)
		var ea, em float64
		for j := range T {
			w, _ := wiener.Solve(T[j], R[j])
			ea, em = ea+w[0]/float64(len(T)), em+w[1]/float64(len(T))
		}
		t.Logf("ratio %v: mean α %.3f (expected moments %.3f), mean m %.3f (%.3f), tr R/tr T %.2f", lv.Ratio, lv.MeanAlpha, ea, lv.MeanM, em, lv.NoiseShare)
		if math.Abs(lv.MeanAlpha-ea) > 0.05 || math.Abs(lv.MeanM-em) > 0.05 {
			t.Errorf("ratio %v: gains (%.3f, %.3f), the expected moments give (%.3f, %.3f)", lv.Ratio, lv.MeanAlpha, lv.MeanM, ea, em)
		}
		if i > 0 {
			prev := r.Levels[i-1]
			if !(lv.MeanAlpha < prev.MeanAlpha && lv.MeanM < prev.MeanM) {
				t.Errorf("ratio %v → %v: α %.3f → %.3f, m %.3f → %.3f; both must fall", prev.Ratio, lv.Ratio, prev.MeanAlpha, lv.MeanAlpha, prev.MeanM, lv.MeanM)
			}
		}
	}
	if !BothFall(r.Levels) {
		t.Error("BothFall is false")
	}
}

func TestBothFallAndMeans(t *testing.T) {
	lv := func(r, a, m float64) NoiseLevel { return NoiseLevel{Ratio: r, MeanAlpha: a, MeanM: m} }
	if !BothFall([]NoiseLevel{lv(4, .9, .8), lv(1, .5, .4), lv(.25, .1, .05)}) {
		t.Error("falling gains not recognised")
	}
	for _, c := range [][]NoiseLevel{
		{lv(4, .9, .8), lv(1, .5, .8)},  // m flat
		{lv(4, .9, .8), lv(1, .95, .4)}, // α rises
		{lv(1, .9, .8), lv(4, .5, .4)},  // ratios not falling
		{lv(4, .9, .8)},
	} {
		if BothFall(c) {
			t.Errorf("%+v counted as falling", c)
		}
	}
	if d := Describe([]NoiseLevel{lv(4, .9, .8), lv(1, .5, .4), lv(.25, .1, .05)}); d != "both fall" {
		t.Errorf("Describe = %q", d)
	}
	if d := Describe([]NoiseLevel{lv(4, .9, 0), lv(1, .95, 0)}); d != "not both falling: α rises at ρ 4→1; m stays at 0 at ρ 4→1" {
		t.Errorf("Describe = %q", d)
	}
	tr := NoiseLevel{TraceAlpha: []float64{9, 9, 1, 3}, TraceM: []float64{0, 0, 2, 2}}
	if a, m := tr.TailSD(); math.Abs(a-math.Sqrt2) > 1e-15 || m != 0 {
		t.Errorf("TailSD = %v, %v; want √2 (sd of 1, 3) and 0", a, m)
	}
	if a, m := tr.TailMean(); a != 2 || m != 2 {
		t.Errorf("TailMean = %v, %v; want 2, 2", a, m)
	}
	if a, _ := (NoiseLevel{TraceAlpha: []float64{5, 7}, TraceM: []float64{1, 1}}).TailMean(); a != 7 {
		t.Errorf("TailMean of two batches = %v, want the last, 7", a)
	}
	tl := WithTailMeans([]NoiseLevel{lv(4, .1, .1), {Ratio: 1, TraceAlpha: []float64{1, 1, .5, .3}, TraceM: []float64{0, 0, .2, .2}}})
	if tl[0].MeanAlpha != .1 || math.Abs(tl[1].MeanAlpha-.4) > 1e-15 || tl[1].MeanM != .2 {
		t.Errorf("WithTailMeans = %+v", tl)
	}
	a, m := MeanGains([]float64{1, 0, 0.5, 0.5, 0, 1})
	if a != 0.5 || m != 0.5 {
		t.Errorf("MeanGains = %v, %v", a, m)
	}
	la, lm := LayerMeans([]float64{1, 0, 0.5, 0.5, 0, 1, 1, 1}, 2, 2)
	if !slices.Equal(la, []float64{0.75, 0.5}) || !slices.Equal(lm, []float64{0.25, 1}) {
		t.Errorf("LayerMeans = %v, %v", la, lm)
	}
}

func TestNoiseRatioKinds(t *testing.T) {
	p := &linearRoutes{N: 2, K: 2, D: 1, L: 1, pred: []float64{1, 2, 3, 4}, M: [][]float64{{0.5}}}
	target := []float64{0, 0, 3, 4} // b: step 1 (1, 0), step 2 (2, 0): RMS 1/√2, √2
	for _, kind := range []string{RatioRMS, RatioVariance} {
		cfg := NoiseConfig{Ratios: []float64{4}, RatioKind: kind, Batches: 3}.Defaults()
		r, err := respond(p, p.pred, target, 2, 2, 1, 1, nil, cfg, progress.Nop())
		if err != nil {
			t.Fatal(err)
		}
		div := 4.0
		if kind == RatioVariance {
			div = 2
		}
		if s := r.Levels[0].Sigma; math.Abs(s[0]-math.Sqrt(0.5)/div) > 1e-15 || math.Abs(s[1]-math.Sqrt(2)/div) > 1e-15 {
			t.Errorf("%s: σ = %v", kind, s)
		}
	}
	for _, bad := range []NoiseConfig{{Ratios: []float64{0}}, {RatioKind: "power"}, {Batches: 1}, {StartFraction: 2}} {
		if err := bad.Defaults().Validate(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestGainResponseGraph runs the pipeline through the real probe graph of a small forecaster:
// the graph's predictions must equal the forecaster's rollout, the probe moments be finite, and
// the gains land in [0, 1].
func TestGainResponseGraph(t *testing.T) {
	f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 6, Layers: 2, SSMState: 2, ConvWidth: 2,
		Window: 3, DType: dtypes.Float32, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	units := make([]data.Series, 4)
	for i := range units {
		x, d := make([][]float64, 24), make([][]float64, 24)
		for t := range x {
			x[t] = []float64{rng.NormFloat64(), rng.NormFloat64()}
			d[t] = []float64{rng.NormFloat64()}
		}
		units[i] = data.Series{X: x, Drive: d}
	}
	g := train.Geometry{Window: 3, K: 5}
	bk := testBackend(t)
	r, err := GainResponse(bk, f, units, g, false, NoiseConfig{Batches: 12, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Windows) != 4 || r.Windows[0].Origin != 2 || r.K != 5 || r.L != 2 || len(r.Levels) != 3 {
		t.Fatalf("response %+v", r)
	}
	// The levels run concurrently; the numbers must not depend on it.
	again, err := GainResponse(bk, f, units, g, false, NoiseConfig{Batches: 12, Seed: 1, Ratios: []float64{1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Levels[0].Gains, r.Levels[1].Gains) || !slices.Equal(again.Levels[0].TraceM, r.Levels[1].TraceM) {
		t.Errorf("ratio 1 alone gives gains %v, beside the other levels %v", again.Levels[0].Gains, r.Levels[1].Gains)
	}
	picks := []train.Pick{}
	for _, w := range r.Windows {
		picks = append(picks, train.Pick{Unit: w.Unit, Origin: w.Origin})
	}
	b, _ := train.MakeBatch(units, picks, g)
	gp, err := newGraphProber(bk, f, b, false)
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := gp.predictions()
	plain, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, in []*Node) *Node {
		return Stack(f.Rollout(nil, model.Inputs{History: in[0], Drive: in[1]}, 5, model.RolloutOptions{}).Preds, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	out := plain.MustCall(train.ToTensor(dtypes.Float32, b.History, 4, 3, 2), train.ToTensor(dtypes.Float32, b.Drive, 4, 7, 1))
	if want := train.FromTensor(out[0]); !slices.Equal(pred, want) {
		t.Errorf("probe graph predictions %v, plain rollout %v", pred, want)
	}
	for k := range 5 {
		s := 0.0
		for i := range 4 {
			for d := range 2 {
				e := pred[(i*5+k)*2+d] - b.Targets[(i*5+k)*2+d]
				s += e * e
			}
		}
		if want := math.Sqrt(s / 8); math.Abs(r.ResidualRMS[k]-want) > 1e-12 {
			t.Errorf("RMS(b_%d) = %v, want %v", k+1, r.ResidualRMS[k], want)
		}
	}
	for _, lv := range r.Levels {
		for _, v := range lv.Gains {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("ratio %v: gain %v outside [0, 1]", lv.Ratio, v)
			}
		}
		if lv.Calibrations != 11 || len(lv.TraceAlpha) != 12 || len(lv.Gains) != 5*2*2 {
			t.Errorf("ratio %v: %d calibrations, %d trace entries, %d gains", lv.Ratio, lv.Calibrations, len(lv.TraceAlpha), len(lv.Gains))
		}
		t.Logf("ratio %v: α %.3f, m %.3f", lv.Ratio, lv.MeanAlpha, lv.MeanM)
	}
}

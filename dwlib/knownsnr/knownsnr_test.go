package knownsnr

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/internal/modeltest"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/train"
	"github.com/internal-dw/dwgo/dwlib/wiener"
)

func tinyData(t *testing.T) *data.Dataset {
	t.Helper()
	ds, err := data.Load("known-snr", data.Options{NumTraj: 12, Length: 48, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// tinyModel is a float64 Mamba perturbed away from its near-persistence initialisation, so every
// parameter has a visible gradient.
func tinyModel(t *testing.T) *model.Forecaster {
	return modeltest.Perturbed(t, model.Config{Kind: "mamba", StateDim: 8, Hidden: 6, Layers: 2, SSMState: 3, ConvWidth: 2, Window: 3, BurnIn: 1, Seed: 3}, 0.2, 9)
}

func TestStartsAndDrawsFollowTheProcess(t *testing.T) {
	ds := tinyData(t)
	g := train.Geometry{Window: 3, K: 4, BurnIn: 1}
	picks := []train.Pick{{Unit: 0, Origin: 10}, {Unit: 1, Origin: 20}}
	st, err := NewStarts(ds.Test, picks, g, ds.Norm.State)
	if err != nil {
		t.Fatal(err)
	}
	proc := data.KnownSNR()
	norm := ds.Norm.State
	for i, p := range picks {
		raw := norm.Invert(ds.Test[p.Unit].X[p.Origin])
		for k := 1; k <= 4; k++ {
			for d := range 8 {
				want := (math.Pow(proc.Coef[d], float64(k))*raw[d] - norm.Mean[d]) / norm.Std[d]
				if got := st.Mean[(i*4+k-1)*8+d]; math.Abs(got-want) > 1e-12 {
					t.Fatalf("start %d k=%d d=%d: mean %v, want A^k x_t normalised = %v", i, k, d, got, want)
				}
			}
		}
	}
	// Draws: the sample mean is the conditional mean and the sample covariance across horizons is
	// a^{|i-j|}(1 - a^{2 min(i,j)}) (raw coordinates), within sampling error.
	const B = 20000
	draws := st.Draws(B, 4)
	for _, d := range []int{0, 3, 4} {
		a, s := proc.Coef[d], norm.Std[d]
		for _, hij := range [][2]int{{1, 1}, {2, 4}, {4, 4}} {
			hi, hj := hij[0], hij[1]
			var mi, mj, cij float64
			for b := range B {
				xi := draws[b][(hi-1)*8+d] - st.Mean[(hi-1)*8+d]
				xj := draws[b][(hj-1)*8+d] - st.Mean[(hj-1)*8+d]
				mi, mj, cij = mi+xi, mj+xj, cij+xi*xj
			}
			mi, cij = mi/B, (cij-mi*mj/B)/B*s*s
			want := conditionalCov(a, hi, hj)
			if tol := 5 * math.Sqrt((conditionalCov(a, hi, hi)*conditionalCov(a, hj, hj)+want*want)/B); math.Abs(cij-want) > tol {
				t.Errorf("coordinate %d (a=%v), horizons %d,%d: covariance %.4f, want %.4f", d, a, hi, hj, cij, want)
			}
			if sd := math.Sqrt(conditionalCov(a, hi, hi)) / s; math.Abs(mi) > 5*sd/math.Sqrt(B) {
				t.Errorf("coordinate %d horizon %d: draw mean off the conditional mean by %.4g (sd %.4g)", d, hi, mi, sd)
			}
		}
	}
}

// TestParamVJPMatchesFiniteDifferences checks the flattened parameter gradient of ⟨c, x̂⟩ against
// central differences in float64.
func TestParamVJPMatchesFiniteDifferences(t *testing.T) {
	ds := tinyData(t)
	f := tinyModel(t)
	bk := backend.MustShared()
	const N, K = 2, 3
	g := train.Geometry{Window: 3, K: K, BurnIn: 1}
	st, err := NewStarts(ds.Test, []train.Pick{{Unit: 0, Origin: 7}, {Unit: 1, Origin: 12}}, g, ds.Norm.State)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cot := make([]float64, N*K*8)
	for i := range cot {
		cot[i] = rng.NormFloat64()
	}
	v, err := newParamVJP(bk, f, N, K)
	if err != nil {
		t.Fatal(err)
	}
	grad, err := v.apply(st.History, cot)
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := train.NewPredictor(bk, f, N)
	objective := func() float64 {
		x, err := forecast(pred, st)
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for i := range x {
			s += cot[i] * x[i]
		}
		return s
	}
	off, checked := 0, 0
	for vr := range f.Store().IterVariables() {
		if !vr.Trainable {
			continue
		}
		vals := tensors.MustCopyFlatData[float64](vr.MustValue())
		for _, j := range []int{0, len(vals) / 2, len(vals) - 1} {
			orig := vals[j]
			const h = 1e-6
			set := func(x float64) {
				vals[j] = x
				if err := vr.SetValue(tensors.FromFlatDataAndDimensions(append([]float64(nil), vals...), vr.Shape().Dimensions...)); err != nil {
					t.Fatal(err)
				}
			}
			set(orig + h)
			up := objective()
			set(orig - h)
			down := objective()
			set(orig)
			fd := (up - down) / (2 * h)
			if got := grad[off+j]; math.Abs(got-fd) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("%s[%d]: gradient %.10g, finite differences %.10g", vr.Path(), j, got, fd)
			}
			checked++
		}
		off += len(vals)
	}
	if off != v.P || checked < 30 {
		t.Fatalf("checked %d coordinates over %d parameters (VJP reports %d)", checked, off, v.P)
	}
}

// TestGradientSplitIsTheHorizonLossGradient recomputes one replicate the slow way: the gradient of
// the actual horizon loss (1/N)Σ_i K⁻¹‖x̂_{i,k} − x_{i,k}‖² for the conditional mean and for every
// draw, then eval.DecomposePrefixRisk, and compares.
func TestGradientSplitIsTheHorizonLossGradient(t *testing.T) {
	ds := tinyData(t)
	f := tinyModel(t)
	bk := backend.MustShared()
	const N, K = 2, 4
	cfg := SplitConfig{Trajectories: N, Draws: 3, Replicates: 1, Seed: 5}
	got, err := GradientSplit(bk, f, ds.Test, ds.Norm.State, K, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := train.Geometry{Window: 3, K: K, BurnIn: 1}
	picks, _ := RandomPicks(ds.Test, N, g, rand.New(rand.NewPCG(cfg.Seed, 0)))
	st, _ := NewStarts(ds.Test, picks, g, ds.Norm.State)
	lossGrad, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, hist, target, mask *Node) *Node {
		pred := Stack(f.Rollout(nil, model.Inputs{History: hist}, K, model.RolloutOptions{}).Preds, 1)
		e := Sub(pred, target)
		sq := ReduceSum(Mul(e, e), -1) // [N, K]
		loss := DivScalar(ReduceAllSum(Mul(sq, mask)), float64(N*K))
		var flat []*Node
		for _, gr := range scope.BuildTrainableVariablesGradientsGraph(loss) {
			flat = append(flat, Reshape(gr, -1))
		}
		return Concatenate(flat, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	grad := func(target []float64, k int) []float64 {
		mask := make([]float64, N*K)
		for i := range N {
			mask[i*K+k] = 1
		}
		out, err := lossGrad.Call(tensors.FromFlatDataAndDimensions(st.History, N, 3, 8),
			tensors.FromFlatDataAndDimensions(target, N, K, 8), tensors.FromFlatDataAndDimensions(mask, N, K))
		if err != nil {
			t.Fatal(err)
		}
		return tensors.MustCopyFlatData[float64](out[0])
	}
	signal := make([][]float64, K)
	noise := make([][][]float64, K)
	draws := st.Draws(cfg.Draws, cfg.Seed*1_000_033)
	for k := range K {
		signal[k] = grad(st.Mean, k)
		for _, x := range draws {
			gk := grad(x, k)
			for p := range gk {
				gk[p] -= signal[k][p]
			}
			noise[k] = append(noise[k], gk)
		}
	}
	want, err := eval.DecomposePrefixRisk(signal, noise)
	if err != nil {
		t.Fatal(err)
	}
	r := got.Replicates[0]
	for _, c := range []struct {
		name string
		a, b []float64
	}{{"Bias", r.Bias, want.Bias}, {"Innovation", r.Innovation, want.Innovation}, {"SNR", r.SNR, want.SNR},
		{"RMS", r.RMS, want.RMS}, {"NoiseFraction", r.NoiseFraction, want.NoiseFraction}, {"Direct", r.Direct, want.Direct}} {
		for k := range K {
			if math.Abs(c.a[k]-c.b[k]) > 1e-9*(1+math.Abs(c.b[k])) {
				t.Errorf("%s[k=%d] = %.12g, direct computation %.12g", c.name, k+1, c.a[k], c.b[k])
			}
		}
	}
	if r.Bias[K-1] != 0 || !(r.Innovation[0] > 0) || !(r.Bias[0] > 0) {
		t.Errorf("degenerate split: bias %v innovation %v", r.Bias, r.Innovation)
	}
	if got.KStarGrad != r.KStarGrad || len(got.Total) != K {
		t.Errorf("averages over one replicate differ from the replicate")
	}
}

// TestProbesDecomposeTheTotalMoment: for targets x̄ ± δ (antithetic), the mean of the two total
// moments T equals P + R_δ exactly, where P is the signal probe and R_δ the noise probe with ε = δ:
// the three probes share one scale and one sign convention.
func TestProbesDecomposeTheTotalMoment(t *testing.T) {
	ds := tinyData(t)
	f := tinyModel(t)
	const N, K = 3, 4
	g := train.Geometry{Window: 3, K: K, BurnIn: 1}
	picks, _ := RandomPicks(ds.Train, N, g, rand.New(rand.NewPCG(2, 2)))
	st, _ := NewStarts(ds.Train, picks, g, ds.Norm.State)
	p, err := newProbeExec(backend.MustShared(), f, N, K)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	delta := make([]float64, len(st.Mean))
	for i := range delta {
		delta[i] = rng.NormFloat64()
	}
	run := func(sign float64) *probeOut {
		c := *st
		c.Targets = make([]float64, len(st.Mean))
		for i := range c.Targets {
			c.Targets[i] = st.Mean[i] + sign*delta[i]
		}
		out, err := p.run(&c, delta)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	plus, minus := run(1), run(-1)
	for i := range plus.T {
		mean := plus.T[i].Add(minus.T[i]).Scale(0.5)
		want := plus.P[i].Add(plus.R[i])
		for _, d := range [][2]float64{{mean.II, want.II}, {mean.IJ, want.IJ}, {mean.JJ, want.JJ}} {
			if math.Abs(d[0]-d[1]) > 1e-10*(1+math.Abs(d[1])) {
				t.Fatalf("merge %d: (T₊ + T₋)/2 = %+v, P + R = %+v", i, mean, want)
			}
		}
		if !(plus.P[i].II > 0 && plus.R[i].JJ > 0) {
			t.Fatalf("merge %d: degenerate moments P %+v R %+v", i, plus.P[i], plus.R[i])
		}
	}
	// The draw executable averages the noise probe over stacked draws.
	d, err := newDrawExec(backend.MustShared(), f, N, 2, K)
	if err != nil {
		t.Fatal(err)
	}
	draws := st.Draws(2, 7)
	got, err := d.run(st, draws)
	if err != nil {
		t.Fatal(err)
	}
	var want []wiener.Sym2
	for _, x := range draws {
		eps := make([]float64, len(x))
		for i := range eps {
			eps[i] = st.Mean[i] - x[i]
		}
		out, err := p.run(st, eps)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range out.R {
			if want == nil || len(want) <= i {
				want = append(want, wiener.Sym2{})
			}
			want[i] = want[i].Add(r.Scale(0.5))
		}
	}
	for i := range got {
		if math.Abs(got[i].II-want[i].II) > 1e-10*(1+want[i].II) || math.Abs(got[i].JJ-want[i].JJ) > 1e-10*(1+want[i].JJ) {
			t.Fatalf("merge %d: stacked draws %+v, one by one %+v", i, got[i], want[i])
		}
	}
}

func TestMisplacedShiftsByHalfTheHorizons(t *testing.T) {
	const K, L = 4, 2
	gains := make([]float64, 2*K*L)
	for i := range gains {
		gains[i] = float64(i)
	}
	for _, tc := range []struct{ k, l, from int }{{0, 0, 2}, {0, 1, 2}, {1, 0, 3}, {2, 1, 0}, {3, 0, 1}} {
		i := tc.from*L + tc.l
		if got := misplaced(gains, tc.k, tc.l, K, L); got != [2]float64{gains[2*i], gains[2*i+1]} {
			t.Errorf("misplaced(k=%d, l=%d) = %v, want the gains of k=%d", tc.k, tc.l, got, tc.from)
		}
	}
}

func TestRouteRiskRuns(t *testing.T) {
	ds := tinyData(t)
	f := tinyModel(t)
	cfg := RiskConfig{Passes: 2, StartsPerUnit: 2, BatchSize: 4, Warmup: 2, Period: 2, OracleDraws: 3, EvalDraws: 2, MaxEval: 3, Seed: 1}
	r, err := RouteRisk(backend.MustShared(), f, ds.Train, ds.Norm.State, 4, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 8 training units × 2 starts / 4 = 4 minibatches per pass, 8 in all, 6 after warm-up, 3 evaluated.
	if r.Evaluated != 3 || r.Ratio[SettingFull] != 1 || r.Calibrations != 3 {
		t.Errorf("evaluated %d, full ratio %v, calibrations %d", r.Evaluated, r.Ratio[SettingFull], r.Calibrations)
	}
	for _, s := range Settings {
		sum := 0.0
		for _, v := range r.PerHorizon[s] {
			sum += v
		}
		if math.Abs(sum-r.Ratio[s]) > 1e-12 || !(r.Ratio[s] > 0) {
			t.Errorf("%s: per-horizon curve sums to %v, ratio %v", s, sum, r.Ratio[s])
		}
	}
}

// TestRouteRiskSamplerAndFirstEvaluation: the sampler field reaches the controller, and scoring
// starts at minibatch Warmup + Period, the first whose DW gains come from a calibration.
func TestRouteRiskSamplerAndFirstEvaluation(t *testing.T) {
	ds := tinyData(t)
	f := tinyModel(t)
	run := func(sampler string, warmup int) (*Risk, error) {
		cfg := RiskConfig{Passes: 2, StartsPerUnit: 1, BatchSize: 2, Warmup: warmup, Period: 2, OracleDraws: 3, EvalDraws: 2, Seed: 1, Sampler: sampler}
		return RouteRisk(backend.MustShared(), f, ds.Train, ds.Norm.State, 4, cfg, nil)
	}
	generic, err := run("", 2)
	if err != nil {
		t.Fatal(err)
	}
	diagonal, err := run(noise.DiagonalName, 2)
	if err != nil {
		t.Fatal(err)
	}
	later, err := run("", 4)
	if err != nil {
		t.Fatal(err)
	}
	// 8 training units × 1 start / 2 = 4 minibatches per pass, 8 in all: scored from minibatch
	// 2 + 2 that is 4, from 4 + 2 it is 2.
	if generic.Evaluated != 4 || diagonal.Evaluated != 4 || later.Evaluated != 2 {
		t.Errorf("evaluated %d, %d and %d minibatches, want 4, 4 and 2", generic.Evaluated, diagonal.Evaluated, later.Evaluated)
	}
	// Every scored minibatch has calibrated gains, so DW's risk is not Full's at any of them.
	for name, r := range map[string]*Risk{"generic": generic, "diagonal": diagonal} {
		if r.Ratio[SettingDW] == 1 {
			t.Errorf("%s: DW's ratio is exactly Full's", name)
		}
	}
	// The sampler drives DW's calibration only: the oracle solves from draws of the true process.
	if generic.Ratio[SettingDW] == diagonal.Ratio[SettingDW] || generic.Ratio[SettingOracle] != diagonal.Ratio[SettingOracle] {
		t.Errorf("samplers: generic %v, diagonal %v; want DW to differ and the oracle not", generic.Ratio, diagonal.Ratio)
	}
	if _, err := run("gaussian", 2); err == nil || !strings.Contains(err.Error(), `"gaussian"`) {
		t.Errorf("unknown sampler: err = %v", err)
	}
	if _, err := run("", 6); err == nil || !strings.Contains(err.Error(), "warm-up and first period (6 + 2)") {
		t.Errorf("no minibatch left to score: err = %v", err)
	}
}

func TestSummarizeRisk(t *testing.T) {
	rs := []*Risk{
		{Ratio: map[string]float64{SettingFull: 1, SettingDW: .5, SettingMisplaced: .7, SettingOracle: .3}},
		{Ratio: map[string]float64{SettingFull: 1, SettingDW: .7, SettingMisplaced: .9, SettingOracle: .4}},
	}
	got := SummarizeRisk(rs)
	if len(got) != 4 || got[1].Setting != SettingDW || math.Abs(got[1].Mean-.6) > 1e-15 || math.Abs(got[1].SD-math.Sqrt(.02)) > 1e-15 {
		t.Errorf("DW: %+v, want mean .6 and sd √.02", got[1])
	}
	if got[0].Mean != 1 || got[0].SD != 0 || got[3].Paper != .35 {
		t.Errorf("full %+v, oracle %+v", got[0], got[3])
	}
}

// conditionalCov is Cov(x_{t+i}, x_{t+j} | x_t) of one coordinate with coefficient a, in raw
// coordinates: a^{|i−j|}(1 − a^{2 min(i,j)}). Used by the tests.
func conditionalCov(a float64, i, j int) float64 {
	lo := min(i, j)
	return math.Pow(a, math.Abs(float64(i-j))) * (1 - math.Pow(a, 2*float64(lo)))
}

func TestGainsByHorizon(t *testing.T) {
	// K = 2 horizons, L = 2 layers, [K][L][2] flat: (α, m) per (k, l).
	r := &Risk{
		PerHorizon:  map[string][]float64{SettingFull: {0.7, 0.3}},
		Gains:       []float64{0.2, 0.4, 0.6, 0.8, 1, 1, 0, 0},
		OracleGains: []float64{0, 0, 0, 0, 0.5, 0.25, 0.5, 0.75},
	}
	dw, oracle, err := r.GainsByHorizon()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []float64
	}{
		{"dw α", dw.Alpha, []float64{0.4, 0.5}},
		{"dw m", dw.M, []float64{0.6, 0.5}},
		{"oracle α", oracle.Alpha, []float64{0, 0.5}},
		{"oracle m", oracle.M, []float64{0, 0.5}},
	} {
		for k := range c.want {
			if math.Abs(c.got[k]-c.want[k]) > 1e-12 {
				t.Errorf("%s at k = %d: got %v, want %v", c.name, k+1, c.got[k], c.want[k])
			}
		}
	}
	if a, m := dw.Mean(1, 2); math.Abs(a-0.45) > 1e-12 || math.Abs(m-0.55) > 1e-12 {
		t.Errorf("Mean(1, 2) = %v, %v; want 0.45, 0.55", a, m)
	}
	if _, err := LayerMeanGains(make([]float64, 6), 2); err == nil {
		t.Error("6 gains accepted as [2][L][2]")
	}
}

// TestProfilesLeaveMinibatchesToScore: every profile's protocol, on the quick profile's data,
// has minibatches after the warm-up and the first period.
func TestProfilesLeaveMinibatchesToScore(t *testing.T) {
	ds := tinyData(t)
	f := tinyModel(t)
	_, text, err := ForProfile("quick")
	if err != nil {
		t.Fatal(err)
	}
	released, err := AuthorsRiskFor("quick")
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]RiskConfig{"text": text, "released": released} {
		r, err := RouteRisk(backend.MustShared(), f, ds.Train, ds.Norm.State, 4, cfg, nil)
		if err != nil || r.Evaluated < 1 {
			t.Errorf("quick %s protocol: %v", name, err)
		}
	}
}

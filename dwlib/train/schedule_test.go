package train

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// appliedLR reads the learning-rate variable GoMLX's Adam took its last step with.
func appliedLR(t *testing.T, tr *Trainer) float64 {
	t.Helper()
	v := tr.model.Store().GetVariable("/" + optimizer.Scope + "/" + optimizer.ParamLearningRate)
	if v == nil {
		t.Fatal("no learning-rate variable in the store")
	}
	x := v.MustValue()
	if x.DType() == dtypes.Float32 {
		return float64(tensors.ToScalar[float32](x))
	}
	return tensors.ToScalar[float64](x)
}

// cosineWant is the paper's schedule, written out independently of Config.ScheduledLR.
func cosineWant(lr, lrMin float64, step, total int) float64 {
	if step >= total {
		return lrMin
	}
	return lrMin + (lr-lrMin)*(1+math.Cos(math.Pi*float64(step)/float64(total)))/2
}

// TestScheduleAppliedLR: the rate Adam actually steps with (its learning-rate variable after
// each optimizer step) at steps 0, T/2, T−1 and T+5 is the cosine formula's (the constant
// schedule's LR throughout), and LearningRate announces it before the step.
func TestScheduleAppliedLR(t *testing.T) {
	const T, lr, lrMin = 10, 3e-3, 1e-4
	batch := benchBatch(4, 3, 4, 3, 9)
	for _, tc := range []struct {
		schedule string
		lrMin    float64
		warmup   float64
		want     func(step int) float64
	}{
		{"cosine", lrMin, 0, func(s int) float64 { return cosineWant(lr, lrMin, s, T) }},
		{"cosine", 0, 0, func(s int) float64 { return cosineWant(lr, 0, s, T) }},
		{"constant", 0, 0, func(int) float64 { return lr }},
		{"", 0, 0, func(int) float64 { return lr }},
		// Warm-up 0.3 of T = 10: 3 steps at lr/3, 2lr/3, lr, then the schedule over the other 7.
		{"cosine", lrMin, 0.3, func(s int) float64 {
			if s < 3 {
				return lr * float64(s+1) / 3
			}
			return cosineWant(lr, lrMin, s-3, T-3)
		}},
		{"constant", 0, 0.3, func(s int) float64 { return lr * float64(min(s+1, 3)) / 3 }},
	} {
		name := tc.schedule
		if name == "" {
			name = "default"
		}
		if tc.lrMin > 0 {
			name += "-min"
		}
		if tc.warmup > 0 {
			name += "-warmup"
		}
		t.Run(name, func(t *testing.T) {
			cfg := Config{Method: "full", K: 4, BatchSize: 4, LR: lr, LRSchedule: tc.schedule, LRMin: tc.lrMin, LRWarmup: tc.warmup, Seed: 3}
			tr, err := NewTrainer(backend.MustShared(), tinyModel(t, "mamba"), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := tr.SetTotalSteps(T); err != nil {
				t.Fatal(err)
			}
			check := map[int]bool{0: true, T / 2: true, T - 1: true, T + 5: true}
			for step := 0; step <= T+5; step++ {
				if got := tr.OptimizerSteps(); got != step {
					t.Fatalf("before step %d: OptimizerSteps = %d", step, got)
				}
				want := tc.want(step)
				if got := tr.LearningRate(); math.Abs(got-want) > 1e-15 {
					t.Fatalf("step %d: LearningRate = %v, want %v", step, got, want)
				}
				if _, err := tr.Step(batch); err != nil {
					t.Fatal(err)
				}
				if got := appliedLR(t, tr); check[step] && math.Abs(got-want) > 1e-7*want+1e-12 {
					t.Errorf("step %d: Adam stepped with lr %v, want %v", step, got, want)
				}
			}
			if tc.schedule == "cosine" && !(appliedLR(t, tr) < lr/2) {
				t.Errorf("the cosine schedule did not decay: final lr %v", appliedLR(t, tr))
			}
		})
	}
}

// TestScheduledStepIsAdamsStep: one optimizer step of a cosine run at step s (a fresh Adam, the
// step counter set to s) is bit for bit the step of a constant-LR run at lr_s, and differs from
// one at LR: the scheduled rate is what enters Adam's update.
func TestScheduledStepIsAdamsStep(t *testing.T) {
	const T, s, lr, lrMin = 10, 6, 3e-3, 1e-4
	batch := benchBatch(4, 3, 4, 3, 9)
	lrS := cosineWant(lr, lrMin, s, T)
	run := func(cfg Config, setStep bool) []float64 {
		f := tinyModel(t, "mamba")
		tr, err := NewTrainer(backend.MustShared(), f, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.SetTotalSteps(T); err != nil {
			t.Fatal(err)
		}
		if setStep {
			if err := optimizer.GetGlobalStepVar(f.Store()).SetValue(tensors.FromScalar(int64(s))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tr.Step(batch); err != nil {
			t.Fatal(err)
		}
		saved, err := saveVars(f.Store(), ModelScope)
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, v := range saved {
			out = append(out, v.F64...)
			for _, x := range v.F32 {
				out = append(out, float64(x))
			}
		}
		return out
	}
	base := Config{Method: "full", K: 4, BatchSize: 4, Seed: 3}
	cos, constS, constLR := base, base, base
	cos.LR, cos.LRMin, cos.LRSchedule = lr, lrMin, LRCosine
	constS.LR = lrS
	constLR.LR = lr
	a, b, c := run(cos, true), run(constS, false), run(constLR, false)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d vs %d parameters", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("parameter %d: cosine at step %d %v, constant lr_s=%v %v", i, s, a[i], lrS, b[i])
		}
	}
	if maxAbsDiff(a, c) == 0 {
		t.Error("the cosine step equals the step at LR: the schedule does not reach Adam")
	}
}

// TestScheduleResumes: a cosine run saved after 2 of 4 epochs and resumed continues the schedule:
// the same parameters, losses and optimizer-step count as the uninterrupted run, which ends at the
// schedule's last step.
func TestScheduleResumes(t *testing.T) {
	newSession := func() *Session {
		f, err := model.New(fitModel)
		if err != nil {
			t.Fatal(err)
		}
		tc := fitTrain
		tc.Method, tc.LRSchedule, tc.LRMin = "full", LRCosine, 1e-4
		s, err := NewSession(backend.MustShared(), f, tc, fitFit, waveUnits(3, 30, 1), waveUnits(2, 30, 2), "wave")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	full := newSession()
	T := fitFit.Epochs * full.StepsPerEpoch()
	if full.Trainer().TotalSteps() != T || T < 4 {
		t.Fatalf("TotalSteps = %d, want epochs × steps per epoch = %d", full.Trainer().TotalSteps(), T)
	}
	if err := full.Fit(nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := full.Trainer().OptimizerSteps(); got != T {
		t.Fatalf("the run took %d optimizer steps, want %d", got, T)
	}
	if got, want := appliedLR(t, full.Trainer()), cosineWant(fitTrain.LR, 1e-4, T-1, T); math.Abs(got-want) > 1e-7*want {
		t.Errorf("last step's lr %v, want %v", got, want)
	}
	path := filepath.Join(t.TempDir(), "last.ckpt")
	first := newSession()
	for range 2 {
		if _, err := first.RunEpoch(nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.Save(path); err != nil {
		t.Fatal(err)
	}
	resumed := newSession()
	if err := resumed.Load(path); err != nil {
		t.Fatal(err)
	}
	if got, want := resumed.Trainer().OptimizerSteps(), 2*resumed.StepsPerEpoch(); got != want {
		t.Fatalf("resumed at optimizer step %d, want %d", got, want)
	}
	if got, want := resumed.Trainer().LearningRate(), cosineWant(fitTrain.LR, 1e-4, T/2, T); math.Abs(got-want) > 1e-15 {
		t.Fatalf("resumed LearningRate %v, want lr_{T/2} = %v", got, want)
	}
	if err := resumed.Fit(nil, nil); err != nil {
		t.Fatal(err)
	}
	a, b := full.History(), resumed.History()
	for i := range a {
		if a[i].TrainLoss != b[i].TrainLoss || a[i].ValLoss != b[i].ValLoss {
			t.Errorf("epoch %d: uninterrupted %+v, resumed %+v", i+1, a[i], b[i])
		}
	}
	pa, pb := modelValues(t, full), modelValues(t, resumed)
	for i := range pa {
		if pa[i] != pb[i] {
			t.Fatalf("parameter %d: %v vs %v", i, pa[i], pb[i])
		}
	}
}

func TestScheduleValidation(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{K: 4, LR: 1e-3, LRSchedule: "linear"}, `Config.LRSchedule = "linear"`},
		{Config{K: 4, LR: 1e-3, LRSchedule: LRCosine, LRMin: -1e-6}, "Config.LRMin = -1e-06"},
		{Config{K: 4, LR: 1e-3, LRSchedule: LRCosine, LRMin: 2e-3}, "Config.LRMin = 0.002"},
		{Config{K: 4, LR: 1e-3, LRSchedule: LRCosine, LRMin: math.NaN()}, "Config.LRMin = NaN"},
		{Config{K: 4, LR: 1e-3, LRMin: 1e-6}, "Config.LRMin = 1e-06 is set"},
		{Config{K: 4, LR: 1e-3, LRWarmup: 1}, "Config.LRWarmup = 1"},
		{Config{K: 4, LR: 1e-3, LRWarmup: -0.1}, "Config.LRWarmup = -0.1"},
		{Config{K: 4, LR: 1e-3, LRWarmup: math.NaN()}, "Config.LRWarmup = NaN"},
	} {
		err := tc.cfg.Defaults().Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want an error containing %q", tc.cfg, err, tc.want)
		}
	}
	for _, ok := range []Config{{K: 4, LR: 1e-3, LRSchedule: LRCosine, LRMin: 1e-3}, {K: 4, LR: 1e-3, LRSchedule: LRConstant}, {K: 4, LR: 1e-3, LRWarmup: 0.05}} {
		if err := ok.Defaults().Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", ok, err)
		}
	}
	// A cosine trainer without the run's length refuses to step.
	tr, err := NewTrainer(backend.MustShared(), tinyModel(t, "mamba"), Config{K: 4, BatchSize: 4, LR: 1e-3, LRSchedule: LRCosine})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(benchBatch(4, 3, 4, 3, 9)); err == nil || !strings.Contains(err.Error(), "SetTotalSteps") {
		t.Errorf("Step without SetTotalSteps = %v, want an error naming SetTotalSteps", err)
	}
	// So does a warm-up on a constant rate.
	tr, err = NewTrainer(backend.MustShared(), tinyModel(t, "mamba"), Config{K: 4, BatchSize: 4, LR: 1e-3, LRWarmup: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Step(benchBatch(4, 3, 4, 3, 9)); err == nil || !strings.Contains(err.Error(), "SetTotalSteps") {
		t.Errorf("warm-up Step without SetTotalSteps = %v, want an error naming SetTotalSteps", err)
	}
}

// TestWarmupEdges: the warm-up's length rounds up, keeps at least one scheduled step, and a run too
// short for it (T = 1) has none.
func TestWarmupEdges(t *testing.T) {
	c := Config{LR: 1, LRSchedule: LRCosine, LRWarmup: 0.5}
	for _, tc := range []struct {
		t, total int
		want     float64
	}{
		{0, 1, 1},    // T = 1: no warm-up, the cosine's first step
		{0, 2, 1},    // ceil(0.5·2) = 1 warm-up step: lr·1/1
		{1, 2, 1},    // then the cosine's first step of 1
		{0, 3, 0.5},  // ceil(1.5) = 2 warm-up steps: 1/2, 2/2
		{1, 3, 1},    //
		{2, 3, 1},    // the cosine's first step of 1
		{3, 3, 0},    // past the end: LRMin
		{-4, 3, 0.5}, // a negative step counts as 0
	} {
		if got := c.ScheduledLR(tc.t, tc.total); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("ScheduledLR(%d, %d) = %v, want %v", tc.t, tc.total, got, tc.want)
		}
	}
	c.LRWarmup = 0.99 // ceil(0.99·10) = 10 would leave no scheduled step: capped at 9
	if got, want := c.ScheduledLR(8, 10), 1.0; got != want {
		t.Errorf("ScheduledLR(8, 10) with warm-up 0.99 = %v, want the last warm-up step %v", got, want)
	}
	if got, want := c.ScheduledLR(0, 10), 1.0/9; math.Abs(got-want) > 1e-15 {
		t.Errorf("ScheduledLR(0, 10) with warm-up 0.99 = %v, want %v", got, want)
	}
}

package experiment

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/train"
)

func TestResolveRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		profile, testbed, method string
		K                        int
		want                     string
	}{
		{"quick", "lorenz", "dw", 0, `unknown testbed "lorenz"; valid testbeds: known-snr, mackey-glass`},
		{"quick", "mackey-glass", "magic", 0, `unknown method "magic"; valid methods: full, clip, jreg, tbptt, static, dw`},
		{"huge", "mackey-glass", "dw", 0, `unknown profile "huge"; valid profiles: quick, standard, trained, paper-cpu, paper, paper-val64, paper-text`},
		// quick units have 96 steps: burn-in 4 + window 4 + ceil(1.5·60) = 98 > 96.
		{"quick", "mackey-glass", "dw", 60, "K = 60 is too long for mackey-glass: test burn-in 4 + window 4 + evaluation horizon ceil(1.5K) = 90 needs 98 steps, but units have 96"},
		{"paper", "ettm1", "full", 200, "needs 316 steps, but units have 256"},
		{"paper-text", "ettm1", "full", 200, "needs 332 steps, but units have 256"},
		{"quick", "mackey-glass", "dw", -3, "K = -3"},
	} {
		_, err := Resolve(tc.profile, tc.testbed, tc.method, 0, tc.K)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%q, %q, %q, K=%d) = %v, want an error containing %q", tc.profile, tc.testbed, tc.method, tc.K, err, tc.want)
		}
	}
}

// TestPaperProfileIsTheReleasedCode checks the paper profile against the facts of the authors'
// released configuration (docs/paper-vs-code.md, sections 1-7).
func TestPaperProfileIsTheReleasedCode(t *testing.T) {
	for _, tc := range []struct {
		testbed, method string
		check           func(RunConfig) bool
		what            string
	}{
		{"mackey-glass", "dw", func(c RunConfig) bool {
			return c.Model.Hidden == 128 && c.Model.Layers == 4 && c.Model.Norm == model.NormLayer &&
				c.Model.Stem == model.StemLayerNormGELU && c.Model.Head == model.HeadLayerNormGELU && c.Model.Init == model.InitTorch &&
				c.Model.Window == 32 && c.Model.BurnIn == 0 && c.Train.DetachContext && c.EvalWindow == 16 && c.EvalBurnIn == 0 &&
				c.Fit.Grouping == train.GroupTrajectories && c.Fit.MicroTrajectories == 4 && c.Fit.Accumulate == 8 &&
				c.Fit.AccumulateScale == train.ScaleAuthors && c.Train.NoiseGroup == 16 && c.Train.WeightDecayMode == train.WeightDecayL2 &&
				c.Train.AdamEps == 1e-8 && c.Train.LR == 1e-4 && c.Fit.ValOrigins == 497 && c.Data.Generator == "authors" && c.Data.ScalarNorm
		}, "§1.2-1.3, §3, §4, §7: 4×8 microbatches, LayerNorm model, detached 31-step burn-in, 16-step test context"},
		{"mackey-glass", "full", func(c RunConfig) bool { return c.Fit.MicroTrajectories == 32 && c.Fit.Accumulate == 1 }, "§1.2: MG Full is one microbatch of 32"},
		{"mackey-glass", "clip", func(c RunConfig) bool { return c.Fit.MicroTrajectories == 4 && c.Fit.Accumulate == 8 }, "§1.8: MG controls use 4×8"},
		{"mackey-glass", "jreg", func(c RunConfig) bool { return c.Train.JRegStyle == train.JRegAuthors }, "§6: the released JReg"},
		{"ettm1", "dw", func(c RunConfig) bool {
			return c.Fit.MicroTrajectories == 32 && c.Fit.Accumulate == 1 && !c.Data.ScalarNorm
		}, "§1.6: ETT is 32×1"},
		{"narma5", "full", func(c RunConfig) bool { return c.Fit.MicroTrajectories == 4 && c.Data.ScalarNorm }, "§1.4: NARMA Full is 4×8"},
		{"ettm1", "tbptt", func(c RunConfig) bool { return c.Train.Segment == 16 }, "figure6.sh: ETTm1 TBPTT 16 (the paper's table: 32)"},
		{"ettm2", "tbptt", func(c RunConfig) bool { return c.Train.Segment == 32 }, "figure6.sh: ETTm2 TBPTT 32"},
		{"known-snr", "dw", func(c RunConfig) bool {
			return c.Train.Loss == train.LossMSE && c.Fit.StartsPerUnit == 1 && c.Train.Sampler == noise.DiagonalName && c.Train.NoiseGroup == 1 &&
				c.Fit.MicroTrajectories == 4 && c.Fit.Accumulate == 8
		}, "known_snr.json: MSE, one start, diagonal-Gaussian DW, 4×8"},
		{"known-snr", "full", func(c RunConfig) bool { return c.Train.Loss == train.LossMSE && c.Train.Sampler == "generic" }, "known_snr.json: MSE"},
		{"mackey-glass", "full", func(c RunConfig) bool { return c.Train.Loss == "" && c.Fit.StartsPerUnit == 16 }, "rel-L2 and 16 starts elsewhere"},
	} {
		c, err := Resolve(Paper, tc.testbed, tc.method, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !tc.check(c) {
			t.Errorf("paper %s %s is not %s:\n%s", tc.testbed, tc.method, tc.what, c.JSON())
		}
	}
	c, err := Resolve(PaperCPU, "mackey-glass", "dw", 0, 0)
	if err != nil || c.Model.Hidden != 32 || c.Fit.Accumulate != 8 || c.Model.Norm != model.NormLayer {
		t.Errorf("paper-cpu is not the released configuration at width 32: %v\n%s", err, c.JSON())
	}
	// The regime map's budgets: one step per microbatch; then 10x the LR; then as long as
	// validation keeps improving; then that at smaller steps.
	for _, tc := range []struct {
		profile         string
		lr              float64
		epochs, accum   int
		patience, width int
	}{
		{PaperCPUA1, 1e-4, 25, 1, 20, 32},
		{PaperCPUA1Fast, 1e-3, 25, 1, 20, 32},
		{PaperCPUA1Long, 1e-3, 100, 1, 20, 32},
		{PaperCPUA1LongLR3e4, 3e-4, 100, 1, 20, 32},
		{PaperCPUA1LongLR1e4, 1e-4, 100, 1, 20, 32},
	} {
		c, err := Resolve(tc.profile, "mackey-glass", "full", 0, 0)
		if err != nil || c.Train.LR != tc.lr || c.Fit.Epochs != tc.epochs || c.Fit.Accumulate != tc.accum || c.Fit.MicroTrajectories != 4 ||
			c.Fit.Patience != tc.patience || c.Model.Hidden != tc.width {
			t.Errorf("%s: %v\n%s", tc.profile, err, c.JSON())
		}
	}
	// The noise-scale ablation is paper-cpu with DW's R̂ scaled by 0.25, and nothing else; the
	// other methods are paper-cpu's runs themselves.
	for _, method := range Methods() {
		base, err1 := Resolve(PaperCPU, "mackey-glass", method, 0, 0)
		abl, err2 := Resolve(PaperCPUNoiseQuarter, "mackey-glass", method, 0, 0)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		want := 0.0
		if method == "dw" {
			want = 0.25
		}
		if abl.Train.NoiseScale != want {
			t.Errorf("%s %s: NoiseScale %v, want %v", PaperCPUNoiseQuarter, method, abl.Train.NoiseScale, want)
		}
		if method != "dw" && abl.Name() != base.Name() {
			t.Errorf("%s %s runs in %s, want paper-cpu's run %s", PaperCPUNoiseQuarter, method, abl.Name(), base.Name())
		}
		abl.Train.NoiseScale, abl.Profile = 0, PaperCPU
		if string(abl.JSON()) != string(base.JSON()) {
			t.Errorf("%s %s differs from paper-cpu beyond NoiseScale:\n%s\n%s", PaperCPUNoiseQuarter, method, abl.JSON(), base.JSON())
		}
	}
}

func TestPaperTextProfileIsThePaper(t *testing.T) {
	for _, tc := range []struct {
		testbed, method string
		check           func(RunConfig) bool
		what            string
	}{
		{"mackey-glass", "dw", func(c RunConfig) bool {
			return c.Model.Hidden == 128 && c.Model.Layers == 4 && c.Model.SSMState == 16 && c.Model.ConvWidth == 4 &&
				c.Model.Expand == 2 && c.Model.Window == 32 && c.Model.BurnIn == 0 && c.EvalWindow == 32 && c.Train.K == 32 && c.HEval == 48 &&
				c.Train.LR == 1e-4 && c.Train.WeightDecay == 1e-4 && c.Train.BatchSize == 32 && c.Train.ClipNorm == 1 &&
				c.Train.Warmup == 8 && c.Train.Period == 4 && c.Train.Sampler == "generic" &&
				c.Fit.Epochs == 100 && c.Fit.Patience == 20 && c.Fit.StartsPerUnit == 16 && c.EvalOrigins == 64
		}, "Mamba-128, K 32, LR 1e-4/32, W/C 8/4, 100 epochs, patience 20, 16 starts, 64 origins"},
		{"ettm1", "tbptt", func(c RunConfig) bool { return c.Train.K == 64 && c.HEval == 96 && c.Train.Segment == 32 }, "ETT K 64, TBPTT 32"},
		{"ettm1", "clip", func(c RunConfig) bool { return c.Train.ClipNorm == 0.3 }, "ETTm1 clip .3"},
		{"narma5", "clip", func(c RunConfig) bool { return c.Train.ClipNorm == 0.1 }, "NARMA clip .1"},
		{"mackey-glass", "jreg", func(c RunConfig) bool { return c.Train.JRegCoef == 1 && c.Train.JRegEps == 1e-3 }, "MG JReg 1.0, eps 1e-3"},
		{"ettm1", "static", func(c RunConfig) bool { return c.Train.StaticGain == 0.3 }, "ETTm1 static .3"},
		{"known-snr", "tbptt", func(c RunConfig) bool { return c.Train.Segment == 4 }, "known-SNR TBPTT 4"},
		{"driven-mg", "full", func(c RunConfig) bool { return c.Data.DriveScale == 0.08 }, "driven MG λ_D .08"},
	} {
		c, err := Resolve(PaperText, tc.testbed, tc.method, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !tc.check(c) {
			t.Errorf("paper-text %s %s is not %s:\n%s", tc.testbed, tc.method, tc.what, c.JSON())
		}
	}
	c, _ := Resolve(Quick, "mackey-glass", "tbptt", 0, 0)
	if c.Train.K != 8 || c.Train.Segment != 2 {
		t.Errorf("quick TBPTT keeps the segment's fraction of K: K=%d segment=%d, want 8 and 2", c.Train.K, c.Train.Segment)
	}
}

func quickOptions(t *testing.T) Options {
	t.Helper()
	return Options{RunsDir: t.TempDir(), DataCache: t.TempDir()}
}

func TestRunWritesResultAndReusesIt(t *testing.T) {
	cfg, err := Resolve(Quick, "driven-mg", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	opt := quickOptions(t)
	r, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Epochs) != cfg.Fit.Epochs || len(r.Test.PerHorizon) != cfg.HEval || r.Test.Units != 2 {
		t.Fatalf("result: %d epochs, %d horizons, %d units", len(r.Epochs), len(r.Test.PerHorizon), r.Test.Units)
	}
	mean := 0.0
	for _, v := range r.Test.PerHorizon {
		mean += v / float64(len(r.Test.PerHorizon))
	}
	if math.Abs(mean-r.Test.RelL2) > 1e-12 {
		t.Errorf("rel-L2 %v is not the mean of its per-horizon curve %v", r.Test.RelL2, mean)
	}
	if r.Epochs[len(r.Epochs)-1].Gains == nil || len(r.RouteT) != cfg.Train.K*cfg.Model.Layers {
		t.Error("DW result lacks its gains or route moments")
	}
	dir, _ := opt.Dir(cfg)
	for _, f := range []string{ResultFile, CheckpointFile, BestFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	again, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.WallSeconds != r.WallSeconds || again.Test.RelL2 != r.Test.RelL2 {
		t.Error("a finished run was repeated instead of read back")
	}
	// Without its result, the directory still has a checkpoint: refused unless resumed.
	if err := os.Remove(filepath.Join(dir, ResultFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(cfg, opt); !errors.Is(err, ErrExists) {
		t.Errorf("run over a checkpoint without Resume: %v, want ErrExists", err)
	}
	opt.Resume = true
	back, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if back.Test.RelL2 != r.Test.RelL2 || back.ResumedAt != cfg.Fit.Epochs {
		t.Errorf("resuming a finished run: test %v (want %v), resumed at %d", back.Test.RelL2, r.Test.RelL2, back.ResumedAt)
	}
}

// TestStopAndResume: a run stopped after one epoch and resumed ends with exactly the numbers of
// an uninterrupted run.
func TestStopAndResume(t *testing.T) {
	cfg, err := Resolve(Quick, "mackey-glass", "dw", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Fit.Epochs = 3
	cache := t.TempDir()
	whole, err := Run(cfg, Options{RunsDir: t.TempDir(), DataCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{RunsDir: t.TempDir(), DataCache: cache, StopAfter: 1}
	if has, err := opt.HasBest(cfg); has || err != nil {
		t.Errorf("HasBest before the run = %v, %v; want false, nil", has, err)
	}
	if _, err := Run(cfg, opt); !errors.Is(err, ErrStopped) {
		t.Fatalf("StopAfter 1: %v, want ErrStopped", err)
	}
	if has, err := opt.HasBest(cfg); !has || err != nil {
		t.Errorf("HasBest after one epoch = %v, %v; want true, nil", has, err)
	}
	opt.Resume = true
	opt.StopAfter = 0
	resumed, err := Run(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.ResumedAt != 1 {
		t.Errorf("ResumedAt = %d, want 1", resumed.ResumedAt)
	}
	if len(resumed.Epochs) != 3 || resumed.Epochs[0].TrainSeconds <= 0 || resumed.EpochSeconds() <= resumed.Epochs[0].TrainSeconds {
		t.Errorf("the resumed run's epoch times do not include the first process's epoch: %+v", resumed.Epochs)
	}
	if resumed.Test.RelL2 != whole.Test.RelL2 || resumed.BestEpoch != whole.BestEpoch {
		t.Errorf("resumed run: test %v best epoch %d; uninterrupted: %v, %d", resumed.Test.RelL2, resumed.BestEpoch, whole.Test.RelL2, whole.BestEpoch)
	}
	for i := range whole.Epochs {
		if whole.Epochs[i].ValLoss != resumed.Epochs[i].ValLoss {
			t.Errorf("epoch %d validation: %v vs %v", i+1, whole.Epochs[i].ValLoss, resumed.Epochs[i].ValLoss)
		}
	}
}

func TestSweepAndSummary(t *testing.T) {
	jobs := Grid{Testbeds: []string{"mackey-glass"}, Methods: []string{"full", "dw"}, Seeds: []uint64{0, 1}}.Jobs()
	outs, err := Sweep(Quick, jobs, quickOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Results(outs)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(rs)
	if len(s.Rows) != 2 || len(s.Paired) != 1 || s.Paired[0].Diff.N != 2 {
		t.Fatalf("summary: %d rows, %d paired", len(s.Rows), len(s.Paired))
	}
	p := s.Paired[0]
	want := (rs[0].Test.RelL2 - rs[2].Test.RelL2 + rs[1].Test.RelL2 - rs[3].Test.RelL2) / 2 // dw s0,s1 − full s0,s1 (sorted by name)
	if math.Abs(p.Diff.Mean-want) > 1e-12 {
		t.Errorf("paired mean %v, want %v", p.Diff.Mean, want)
	}
	md := s.Markdown()
	for _, w := range []string{"| mackey-glass | full | 2 |", "| mackey-glass | dw | 2 |"} {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
	// Quick runs are smoke tests: the paper's numbers stay out of their table ...
	for _, w := range []string{"1.0541", "-0.05446", "-5.16%"} {
		if strings.Contains(md, w) {
			t.Errorf("quick table shows the paper's %q:\n%s", w, md)
		}
	}
	// ... and come back for any other profile.
	for _, r := range rs {
		r.Config.Profile = Standard
	}
	md = Summarize(rs).Markdown()
	for _, w := range []string{"1.0541 ± 0.0044", "-0.05446", "-5.16%"} {
		if !strings.Contains(md, w) {
			t.Errorf("standard table lacks the paper's %q:\n%s", w, md)
		}
	}
	if _, err := Sweep(Quick, []Job{{Testbed: "mackey-glass", Method: "nope"}}, quickOptions(t)); err == nil {
		t.Error("a sweep with an unknown method started")
	}
}

func TestPlannedBatches(t *testing.T) {
	for _, tc := range []struct {
		profile, testbed string
		want             int
	}{
		{Standard, "mackey-glass", 10 * (28 * 16 / 32)}, // 40 trajectories → 28 train
		{Standard, "known-snr", 10 * (70 * 6 / 32)},     // 100 trajectories → 70 train, 6 starts
		{Standard, "ettm1", 10 * (45 * 16 / 32)},        // 45 of the 135 training units
		{PaperText, "ettm2", 100 * (135 * 16 / 32)},
		{Paper, "ettm2", 100 * 5},          // microbatches of 32 of the 135 units
		{Paper, "mackey-glass", 100 * 7},   // DW: microbatches of 4 of the 28 units
		{Quick, "narma5", 2 * (8 * 4 / 8)}, // 12 trajectories → 8 train
		{Quick, "ettm1", 2 * (8 * 4 / 8)},  // at most 8 units
	} {
		c, err := Resolve(tc.profile, tc.testbed, "dw", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.Fit.Grouping == train.GroupTrajectories {
			if steps := PlannedOptimizerSteps(c); tc.profile == Paper && tc.testbed == "mackey-glass" && steps != 100 {
				t.Errorf("%s %s: %d planned Adam steps, want 100 (one per epoch)", tc.profile, tc.testbed, steps)
			}
		}
		if got := PlannedBatches(c); got != tc.want {
			t.Errorf("%s %s: %d planned minibatches, want %d", tc.profile, tc.testbed, got, tc.want)
		}
	}
}

// TestRunWithAShorterTestContext: a run trained with one context length is tested with another
// (the authors train with 32 steps and test with 16).
func TestRunWithAShorterTestContext(t *testing.T) {
	cfg, err := Resolve(Quick, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg.EvalWindow, cfg.EvalBurnIn = 2, 0
	r, err := Run(cfg, quickOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Test.Origins == 0 || math.IsNaN(r.Test.RelL2) {
		t.Fatalf("test score %+v", r.Test)
	}
}

// TestTrainedAblationsChangeOneThing: the trained profile is standard with six times the epochs
// and a cosine decay, and each of its ablations differs from it in the one thing it names.
func TestTrainedAblationsChangeOneThing(t *testing.T) {
	std, err := Resolve(Standard, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	base, err := Resolve(Trained, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if base.Fit.Epochs != 6*std.Fit.Epochs || base.Fit.Patience != base.Fit.Epochs || base.Train.LRSchedule != train.LRCosine ||
		base.Train.LR != 3e-3 || base.Train.LRMin != 3e-5 {
		t.Errorf("trained: %s", base.JSON())
	}
	same := std
	same.Profile, same.Fit.Epochs, same.Fit.Patience = Trained, base.Fit.Epochs, base.Fit.Patience
	same.Train.LR, same.Train.LRSchedule, same.Train.LRMin = base.Train.LR, base.Train.LRSchedule, base.Train.LRMin
	if string(same.JSON()) != string(base.JSON()) {
		t.Errorf("trained differs from standard beyond epochs and LR:\n%s\n%s", same.JSON(), base.JSON())
	}
	for _, tc := range []struct {
		profile string
		undo    func(c *RunConfig)
	}{
		{TrainedEpochs120, func(c *RunConfig) { c.Fit.Epochs, c.Fit.Patience = 60, 60 }},
		{TrainedConstantLR, func(c *RunConfig) { c.Train.LRSchedule, c.Train.LRMin = train.LRCosine, 3e-5 }},
		{TrainedH48, func(c *RunConfig) { c.Model.Hidden = 24 }},
		{TrainedChannels, func(c *RunConfig) { c.Model.ChannelIndependent = false }},
		{TrainedAuthorsArch, func(c *RunConfig) { c.Model.Norm, c.Model.Stem, c.Model.Head, c.Model.Init = "", "", "", "" }},
		{TrainedAuthorsBody, func(c *RunConfig) { c.Model.Norm, c.Model.Head, c.Model.Init = "", "", "" }},
		{TrainedWindow16, func(c *RunConfig) { c.Model.Window, c.EvalWindow = 32, 32 }},
		{TrainedMSE, func(c *RunConfig) { c.Train.Loss = "" }},
	} {
		c, err := Resolve(tc.profile, "mackey-glass", "full", 0, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.profile, err)
		}
		if string(c.JSON()) == string(base.JSON()) || ProfileChange(tc.profile) == "" {
			t.Errorf("%s changes nothing, or says nothing of what it changes", tc.profile)
		}
		tc.undo(&c)
		c.Profile = Trained
		if string(c.JSON()) != string(base.JSON()) {
			t.Errorf("%s changes more than it names:\n%s\n%s", tc.profile, c.JSON(), base.JSON())
		}
	}
	if got, want := len(TrainedAblations()), 8; got != want {
		t.Errorf("%d trained ablations, the test covers %d", got, want)
	}
}

// TestTrainedETTChangesOnlyTheRateAndCalendar: the ETT recipe is standard with a tenth of its
// learning rate on a cosine decay over 15 epochs and without the calendar drive, and nothing else:
// the same model, units and protocol; trained-ett-calendar differs from it in the calendar only.
func TestTrainedETTChangesOnlyTheRateAndCalendar(t *testing.T) {
	for _, tb := range []string{"ettm1", "ettm2"} {
		std, err := Resolve(Standard, tb, "full", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Resolve(TrainedETT, tb, "full", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		cal, err := Resolve(TrainedETTCalendar, tb, "full", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.Train.LR != 3e-4 || c.Train.LRSchedule != train.LRCosine || c.Train.LRMin != 3e-6 || c.Fit.Epochs != 15 || c.Fit.Patience != 15 || !c.Data.NoCalendar {
			t.Errorf("%s: trained-ett is %s", tb, c.JSON())
		}
		cal.Profile, cal.Data.NoCalendar = TrainedETT, true
		if string(cal.JSON()) != string(c.JSON()) {
			t.Errorf("%s: trained-ett-calendar changes more than the calendar:\n%s\n%s", tb, cal.JSON(), c.JSON())
		}
		c.Profile, c.Train.LR, c.Train.LRSchedule, c.Train.LRMin = Standard, std.Train.LR, std.Train.LRSchedule, std.Train.LRMin
		c.Fit.Epochs, c.Fit.Patience, c.Data.NoCalendar = std.Fit.Epochs, std.Fit.Patience, false
		if string(c.JSON()) != string(std.JSON()) {
			t.Errorf("%s: trained-ett changes more than the rate, its schedule and the calendar:\n%s\n%s", tb, c.JSON(), std.JSON())
		}
	}
	// trained-ett-shift adds the shift and the MSE loss it trains with; trained-ett-mse the loss alone.
	for _, tb := range []string{"ettm1", "ettm2", "mackey-glass"} {
		base, err := Resolve(TrainedETT, tb, "dw", 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			profile, shift string
		}{{TrainedETTShift, model.ShiftLast}, {TrainedETTMSE, model.ShiftNone}} {
			c, err := Resolve(tc.profile, tb, "dw", 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if c.Model.Shift != tc.shift || c.Train.Loss != train.LossMSE {
				t.Errorf("%s on %s: shift %q, loss %q", tc.profile, tb, c.Model.Shift, c.Train.Loss)
			}
			c.Profile, c.Model.Shift, c.Train.Loss = TrainedETT, "", ""
			if string(c.JSON()) != string(base.JSON()) {
				t.Errorf("%s on %s changes more than the shift and the loss:\n%s\n%s", tc.profile, tb, c.JSON(), base.JSON())
			}
		}
	}
	// Off ETT there is no calendar to drop: the recipe is the rate alone.
	if c, err := Resolve(TrainedETT, "mackey-glass", "full", 0, 0); err != nil || c.Data.NoCalendar {
		t.Errorf("trained-ett on mackey-glass: %v, no_calendar %v", err, c.Data.NoCalendar)
	}
}

// TestTrainedEpochs120ChannelsWarmupChangesOnlyWarmup: the warm-up profile is the channel profile
// with lr_warmup set, on every series testbed and method; everything else, seeds included, is the
// channel profile's, so the two differ in the learning rate's course alone.
func TestTrainedEpochs120ChannelsWarmupChangesOnlyWarmup(t *testing.T) {
	for _, testbed := range []string{"mackey-glass", "driven-mg", "narma5"} {
		for _, method := range []string{"full", "dw", "clip"} {
			base, err := Resolve(TrainedEpochs120Channels, testbed, method, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Resolve(TrainedEpochs120ChannelsWarmup, testbed, method, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if c.Train.LRWarmup != 0.1 || base.Train.LRWarmup != 0 {
				t.Errorf("%s/%s: lr_warmup %g (channel profile %g), want 0.1 (0)", testbed, method, c.Train.LRWarmup, base.Train.LRWarmup)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("%s/%s: %v", testbed, method, err)
			}
			c.Profile, c.Train.LRWarmup = base.Profile, 0
			if string(c.JSON()) != string(base.JSON()) {
				t.Errorf("%s/%s: the warm-up profile changes more than lr_warmup:\n%s\n%s", testbed, method, c.JSON(), base.JSON())
			}
		}
	}
	if !strings.Contains(ProfileChange(TrainedEpochs120ChannelsWarmup), "warm-up") {
		t.Errorf("ProfileChange: %q", ProfileChange(TrainedEpochs120ChannelsWarmup))
	}
}

// TestTrainedEpochs120ChannelsAtRecipeCompute: trained-epochs120-channels is the recipe made
// channel independent, with each coordinate's own drive column exactly where the drive pairs with
// the coordinates, and windows per epoch, batch and validation origins divided by the 8
// coordinates so that the blocks see as many rows as the recipe's; nothing else changes.
func TestTrainedEpochs120ChannelsAtRecipeCompute(t *testing.T) {
	for _, tc := range []struct {
		testbed string
		drive   string
	}{{"mackey-glass", model.ChannelDriveAll}, {"driven-mg", model.ChannelDriveOwn}, {"narma5", model.ChannelDriveOwn}} {
		base, err := Resolve(TrainedEpochs120, tc.testbed, "dw", 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Resolve(TrainedEpochs120Channels, tc.testbed, "dw", 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Model.ChannelIndependent || c.Model.ChannelDrive != tc.drive || ProfileChange(TrainedEpochs120Channels) == "" {
			t.Errorf("%s: channel_independent %v, channel_drive %q (want %q)", tc.testbed, c.Model.ChannelIndependent, c.Model.ChannelDrive, tc.drive)
		}
		for _, f := range []struct {
			name      string
			got, base int
		}{{"starts_per_unit", c.Fit.StartsPerUnit, base.Fit.StartsPerUnit}, {"batch_size", c.Train.BatchSize, base.Train.BatchSize},
			{"val_origins", c.Fit.ValOrigins, base.Fit.ValOrigins}} {
			if f.got*8 != f.base {
				t.Errorf("%s: %s %d, want the recipe's %d / 8", tc.testbed, f.name, f.got, f.base)
			}
		}
		c.Profile, c.Model.ChannelIndependent, c.Model.ChannelDrive = TrainedEpochs120, false, ""
		c.Fit.StartsPerUnit, c.Train.BatchSize, c.Fit.ValOrigins = base.Fit.StartsPerUnit, base.Train.BatchSize, base.Fit.ValOrigins
		if string(c.JSON()) != string(base.JSON()) {
			t.Errorf("%s: trained-epochs120-channels changes more than it names:\n%s\n%s", tc.testbed, c.JSON(), base.JSON())
		}
	}
	bad, err := Resolve(TrainedEpochs120, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	bad.Model.ChannelDrive = model.ChannelDriveOwn
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), `model.channel_drive "own" needs model.channel_independent`) {
		t.Errorf("channel_drive own without channel_independent: %v", err)
	}
	bad.Model.ChannelIndependent, bad.Model.ChannelDrive = true, "mine"
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), `model.channel_drive = "mine"`) {
		t.Errorf("channel_drive mine: %v", err)
	}
}

// TestChannelDriveNeedsPairedData: model.channel_drive "own" on a testbed whose drive does not
// have one column per coordinate (Mackey–Glass has none) is refused when the data is known, with
// the run, the testbed and both counts named, and no model is built.
func TestChannelDriveNeedsPairedData(t *testing.T) {
	c := quickCfg(t, "full", 0)
	c.Model.ChannelIndependent, c.Model.ChannelDrive = true, model.ChannelDriveOwn
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v (the pairing needs the data)", err)
	}
	_, err := Run(c, quickOptions(t))
	if err == nil || !strings.Contains(err.Error(), `model.channel_drive "own"`) || !strings.Contains(err.Error(), "mackey-glass has 0 drive columns for 8 state coordinates") {
		t.Errorf("Run: %v, want the pairing refused by name", err)
	}
}

package experiment

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// tinyShearRun is shear-cpu for method at the size of a test: 5 trajectories (3/1/1) of 10 frames
// of the 32 × 64 simulation subsampled by 4 (16 × 8), 8-frame sequences with stride 2 (2 per
// trajectory), a U-Net of width 4 with 2 levels, K = 4, 3 minibatches of 2 windows, one epoch,
// DW calibrating from the second minibatch.
func tinyShearRun(t *testing.T, method string) RunConfig {
	t.Helper()
	c, err := Resolve(ShearCPU, data.ShearName, method, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.Data = DataConfig{NumTraj: 5, Length: 10, FieldGrid: data.ShearGridCPU, Subsample: 4, SeqLen: 8, SeqStride: 2}
	f, err := data.ShearField(c.dataOptions())
	if err != nil {
		t.Fatal(err)
	}
	c.Model.Channels, c.Model.Height, c.Model.Width, c.Model.Base, c.Model.Depth = f.Channels, f.Height, f.Width, 4, 2
	c.Train.Segment = scaleSegment(c.Train.Segment, c.Train.K, 4)
	c.Train.K, c.Train.BatchSize, c.Train.Warmup, c.Train.Period = 4, 2, 1, 1
	c.HEval = eval.HEval(4)
	c.Fit.Epochs, c.Fit.ValOrigins, c.Fit.EvalBatch = 1, 2, 4
	c.EvalOrigins = 2
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// shearCache is one data cache for the shear tests of the binary, so that the tiny simulation
// runs once; TestMain removes it.
var shearCache = sync.OnceValue(func() string {
	d, err := os.MkdirTemp("", "dwgo-exp-shear-")
	if err != nil {
		panic(err)
	}
	shearCacheMade.Store(d)
	return d
})

var shearCacheMade atomic.Value

func shearOptions(t *testing.T) Options {
	return Options{RunsDir: t.TempDir(), DataCache: shearCache()}
}

// TestShearEveryMethod: every method trains the U-Net on shear through Run (one epoch), with a
// finite test score over the test sequences; DW draws from the spectral prior (its own run
// directory) or, asked, the generic sampler; a DW run resumes from its checkpoint.
func TestShearEveryMethod(t *testing.T) {
	type arm struct{ method, sampler string }
	arms := []arm{}
	for _, m := range Methods() {
		arms = append(arms, arm{m, ""})
	}
	arms = append(arms, arm{"dw", "generic"})
	for _, a := range arms {
		t.Run(a.method+a.sampler, func(t *testing.T) {
			c := tinyShearRun(t, a.method)
			if a.sampler != "" {
				c.Train.Sampler = a.sampler
			}
			opt := shearOptions(t)
			r, err := Run(c, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !(r.Test.RelL2 > 0) || math.IsInf(r.Test.RelL2, 0) || r.Test.Units != 2 || len(r.Test.PerHorizon) != c.HEval {
				t.Fatalf("test rel-L2 %v over %d units, %d horizons", r.Test.RelL2, r.Test.Units, len(r.Test.PerHorizon))
			}
			if !strings.HasPrefix(r.Model, "unet-4 ") {
				t.Errorf("model %q is not the U-Net", r.Model)
			}
			wantDir := map[string]string{"": a.method, "generic": "dw"}[a.sampler]
			if a.method == "dw" && a.sampler == "" {
				wantDir = "dw-" + noise.SpectralName
				if c.Train.Sampler != noise.SpectralName {
					t.Errorf("DW on shear samples from %q, want %q", c.Train.Sampler, noise.SpectralName)
				}
				if len(r.RouteT) != c.Train.K*(2*c.Model.Depth+1) {
					t.Errorf("DW result has %d route moments, want K·L = %d", len(r.RouteT), c.Train.K*(2*c.Model.Depth+1))
				}
				// Resuming reads the spectral sampler back from the checkpoint.
				dir, _ := opt.Dir(c)
				if err := os.Remove(filepath.Join(dir, ResultFile)); err != nil {
					t.Fatal(err)
				}
				opt.Resume = true
				back, err := Run(c, opt)
				if err != nil {
					t.Fatal(err)
				}
				if back.Test.RelL2 != r.Test.RelL2 {
					t.Errorf("resumed DW: test %v, want %v", back.Test.RelL2, r.Test.RelL2)
				}
			}
			if !strings.HasPrefix(filepath.Base(c.Name()), wantDir+"-K") {
				t.Errorf("run name %s, want the directory %s-K…", c.Name(), wantDir)
			}
		})
	}
}

// TestShearKindErrors: the diagnostics' loaders, which need the Mamba forecaster, refuse a shear
// run with a KindError naming the run, the testbed and the kind; LoadBestModel, LoadInitModel and
// LoadLastModel load it.
func TestShearKindErrors(t *testing.T) {
	c := tinyShearRun(t, "full")
	opt := shearOptions(t)
	if _, err := Run(c, opt); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]func(RunConfig, Options) (*data.Dataset, any, error){
		"LoadBest": func(c RunConfig, o Options) (*data.Dataset, any, error) { return LoadBest(c, o) },
		"LoadInit": func(c RunConfig, o Options) (*data.Dataset, any, error) { return LoadInit(c, o) },
		"LoadLast": func(c RunConfig, o Options) (*data.Dataset, any, error) { return LoadLast(c, o) },
	} {
		_, _, err := load(c, opt)
		var ke *KindError
		if !errors.As(err, &ke) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "shear") || !strings.Contains(err.Error(), `"unet"`) {
			t.Errorf("%s on shear: %v, want a KindError naming it, the testbed and the kind", name, err)
		}
	}
	ds, m, err := LoadBestModel(c, opt)
	if err != nil || m.Spec().StateDim != ds.StateDim {
		t.Fatalf("LoadBestModel: %v", err)
	}
	for name, load := range map[string]func(RunConfig, Options) (*data.Dataset, train.Model, error){
		"LoadInitModel": LoadInitModel, "LoadLastModel": LoadLastModel,
	} {
		ds, m, err := load(c, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := m.(*model.UNet); !ok || m.Spec().StateDim != ds.StateDim {
			t.Errorf("%s: %T of state dimension %d, want the U-Net of %d", name, m, m.Spec().StateDim, ds.StateDim)
		}
	}
	if _, _, err := EvaluateRun(mustDir(t, opt, c), 0, 0, opt); err != nil {
		t.Errorf("EvaluateRun on a shear run: %v", err)
	}
}

func mustDir(t *testing.T, opt Options, c RunConfig) string {
	d, err := opt.Dir(c)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestShearBaselines: the field baselines are zero, damped persistence and the Fourier AR (the
// full-state ridge AR is not attempted), cached like the others.
func TestShearBaselines(t *testing.T) {
	c := tinyShearRun(t, "full")
	opt := shearOptions(t)
	set, err := RunBaselines(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range set.Scores {
		names = append(names, s.Name)
	}
	if want := []string{baseline.NameZero, baseline.NameDamped, baseline.NameFourierAR}; !slices.Equal(names, want) || !slices.Equal(BaselineNamesOf(c.Testbed), want) {
		t.Fatalf("baselines %v, want %v", names, want)
	}
	if z, _ := set.Get(baseline.NameZero); math.Abs(z.Test.RelL2-1) > 1e-12 {
		t.Errorf("zero baseline rel-L2 %v, want 1 (raw fields, the zero forecast)", z.Test.RelL2)
	}
	again, err := RunBaselines(c, opt)
	if err != nil || !again.Reused {
		t.Errorf("second RunBaselines: reused %v, %v", again != nil && again.Reused, err)
	}
	rows := SummarizeBaselines([]*BaselineSet{set})
	if len(rows) != 3 || rows[2].Name != baseline.NameFourierAR {
		t.Errorf("summary rows %+v", rows)
	}
}

// TestShearProfiles: the shear profiles and the others do not mix; shear-paper is the paper's
// field set-up; the samplers that cannot serve a testbed are refused by name.
func TestShearProfiles(t *testing.T) {
	for _, tc := range []struct {
		profile, testbed string
		want             []string
	}{
		{ShearCPU, "mackey-glass", []string{ShearCPU, "shear only", "mackey-glass"}},
		{ShearPaper, "ettm1", []string{ShearPaper, "ettm1"}},
		{Quick, "shear", []string{"spatial field", ShearCPU, ShearPaper, `"quick"`}},
		{PaperCPU, "shear", []string{"spatial field", `"paper-cpu"`}},
	} {
		_, err := Resolve(tc.profile, tc.testbed, "full", 0, 0)
		if err == nil {
			t.Errorf("%s on %s: accepted", tc.profile, tc.testbed)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s on %s: error %q does not mention %q", tc.profile, tc.testbed, err, w)
			}
		}
	}
	p, err := Resolve(ShearPaper, "shear", "dw", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, tr := p.Model, p.Train
	if m.Kind != KindUNet || m.Base != 32 || m.Mult != 2 || m.Frames != 2 || m.Channels != 4 || m.Height != 128 || m.Width != 64 ||
		tr.K != 32 || tr.LR != 3e-4 || tr.BatchSize != 4 || tr.WeightDecay != 0 || tr.Warmup != 8 || tr.Period != 4 || tr.Sampler != noise.SpectralName ||
		p.Data.SeqLen != 64 || p.Data.SeqStride != 16 || p.Data.FieldGrid != data.ShearGridPaper || p.Data.NumTraj != 0 {
		t.Errorf("shear-paper: %+v / %+v / %+v", m, tr, p.Data)
	}
	if tr.LRSchedule != train.LRCosine || tr.LRMin != 1e-6 {
		t.Errorf("shear-paper: LR schedule %q to %v, want the paper's cosine to 1e-6", tr.LRSchedule, tr.LRMin)
	}
	cpu, err := Resolve(ShearCPU, "shear", "tbptt", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cpu.Train.K != 8 || cpu.Model.Height != 16 || cpu.Model.Width != 8 || cpu.Model.Base != 8 || cpu.Model.Depth != 2 || cpu.Train.Segment != 2 {
		t.Errorf("shear-cpu: K %d, %d x %d, base %d, segment %d", cpu.Train.K, cpu.Model.Height, cpu.Model.Width, cpu.Model.Base, cpu.Train.Segment)
	}

	// shear-quick is shear-cpu's smoke size: the same grid and model family, far less of each.
	q, err := Resolve(ShearQuick, "shear", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !IsSmoke(ShearQuick) || IsSmoke(ShearCPU) || q.Train.K != 4 || q.Data.NumTraj != 5 || q.Fit.Epochs != 2 ||
		q.Model.Height != cpu.Model.Height || q.Model.Width != cpu.Model.Width || q.Model.Base >= cpu.Model.Base || q.Train.Sampler != noise.SpectralName {
		t.Errorf("shear-quick: K %d, %d trajectories, %d epochs, %d x %d, base %d, sampler %q", q.Train.K, q.Data.NumTraj, q.Fit.Epochs, q.Model.Height, q.Model.Width, q.Model.Base, q.Train.Sampler)
	}
	// Only shear-paper decays its LR: the CPU sizes keep the constant LR (and their run identities).
	for _, c := range []RunConfig{cpu, q} {
		if c.Train.LRSchedule != "" || c.Train.LRMin != 0 {
			t.Errorf("%s: LR schedule %q to %v, want none", c.Profile, c.Train.LRSchedule, c.Train.LRMin)
		}
	}

	// The spectral sampler on a time series, the DW-Prior banks and a Mamba on a field.
	mg, err := Resolve(Quick, "mackey-glass", "dw", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	mg.Train.Sampler = noise.SpectralName
	if err := mg.Validate(); err == nil || !strings.Contains(err.Error(), "spectral") || !strings.Contains(err.Error(), "mackey-glass") {
		t.Errorf("spectral on mackey-glass: %v", err)
	}
	sh := tinyShearRun(t, "dw")
	sh.Train.Sampler = "prior-ar"
	if err := sh.Validate(); err == nil || !strings.Contains(err.Error(), "prior-ar") {
		t.Errorf("prior-ar on shear: %v", err)
	}
	sh = tinyShearRun(t, "full")
	sh.Model.Kind = "mamba"
	if err := sh.Validate(); err == nil || !strings.Contains(err.Error(), "unet") {
		t.Errorf("mamba on shear: %v", err)
	}
	mg.Train.Sampler = "generic"
	mg.Model.Kind = KindUNet
	if err := mg.Validate(); err == nil || !strings.Contains(err.Error(), "field testbed") {
		t.Errorf("unet on mackey-glass: %v", err)
	}
}

// TestShearConfigFile: a shear run's configuration, as dw config prints it, reads back strictly
// (no U-Net field defaulted) and equal.
func TestShearConfigFile(t *testing.T) {
	for _, p := range FieldProfiles() {
		c, err := Resolve(p, data.ShearName, "dw", 2, 0)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "c.json")
		if err := os.WriteFile(path, c.JSON(), 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := ReadConfig(path)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if string(back.JSON()) != string(c.JSON()) {
			t.Errorf("%s: read back\n%s\nwant\n%s", p, back.JSON(), c.JSON())
		}
		c.Model.Base = 0
		if err := os.WriteFile(path, c.JSON(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadConfig(path); err == nil || !strings.Contains(err.Error(), "model.base") {
			t.Errorf("%s: a base of 0: %v, want a refusal naming model.base", p, err)
		}
	}
}

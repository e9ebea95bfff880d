package model_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/route"
)

func TestDefaultsArePaperValues(t *testing.T) {
	got := model.Config{StateDim: 7}.Defaults()
	want := model.Config{Kind: "mamba", StateDim: 7, Hidden: 128, Layers: 4, SSMState: 16, ConvWidth: 4, Expand: 2,
		Window: 16, BurnIn: 32, DType: dtypes.Float32, Norm: model.NormRMS, Stem: model.StemLinear, Head: model.HeadSiLU, Init: model.InitNormal}
	if got != want {
		t.Errorf("Config{StateDim: 7}.Defaults() =\n %+v\nwant\n %+v", got, want)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	// Set fields are kept.
	set := model.Config{Kind: "mlp", StateDim: 1, DriveDim: 2, Hidden: 8, Layers: 3, SSMState: 5, ConvWidth: 2, Expand: 1,
		Window: 9, BurnIn: 4, DType: dtypes.Float64, Seed: 42, Norm: model.NormLayer, Stem: model.StemLayerNormGELU,
		Head: model.HeadLayerNormGELU, Init: model.InitTorch}
	if got := set.Defaults(); got != set {
		t.Errorf("Defaults() changed set fields: %+v, want %+v", got, set)
	}
	// New applies the defaults too.
	f := newForecaster(t, model.Config{StateDim: 2})
	if f.Config() != (model.Config{StateDim: 2}).Defaults() {
		t.Errorf("New(...).Config() = %+v, want the defaults", f.Config())
	}
	if f.NumLayers() != 4 {
		t.Errorf("NumLayers() = %d, want 4", f.NumLayers())
	}
	if s := f.String(); !strings.HasPrefix(s, "mamba-128 (L=4, D=2, J=0, ") {
		t.Errorf("String() = %q", s)
	}
}

func TestValidateNamesTheBadField(t *testing.T) {
	valid := model.Config{StateDim: 3}.Defaults()
	for _, tc := range []struct {
		name   string
		edit   func(*model.Config)
		errHas []string
	}{
		{"unknown kind", func(c *model.Config) { c.Kind = "transformer" }, []string{`"transformer"`, `"mamba"`, `"mlp"`}},
		{"empty kind", func(c *model.Config) { c.Kind = "" }, []string{"Kind", `"mamba"`}},
		{"hidden 0", func(c *model.Config) { c.Hidden = 0 }, []string{"Config.Hidden = 0"}},
		{"state dim 0", func(c *model.Config) { c.StateDim = 0 }, []string{"Config.StateDim = 0"}},
		{"negative drive", func(c *model.Config) { c.DriveDim = -1 }, []string{"Config.DriveDim = -1"}},
		{"layers 0", func(c *model.Config) { c.Layers = 0 }, []string{"Config.Layers"}},
		{"ssm state 0", func(c *model.Config) { c.SSMState = 0 }, []string{"Config.SSMState"}},
		{"conv width 0", func(c *model.Config) { c.ConvWidth = 0 }, []string{"Config.ConvWidth"}},
		{"expand 0", func(c *model.Config) { c.Expand = 0 }, []string{"Config.Expand"}},
		{"window 0", func(c *model.Config) { c.Window = 0 }, []string{"Config.Window"}},
		{"negative burn-in", func(c *model.Config) { c.BurnIn = -1 }, []string{"Config.BurnIn = -1"}},
		{"int32", func(c *model.Config) { c.DType = dtypes.Int32 }, []string{"Config.DType", "Int32", "Float32 or Float64"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := valid
			tc.edit(&c)
			err := c.Validate()
			if err == nil {
				t.Fatalf("Validate(%+v) = nil, want an error", c)
			}
			for _, s := range tc.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Validate error %q does not contain %q", err, s)
				}
			}
		})
	}
	if err := valid.Validate(); err != nil {
		t.Errorf("Validate(valid) = %v", err)
	}
	// New validates after applying the defaults: a zero stays valid, a negative value does not.
	if _, err := model.New(model.Config{StateDim: 2, Hidden: -1}); err == nil || !strings.Contains(err.Error(), "Hidden") {
		t.Errorf("New with Hidden -1: error %v, want one naming Hidden", err)
	}
	if _, err := model.New(model.Config{StateDim: 2, Kind: "lstm"}); err == nil || !strings.Contains(err.Error(), `"lstm"`) {
		t.Errorf("New with Kind lstm: error %v, want one naming the kind", err)
	}
	if _, err := model.New(model.Config{}); err == nil || !strings.Contains(err.Error(), "StateDim") {
		t.Errorf("New with StateDim 0: error %v, want one naming StateDim", err)
	}
}

// params returns "scope::name" → values of every variable, as float64.
func params(t *testing.T, f *model.Forecaster) (names []string, values map[string][]float64) {
	t.Helper()
	values = map[string][]float64{}
	for _, v := range variables(f) {
		key := v.Path()
		names = append(names, key)
		switch v.DType() {
		case dtypes.Float64:
			values[key] = tensors.MustCopyFlatData[float64](v.MustValue())
		case dtypes.Float32:
			for _, x := range tensors.MustCopyFlatData[float32](v.MustValue()) {
				values[key] = append(values[key], float64(x))
			}
		default:
			t.Fatalf("%s has dtype %s", key, v.DType())
		}
	}
	return names, values
}

func TestSeedDeterminesParameters(t *testing.T) {
	for _, kind := range model.Kinds {
		t.Run(kind, func(t *testing.T) {
			cfg := model.Config{Kind: kind, StateDim: 3, DriveDim: 1, Hidden: 8, Layers: 2, SSMState: 4, DType: dtypes.Float64, Seed: 7}
			names, a := params(t, newForecaster(t, cfg))
			namesB, b := params(t, newForecaster(t, cfg))
			if !slices.Equal(names, namesB) {
				t.Fatalf("same config, different variables: %q vs %q", names, namesB)
			}
			for _, n := range names {
				if !slices.Equal(a[n], b[n]) {
					t.Errorf("%s differs between two forecasters with the same seed", n)
				}
			}

			other := cfg
			other.Seed = 8
			_, c := params(t, newForecaster(t, other))
			differ := 0
			for _, n := range names {
				if !slices.Equal(a[n], c[n]) {
					differ++
				}
			}
			// Every randomly initialised weight matrix must change with the seed.
			for _, n := range names {
				if strings.HasSuffix(n, "::w") && slices.Equal(a[n], c[n]) {
					t.Errorf("%s is the same for seeds 7 and 8", n)
				}
			}
			if differ == 0 {
				t.Errorf("seeds 7 and 8 give identical parameters")
			}

			// Float32 holds the same draws, rounded.
			f32 := cfg
			f32.DType = dtypes.Float32
			_, d := params(t, newForecaster(t, f32))
			for _, n := range names {
				for i := range a[n] {
					if d[n][i] != float64(float32(a[n][i])) {
						t.Fatalf("%s[%d]: Float32 value %g, want float32(%g)", n, i, d[n][i], a[n][i])
					}
				}
			}
		})
	}
}

func TestRouterRolloutMismatch(t *testing.T) {
	f := newForecaster(t, model.Config{Kind: "mlp", StateDim: 2, Hidden: 4, Layers: 2, Window: 2, DType: dtypes.Float64})
	hist := tensors.FromFlatDataAndDimensions(make([]float64, 1*2*2), 1, 2, 2)
	for _, tc := range []struct {
		name        string
		routerK, K  int
		routerL     int
		errContains string
	}{
		{"router K too small", 2, 3, 2, "router covers K=2, L=2 but the rollout needs K=3, L=2"},
		{"router L too small", 3, 3, 1, "router covers K=3, L=1 but the rollout needs K=3, L=2"},
		{"router L too large", 3, 3, 3, "router covers K=3, L=3 but the rollout needs K=3, L=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exec, err := model.NewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, hist, gains *Node) *Node {
				return Stack(f.Rollout(route.NewRouter(gains), model.Inputs{History: hist}, tc.K, model.RolloutOptions{}).Preds, 1)
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = exec.Call(hist, openGains(tc.routerK, tc.routerL))
			if err == nil || !strings.Contains(err.Error(), tc.errContains) {
				t.Errorf("Exec error = %v, want it to contain %q", err, tc.errContains)
			}
		})
	}
	// Built outside an Exec, the mismatch is a panic carrying the same error.
	func() {
		g := NewGraph(backend.MustShared(), "mismatch")
		defer func() {
			err, _ := recover().(error)
			if err == nil || !strings.Contains(err.Error(), "but the rollout needs K=3") {
				t.Errorf("Rollout with a short router recovered %v, want a panic with an error naming K", err)
			}
		}()
		h := Parameter(g, "hist", shapes.Make(dtypes.Float64, 1, 2, 2))
		r := route.NewRouter(Parameter(g, "gains", shapes.Make(dtypes.Float64, 2, 2, 2)))
		f.Rollout(r, model.Inputs{History: h}, 3, model.RolloutOptions{})
	}()

	// A router covering more steps than the rollout uses is fine: its extra steps are unused.
	exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(scope *mlmodel.Scope, hist, gains *Node) *Node {
		return Stack(f.Rollout(route.NewRouter(gains), model.Inputs{History: hist}, 2, model.RolloutOptions{}).Preds, 1)
	})
	out := exec.MustCall(hist, openGains(5, 2))[0]
	if got := fmt.Sprint(out.Shape().Dimensions); got != "[1 2 2]" {
		t.Errorf("rollout with a longer router: output dimensions %s, want [1 2 2]", got)
	}
	for _, x := range tensors.MustCopyFlatData[float64](out) {
		if math.IsNaN(x) {
			t.Fatalf("NaN in rollout output")
		}
	}
}

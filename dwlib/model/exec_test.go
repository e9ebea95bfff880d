package model_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// TestLiveExecSeesSetValue: an executable built once sees every later Variable.SetValue, as a
// fresh one does. On the pure-Go backend GoMLX would otherwise embed the variables as constants
// frozen at the first call (PreferConstantsForVariables): the finite-difference tests then saw a
// central difference of 0.
func TestLiveExecSeesSetValue(t *testing.T) {
	f := newForecaster(t, model.Config{Kind: "mamba", StateDim: 2, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2, Window: 3, DType: dtypes.Float64, Seed: 5})
	build := func() *mlmodel.Exec {
		return model.MustNewLiveExec(backend.MustShared(), f.Store(), func(_ *mlmodel.Scope, hist *Node) *Node {
			return Stack(f.Rollout(nil, model.Inputs{History: hist}, 2, model.RolloutOptions{}).Preds, 1)
		})
	}
	hist := tensors.FromFlatDataAndDimensions([]float64{0.1, -0.2, 0.3, 0.4, -0.5, 0.6}, 1, 3, 2)
	run := func(e *mlmodel.Exec) []float64 { return tensors.MustCopyFlatData[float64](e.MustCall1(hist)) }
	exec := build()
	before := run(exec)
	var changed int
	for _, v := range variables(f) {
		data := values64(t, v)
		for i := range data {
			data[i] = 1.5*data[i] + 0.01
		}
		setValues64(t, v, data)
		changed++
	}
	after, fresh := run(exec), run(build())
	if changed == 0 {
		t.Fatal("the forecaster has no variables")
	}
	if relDiff(after, before) == 0 {
		t.Errorf("predictions unchanged after SetValue on every variable: %v (the executable froze the old values)", after)
	}
	if d := relDiff(after, fresh); d != 0 {
		t.Errorf("the executable built before SetValue gives %v, a fresh one %v (relative difference %g)", after, fresh, d)
	}
}

// TestLiveExecStaysInInference: NewLiveExec leaves the graph out of training mode, NewTrainingExec
// puts it in, and both read every variable as a parameter.
func TestLiveExecStaysInInference(t *testing.T) {
	for _, training := range []bool{false, true} {
		store := mlmodel.NewStore()
		v := store.VariableWithValue("/x", tensors.FromFlatDataAndDimensions([]float64{2}, 1))
		var sawTraining, isParameter bool
		fn := func(scope *mlmodel.Scope, in *Node) *Node {
			sawTraining = scope.IsTraining(in.Graph())
			x := v.NodeValue(in.Graph())
			isParameter = x.Type() == NodeTypeParameter
			return Mul(in, x)
		}
		var exec *mlmodel.Exec
		if training {
			var err error
			if exec, err = model.NewTrainingExec(backend.MustShared(), store, fn); err != nil {
				t.Fatal(err)
			}
		} else {
			exec = model.MustNewLiveExec(backend.MustShared(), store, fn)
		}
		in := tensors.FromFlatDataAndDimensions([]float64{3}, 1)
		first := tensors.MustCopyFlatData[float64](exec.MustCall1(in))[0]
		if err := v.SetValue(tensors.FromFlatDataAndDimensions([]float64{5}, 1)); err != nil {
			t.Fatal(err)
		}
		second := tensors.MustCopyFlatData[float64](exec.MustCall1(in))[0]
		if sawTraining != training || !isParameter || first != 6 || second != 15 {
			t.Errorf("training=%v: graph in training mode %v, variable a parameter %v, outputs %g then %g (want %v, true, 6, 15)",
				training, sawTraining, isParameter, first, second, training)
		}
	}
}

// TestTrainingExecUpdatesVariables: a training graph that updates a variable reads its new value
// on the next call and after an outside SetValue.
func TestTrainingExecUpdatesVariables(t *testing.T) {
	store := mlmodel.NewStore()
	v := store.VariableWithValue("/count", tensors.FromFlatDataAndDimensions([]float64{0}, 1))
	exec, err := model.NewTrainingExec(backend.MustShared(), store, func(_ *mlmodel.Scope, g *Graph) *Node {
		x := v.NodeValue(g)
		v.SetNodeValue(AddScalar(x, 1))
		return x
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for range 3 {
		got = append(got, tensors.MustCopyFlatData[float64](exec.MustCall1())[0])
	}
	if err := v.SetValue(tensors.FromFlatDataAndDimensions([]float64{10}, 1)); err != nil {
		t.Fatal(err)
	}
	got = append(got, tensors.MustCopyFlatData[float64](exec.MustCall1())[0])
	got = append(got, tensors.MustCopyFlatData[float64](v.MustValue())[0])
	if want := []float64{0, 1, 2, 10, 11}; !equalFloats(got, want) {
		t.Errorf("values read by successive calls, then the variable: %v, want %v", got, want)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNoDirectStoreExec: every executable over a store in the project's Go sources (tests
// included) is built with model.NewLiveExec or model.NewTrainingExec (dwlib/model/exec.go), so
// none can freeze variables as constants.
func TestNoDirectStoreExec(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	direct := regexp.MustCompile(`\bmlmodel\.(Must)?NewExec(Canonical)?\b|"github.com/gomlx/gomlx/ml/model"\s*$`)
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "shared") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, ".go") || rel == filepath.Join("dwlib", "model", "exec.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			// An import of ml/model without the mlmodel name would hide the calls from this check.
			if m := direct.FindString(line); m != "" && !strings.Contains(line, `mlmodel "github.com/gomlx/gomlx/ml/model"`) {
				bad = append(bad, rel+":"+strconv.Itoa(i+1)+": "+strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("%s: build executables over a store with model.NewLiveExec or model.NewTrainingExec (and import GoMLX's ml/model as mlmodel)", b)
	}
}

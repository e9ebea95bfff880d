package train

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// ModelScope is the store scope of the forecaster's parameters (dwlib/model); everything else
// in a training store (Adam's moments, step counters, the learning rate) is optimizer state.
const ModelScope = model.ModelScope

// savedVar is one store variable's value, exactly (no conversion).
type savedVar struct {
	Scope, Name string
	DType       string
	Dims        []int
	Trainable   bool
	F32         []float32
	F64         []float64
	I64         []int64
}

// path is the variable's full path; a root-scope variable (GoMLX's "/global_step", the optimizer
// step count) is "/name", not "//name" (which would restore it as another variable).
func (v savedVar) path() string {
	if v.Scope == "/" {
		return "/" + v.Name
	}
	return v.Scope + "/" + v.Name
}

func inScope(scope, prefix string) bool {
	return prefix == "" || scope == prefix || strings.HasPrefix(scope, prefix+"/")
}

// saveVars copies the values of the variables under prefix ("" for all), in store (creation) order.
func saveVars(store *mlmodel.Store, prefix string) ([]savedVar, error) {
	var out []savedVar
	for v := range store.IterVariables() {
		if !inScope(v.Scope(), prefix) {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("train: reading variable %s: %w", v.Path(), err)
		}
		sv := savedVar{Scope: v.Scope(), Name: v.Name(), DType: t.DType().String(), Dims: t.Shape().Dimensions, Trainable: v.Trainable}
		switch t.DType() {
		case dtypes.Float32:
			sv.F32 = tensors.MustCopyFlatData[float32](t)
		case dtypes.Float64:
			sv.F64 = tensors.MustCopyFlatData[float64](t)
		case dtypes.Int64:
			sv.I64 = tensors.MustCopyFlatData[int64](t)
		default:
			return nil, fmt.Errorf("train: variable %s has dtype %s, which checkpoints do not store", v.Path(), t.DType())
		}
		out = append(out, sv)
	}
	return out, nil
}

func (v savedVar) tensor() (*tensors.Tensor, error) {
	n := 1
	for _, d := range v.Dims {
		n *= d
	}
	var got int
	var t *tensors.Tensor
	switch v.DType {
	case dtypes.Float32.String():
		got, t = len(v.F32), tensors.FromFlatDataAndDimensions(append([]float32(nil), v.F32...), v.Dims...)
	case dtypes.Float64.String():
		got, t = len(v.F64), tensors.FromFlatDataAndDimensions(append([]float64(nil), v.F64...), v.Dims...)
	case dtypes.Int64.String():
		got, t = len(v.I64), tensors.FromFlatDataAndDimensions(append([]int64(nil), v.I64...), v.Dims...)
	default:
		return nil, fmt.Errorf("variable %s: unknown dtype %q", v.path(), v.DType)
	}
	if got != n {
		return nil, fmt.Errorf("variable %s: %d values for shape %v", v.path(), got, v.Dims)
	}
	return t, nil
}

// checkVars verifies that saved can be loaded into store: every saved variable that already exists
// there has the same dtype and shape, and with requireAll every existing variable under ModelScope
// is in saved. It changes nothing.
func checkVars(store *mlmodel.Store, saved []savedVar, requireAll bool) error {
	seen := map[string]bool{}
	for _, sv := range saved {
		if _, err := sv.tensor(); err != nil {
			return err
		}
		seen[sv.path()] = true
		v := store.GetVariable(sv.path())
		if v == nil {
			if inScope(sv.Scope, ModelScope) {
				return fmt.Errorf("variable %s is in the checkpoint but not in the model", sv.path())
			}
			continue
		}
		sh := v.Shape()
		if sh.DType.String() != sv.DType || !slices.Equal(sh.Dimensions, sv.Dims) {
			return fmt.Errorf("variable %s: checkpoint has %s%v, model has %s%v", sv.path(), sv.DType, sv.Dims, sh.DType, sh.Dimensions)
		}
	}
	if requireAll {
		for v := range store.IterVariables() {
			if inScope(v.Scope(), ModelScope) && !seen[v.Scope()+"/"+v.Name()] {
				return fmt.Errorf("variable %s of the model is missing from the checkpoint", v.Path())
			}
		}
	}
	return nil
}

// loadVars sets the saved values, creating variables that do not exist yet (the optimizer's,
// before its first step). Call checkVars first: loadVars assumes the values fit.
func loadVars(store *mlmodel.Store, saved []savedVar, create bool) error {
	for _, sv := range saved {
		t, err := sv.tensor()
		if err != nil {
			return err
		}
		v := store.GetVariable(sv.path())
		if v == nil {
			if !create {
				return fmt.Errorf("variable %s does not exist", sv.path())
			}
			store.VariableWithValue(sv.path(), t).SetTrainable(sv.Trainable)
			continue
		}
		if err := v.SetValue(t); err != nil {
			return fmt.Errorf("variable %s: %w", sv.path(), err)
		}
	}
	return nil
}

// sameVars reports whether two saved variable lists hold the same variables with bit-identical
// values (NaN payloads included), in the same order.
func sameVars(a, b []savedVar) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.path() != y.path() || x.DType != y.DType || !slices.Equal(x.Dims, y.Dims) || x.Trainable != y.Trainable ||
			!slices.Equal(x.I64, y.I64) || len(x.F32) != len(y.F32) || len(x.F64) != len(y.F64) {
			return false
		}
		for j := range x.F32 {
			if math.Float32bits(x.F32[j]) != math.Float32bits(y.F32[j]) {
				return false
			}
		}
		for j := range x.F64 {
			if math.Float64bits(x.F64[j]) != math.Float64bits(y.F64[j]) {
				return false
			}
		}
	}
	return true
}

package knownsnr

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// paramVJP computes ∇_θ Σ_{i,k} ⟨c_{i,k}, x̂_{i,k}⟩ for a cotangent c on the K-step rollout of a
// fixed batch of windows: the parameter gradient of any loss whose derivative with respect to the
// predictions is c. All trainable parameters are flattened, in context order, to one float64
// vector. The rollout is plain BPTT (every route open).
type paramVJP struct {
	f       *model.Forecaster
	exec    *mlmodel.Exec
	N, W, K int
	P       int
}

func newParamVJP(bk compute.Backend, f *model.Forecaster, N, K int) (*paramVJP, error) {
	v := &paramVJP{f: f, N: N, W: f.Config().Window, K: K}
	exec, err := model.NewLiveExec(bk, f.Store(), func(scope *mlmodel.Scope, hist, cot *Node) *Node {
		ro := f.Rollout(nil, model.Inputs{History: hist}, K, model.RolloutOptions{})
		pred := Stack(ro.Preds, 1)
		loss := ReduceAllSum(Mul(pred, ConvertDType(cot, pred.DType())))
		grads := scope.BuildTrainableVariablesGradientsGraph(loss)
		flat := make([]*Node, len(grads))
		for i, g := range grads {
			flat[i] = ConvertDType(Reshape(g, -1), dtypes.Float64)
		}
		return Concatenate(flat, 0)
	})
	if err != nil {
		return nil, err
	}
	v.exec = exec
	for vr := range f.Store().IterVariables() {
		if vr.Trainable {
			v.P += vr.Shape().Size()
		}
	}
	return v, nil
}

// apply returns the flattened parameter gradient for hist [N, W, D] and cot [N, K, D].
func (v *paramVJP) apply(hist, cot []float64) ([]float64, error) {
	D := v.f.Config().StateDim
	if len(hist) != v.N*v.W*D || len(cot) != v.N*v.K*D {
		return nil, fmt.Errorf("knownsnr: VJP inputs of %d and %d values, want %d and %d", len(hist), len(cot), v.N*v.W*D, v.N*v.K*D)
	}
	dt := v.f.Config().DType
	outs, err := v.exec.Call(train.ToTensor(dt, hist, v.N, v.W, D), train.ToTensor(dt, cot, v.N, v.K, D))
	if err != nil {
		return nil, fmt.Errorf("knownsnr: gradient: %w", err)
	}
	defer outs[0].FinalizeAll()
	g := tensors.MustCopyFlatData[float64](outs[0])
	if len(g) != v.P {
		return nil, fmt.Errorf("knownsnr: gradient has %d coordinates, the model %d trainable parameters", len(g), v.P)
	}
	return g, nil
}

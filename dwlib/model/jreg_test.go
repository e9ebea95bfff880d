package model_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// TestJacobianGainCentral checks the authors' JReg gain against the exact Jacobian: with a
// one-step window (zero recurrent state, as in Step), RMS_d of the central difference along
// u ∈ {±1}^D must equal ‖J u‖/√D, with J = ∂step/∂x from automatic differentiation, up to the
// O(ε²) error of the difference. Only one gain (the first rollout step) is returned.
func TestJacobianGainCentral(t *testing.T) {
	const N, D = 3, 3
	for _, cfg := range []model.Config{
		{Kind: "mlp", StateDim: D, Hidden: 6, Layers: 2, Window: 1},
		model.AuthorsArchitecture(model.Config{Kind: "mamba", StateDim: D, DriveDim: 1, Hidden: 6, Layers: 2, SSMState: 2, ConvWidth: 2, Window: 1}),
	} {
		t.Run(cfg.Kind, func(t *testing.T) {
			cfg.DType, cfg.Seed = dtypes.Float64, 4
			f := newForecaster(t, cfg)
			rng := rand.New(rand.NewPCG(2, 9))
			perturbVariables(t, f, rng, 0.3)
			x := randn(rng, N*D, 1)
			drive := randn(rng, N*3*max(cfg.DriveDim, 1), 1)
			u := make([]float64, N*D)
			for i := range u {
				u[i] = float64(2*rng.IntN(2) - 1)
			}
			exec := model.MustNewLiveExec(backend.MustShared(), f.Store(), func(_ *mlmodel.Scope, in []*Node) []*Node {
				hist, dr, dir := in[0], in[1], in[2]
				var d *Node
				if cfg.DriveDim > 0 {
					d = dr
				}
				ro := f.Rollout(nil, model.Inputs{History: hist, Drive: d}, 3,
					model.RolloutOptions{JacobianDirection: dir, JacobianEps: 1e-3, JacobianAuthors: true})
				// Exact J u per row from autodiff: rows are independent, so ∂(Σ_i step_i,j)/∂x_i = J_i[j, :].
				x0 := Reshape(hist, N, D)
				var d0 *Node
				if d != nil {
					d0 = Reshape(Slice(d, AxisRange(), AxisElem(0), AxisRange()), N, cfg.DriveDim)
				}
				step := f.Step(x0, d0)
				var ju []*Node
				for j := range D {
					row := Gradient(ReduceAllSum(Slice(step, AxisRange(), AxisElem(j))), x0)[0] // [N, D]
					ju = append(ju, ReduceSum(Mul(row, dir), -1))
				}
				exact := DivScalar(Sqrt(ReduceSum(Mul(Stack(ju, 1), Stack(ju, 1)), -1)), math.Sqrt(D))
				return append([]*Node{exact}, ro.JacobianNorms...)
			})
			dd := max(cfg.DriveDim, 1)
			out := exec.MustCall(tensors.FromFlatDataAndDimensions(x, N, 1, D), tensors.FromFlatDataAndDimensions(drive, N, 3, dd),
				tensors.FromFlatDataAndDimensions(u, N, D))
			if len(out) != 2 {
				t.Fatalf("%d JReg gains, want 1 (first rollout step only)", len(out)-1)
			}
			exact, got := tensors.MustCopyFlatData[float64](out[0]), tensors.MustCopyFlatData[float64](out[1])
			for i := range exact {
				if math.Abs(got[i]-exact[i]) > 1e-5*math.Max(1, exact[i]) || exact[i] == 0 {
					t.Errorf("row %d: central-difference gain %.9g, exact ‖Ju‖/√D %.9g", i, got[i], exact[i])
				}
			}
		})
	}
}

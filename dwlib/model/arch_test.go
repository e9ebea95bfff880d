package model

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
)

// TestLayerNormAndGELUByHand checks the two new pieces against values worked out by hand:
// LayerNorm of (1, 2, 3, 6) is (x − 3)/√(3.5 + 1e-5), then ·g + b; GELU(x) = ½x(1 + erf(x/√2)).
func TestLayerNormAndGELUByHand(t *testing.T) {
	store := mlmodel.NewStore()
	p := &paramInit{store: store, dtype: dtypes.Float64}
	gain := p.variable("ln", "g", []float64{1, 2, 1, 1}, 4)
	bias := p.variable("ln", "b", []float64{0, 0, 1, 0}, 4)
	exec := MustNewLiveExec(backend.MustShared(), store, func(_ *mlmodel.Scope, x *Node) (*Node, *Node) {
		return layerNorm(x, gain, bias), gelu(x)
	})
	x := []float64{1, 2, 3, 6}
	ln, ge := exec.MustCall2(tensors.FromFlatDataAndDimensions(x, 1, 4))
	gotLN, gotGE := tensors.MustCopyFlatData[float64](ln), tensors.MustCopyFlatData[float64](ge)
	sd := math.Sqrt(3.5 + 1e-5) // mean 3, biased variance (4+1+0+9)/4 = 3.5
	wantLN := []float64{-2 / sd, 2 * -1 / sd, 0 + 1, 3 / sd}
	for i := range x {
		if math.Abs(gotLN[i]-wantLN[i]) > 1e-12 {
			t.Errorf("LayerNorm[%d] = %.15g, want %.15g", i, gotLN[i], wantLN[i])
		}
		want := 0.5 * x[i] * (1 + math.Erf(x[i]/math.Sqrt2))
		if math.Abs(gotGE[i]-want) > 1e-12 {
			t.Errorf("GELU(%g) = %.15g, want %.15g", x[i], gotGE[i], want)
		}
	}
}

// TestTorchInitialisation: under InitTorch every Linear weight and bias lies in ±1/√fan_in with
// the spread of a uniform law (sd = bound/√3), the convolution's in ±1/√width, norms start at gain
// 1 and bias 0, and Mamba's Δ bias, A and D keep their own initialisation.
func TestTorchInitialisation(t *testing.T) {
	f, err := New(AuthorsArchitecture(Config{StateDim: 8, Hidden: 32, Seed: 3}))
	if err != nil {
		t.Fatal(err)
	}
	values := func(path string) []float64 {
		v := f.Store().GetVariable(ModelScope + "/" + path)
		if v == nil {
			t.Fatalf("no variable %s", path)
		}
		out := []float64{}
		for _, x := range tensors.MustCopyFlatData[float32](v.MustValue()) {
			out = append(out, float64(x))
		}
		return out
	}
	for _, tc := range []struct {
		path  string
		fanIn int
	}{
		{"read_in/w", 8}, {"read_in/b", 8}, {"block0/in_x/w", 32}, {"block2/out/w", 64}, {"block1/dt1/w", 64},
		{"block0/dt2/w", 2}, {"block3/conv/w0", 4}, {"block3/conv/b", 4}, {"read_out1/w", 32}, {"read_out2/w", 32}, {"read_out2/b", 32},
	} {
		xs := values(tc.path)
		bound := 1 / math.Sqrt(float64(tc.fanIn))
		ss := 0.0
		for _, x := range xs {
			if math.Abs(x) > bound {
				t.Fatalf("%s: %g outside ±%g", tc.path, x, bound)
			}
			ss += x * x
		}
		if sd, want := math.Sqrt(ss/float64(len(xs))), bound/math.Sqrt(3); len(xs) >= 64 && math.Abs(sd-want) > 0.25*want {
			t.Errorf("%s: sd %g, want about %g (uniform ±%g)", tc.path, sd, want, bound)
		}
	}
	for _, path := range []string{"block0/norm/g", "read_in_norm/g", "read_out_norm/g", "block1/ssm/D"} {
		for _, x := range values(path) {
			if x != 1 {
				t.Fatalf("%s starts at %g, want 1", path, x)
			}
		}
	}
	for _, path := range []string{"block0/norm/b", "read_in_norm/b", "read_out_norm/b"} {
		for _, x := range values(path) {
			if x != 0 {
				t.Fatalf("%s starts at %g, want 0", path, x)
			}
		}
	}
	for _, x := range values("block0/dt2/b") { // softplus(b) = Δ ∈ [1e-3, 1e-1]
		if dt := math.Log1p(math.Exp(x)); dt < 1e-3*(1-1e-5) || dt > 1e-1*(1+1e-5) {
			t.Fatalf("Δ bias gives Δ = %g, outside [1e-3, 1e-1]", dt)
		}
	}
}

// TestErfFloat64MatchesMathErf: the float64 erf of the exact GELU (erf.go) is math.Erf to a few
// units in the last place on both sides of every branch boundary, in plain and SIMD builds alike,
// and its gradient is 2/√π·e^{−x²}.
func TestErfFloat64MatchesMathErf(t *testing.T) {
	var xs []float64
	for x := -7.0; x <= 7.0; x += 0.0037 {
		xs = append(xs, x)
	}
	for _, b := range []float64{0, 0.84375, 1.25, 1 / 0.35, 6} {
		for _, d := range []float64{-1e-12, 0, 1e-12} {
			xs = append(xs, b+d, -b-d)
		}
	}
	xs = append(xs, 1e-300, -1e-20, 30)
	exec := MustNewExec(backend.MustShared(), func(x *Node) (*Node, *Node) {
		y := erf(x)
		return y, Gradient(ReduceAllSum(y), x)[0]
	})
	outs := exec.MustExec(tensors.FromFlatDataAndDimensions(xs, len(xs)))
	got, grad := tensors.MustCopyFlatData[float64](outs[0]), tensors.MustCopyFlatData[float64](outs[1])
	var worst, worstGrad float64
	for i, x := range xs {
		worst = max(worst, math.Abs(got[i]-math.Erf(x)))
		worstGrad = max(worstGrad, math.Abs(grad[i]-2/math.SqrtPi*math.Exp(-x*x)))
	}
	if worst > 1e-15 || worstGrad > 1e-14 {
		t.Errorf("erf(x) − math.Erf(x) up to %.3g, gradient error up to %.3g (want ≤ 1e-15, 1e-14)", worst, worstGrad)
	}
	t.Logf("%d points: |erf − math.Erf| ≤ %.3g, gradient error ≤ %.3g", len(xs), worst, worstGrad)
}

package diag_test

import (
	"math"
	"math/rand/v2"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/diag"
	"github.com/internal-dw/dwgo/dwlib/route"
)

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// TestToyJFTFiniteDifferences validates the hand-written J_Fᵀv against central differences of
// vᵀF(x): the reference the routed graph is compared with must itself be right.
func TestToyJFTFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	b := diag.NewToyBlock(3, 4, 0.8, 1)
	for range 5 {
		x, v := randVec(rng, 3), randVec(rng, 3)
		got := b.JFT(x, v)
		const h = 1e-6
		for i := range x {
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[i] += h
			xm[i] -= h
			fp, fm := b.FValue(xp), b.FValue(xm)
			fd := 0.0
			for k := range v {
				fd += v[k] * (fp[k] - fm[k]) / (2 * h)
			}
			if !close(got[i], fd, 1e-8) {
				t.Errorf("J_Fᵀv[%d] = %v, finite difference %v", i, got[i], fd)
			}
		}
	}
}

// routedToy runs y = route.Block(x, toy.Graph, α, m) and dx = ∂(vᵀy)/∂x in GoMLX for each gain
// pair, with one compiled graph (gains are inputs).
func routedToy(t *testing.T, b diag.ToyBlock, x, v []float64, gains [][2]float64) (ys, dxs [][]float64) {
	t.Helper()
	exec := MustNewExec(backend.MustShared(), func(x, v, alpha, m *Node) (*Node, *Node) {
		y := route.Block(x, b.Graph, alpha, m)
		return y, Gradient(ReduceAllSum(Mul(y, v)), x)[0]
	})
	for _, g := range gains {
		y, dx := exec.MustCall2(
			tensors.FromFlatDataAndDimensions(append([]float64(nil), x...), 1, len(x)),
			tensors.FromFlatDataAndDimensions(append([]float64(nil), v...), 1, len(v)),
			g[0], g[1])
		ys = append(ys, tensors.MustCopyFlatData[float64](y))
		dxs = append(dxs, tensors.MustCopyFlatData[float64](dx))
	}
	return ys, dxs
}

// TestToyRoutedBlock checks the paper's Eq. dual-route-jacobian on the toy block: the forward value
// of route.Block is x + F(x) whatever the gains, and its backward is α·v + m·J_Fᵀv.
func TestToyRoutedBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	b := diag.NewToyBlock(3, 5, 0.7, 2)
	x, v := randVec(rng, 3), randVec(rng, 3)
	gains := [][2]float64{{1, 1}, {0, 0}, {0.3, 0.8}, {1, 0}, {0, 1}, {0.9, 0.2}}
	ys, dxs := routedToy(t, b, x, v, gains)
	f, jft := b.FValue(x), b.JFT(x, v)
	for n, g := range gains {
		for k := range x {
			if !close(ys[n][k], x[k]+f[k], 1e-14) {
				t.Errorf("gains %v: y[%d] = %v, want x + F(x) = %v", g, k, ys[n][k], x[k]+f[k])
			}
			if ys[n][k] != ys[0][k] {
				t.Errorf("gains %v: forward y[%d] = %v changed from %v at gains (1,1)", g, k, ys[n][k], ys[0][k])
			}
			want := g[0]*v[k] + g[1]*jft[k]
			if !close(dxs[n][k], want, 1e-12) {
				t.Errorf("gains %v: dx[%d] = %v, want α v + m J_Fᵀv = %v", g, k, dxs[n][k], want)
			}
			// The check must tell the routes apart: swapping α and m changes the answer.
			if g[0] != g[1] && close(dxs[n][k], g[1]*v[k]+g[0]*jft[k], 1e-9) && math.Abs(v[k]-jft[k]) > 1e-6 {
				t.Errorf("gains %v: dx[%d] also matches the swapped routes", g, k)
			}
		}
	}
}

func TestToyGraphFloat32(t *testing.T) {
	b := diag.NewToyBlock(2, 3, 1, 3)
	x := []float32{0.5, -1}
	exec := MustNewExec(backend.MustShared(), b.Graph)
	got := tensors.MustCopyFlatData[float32](exec.MustCall1(tensors.FromFlatDataAndDimensions(x, 1, 2)))
	want := b.FValue([]float64{0.5, -1})
	for k := range want {
		if math.Abs(float64(got[k])-want[k]) > 1e-6 {
			t.Errorf("float32 F[%d] = %v, want %v", k, got[k], want[k])
		}
	}
}

package route

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/backend"
)

// The test model is a K-step autoregressive rollout of a 2-layer residual stepper:
//
//	z_0 = x_k;  layer 0 (with recurrent state h):  a = z W0 + h P + b0,  s = tanh(a),
//	            F0 = s U0,  h' = s;
//	            layer 1:  a = z W1 + b1,  s = tanh(a),  F1 = s U1;
//	z_{l+1} = z_l + F_l(z_l);   x_{k+1} = x_k + z_2 R   (outer update, not routed);
//	loss = ½ Σ_k ‖x_{k+1} − T_k‖².
//
// handBackprop writes its routed backward pass by hand, so the GoMLX graph is checked against an
// independent derivation of v ↦ α v + m J_Fᵀ v with F's parameters seeing v unscaled and the
// recurrent state routed with m.
const (
	nBatch, dState, hidden, kSteps, lLayers = 2, 3, 4, 3, 2
)

type mat struct {
	r, c int
	v    []float64
}

func newMat(r, c int) mat { return mat{r, c, make([]float64, r*c)} }
func randMat(rng *rand.Rand, r, c int, scale float64) mat {
	m := newMat(r, c)
	for i := range m.v {
		m.v[i] = scale * rng.NormFloat64()
	}
	return m
}
func (a mat) at(i, j int) float64 { return a.v[i*a.c+j] }
func mul(a, b mat) mat { // a·b
	out := newMat(a.r, b.c)
	for i := 0; i < a.r; i++ {
		for j := 0; j < b.c; j++ {
			s := 0.0
			for k := 0; k < a.c; k++ {
				s += a.at(i, k) * b.at(k, j)
			}
			out.v[i*out.c+j] = s
		}
	}
	return out
}
func mulT(a, b mat) mat { // a·bᵀ
	out := newMat(a.r, b.r)
	for i := 0; i < a.r; i++ {
		for j := 0; j < b.r; j++ {
			s := 0.0
			for k := 0; k < a.c; k++ {
				s += a.at(i, k) * b.at(j, k)
			}
			out.v[i*out.c+j] = s
		}
	}
	return out
}
func tMul(a, b mat) mat { // aᵀ·b
	out := newMat(a.c, b.c)
	for i := 0; i < a.c; i++ {
		for j := 0; j < b.c; j++ {
			s := 0.0
			for k := 0; k < a.r; k++ {
				s += a.at(k, i) * b.at(k, j)
			}
			out.v[i*out.c+j] = s
		}
	}
	return out
}
func zip(a, b mat, f func(x, y float64) float64) mat {
	out := newMat(a.r, a.c)
	for i := range a.v {
		out.v[i] = f(a.v[i], b.v[i])
	}
	return out
}
func add(a, b mat) mat { return zip(a, b, func(x, y float64) float64 { return x + y }) }
func sub(a, b mat) mat { return zip(a, b, func(x, y float64) float64 { return x - y }) }
func scale(s float64, a mat) mat {
	out := newMat(a.r, a.c)
	for i := range a.v {
		out.v[i] = s * a.v[i]
	}
	return out
}
func addBias(a mat, b mat) mat {
	out := newMat(a.r, a.c)
	for i := range a.v {
		out.v[i] = a.v[i] + b.v[i%a.c]
	}
	return out
}
func colSum(a mat) mat {
	out := newMat(1, a.c)
	for i := range a.v {
		out.v[i%a.c] += a.v[i]
	}
	return out
}
func dot(a, b mat) float64 {
	s := 0.0
	for i := range a.v {
		s += a.v[i] * b.v[i]
	}
	return s
}

// params of the test model, in a fixed order shared with the graph.
type params struct {
	W, U, B [lLayers]mat
	P, R    mat
}

func (p params) list() []mat {
	return []mat{p.W[0], p.U[0], p.B[0], p.W[1], p.U[1], p.B[1], p.P, p.R}
}

func newParams(rng *rand.Rand) params {
	var p params
	for l := range lLayers {
		p.W[l] = randMat(rng, dState, hidden, 0.6)
		p.U[l] = randMat(rng, hidden, dState, 0.6)
		p.B[l] = randMat(rng, 1, hidden, 0.3)
	}
	p.P = randMat(rng, hidden, hidden, 0.4)
	p.R = randMat(rng, dState, dState, 0.5)
	return p
}

// handBackprop returns the loss, the routed parameter gradients (same order as params.list) and
// the open-route probe moments per (k, l) for the probe q = loss (meaningful when gains are 1).
func handBackprop(p params, x0 mat, targets []mat, gains [kSteps][lLayers][2]float64) (float64, []mat, [kSteps][lLayers][3]float64) {
	type layerCache struct{ z, s mat }
	xs := []mat{x0}
	caches := make([][lLayers]layerCache, kSteps)
	hPrev := make([]mat, kSteps+1)
	hPrev[0] = newMat(nBatch, hidden)
	zLast := make([]mat, kSteps)
	loss := 0.0
	for k := range kSteps {
		z := xs[k]
		for l := range lLayers {
			a := addBias(mul(z, p.W[l]), p.B[l])
			if l == 0 {
				a = add(a, mul(hPrev[k], p.P))
			}
			s := zip(a, a, func(x, _ float64) float64 { return math.Tanh(x) })
			caches[k][l] = layerCache{z, s}
			if l == 0 {
				hPrev[k+1] = s
			}
			z = add(z, mul(s, p.U[l]))
		}
		zLast[k] = z
		xs = append(xs, add(xs[k], mul(z, p.R)))
		r := sub(xs[k+1], targets[k])
		loss += 0.5 * dot(r, r)
	}

	grads := make([]mat, 8)
	for i, m := range p.list() {
		grads[i] = newMat(m.r, m.c)
	}
	var moments [kSteps][lLayers][3]float64
	gxNext := newMat(nBatch, dState) // dL/dx_{k+1} from steps after k.
	gh := newMat(nBatch, hidden)     // gradient arriving at h' of step k from step k+1 (already routed).
	for k := kSteps - 1; k >= 0; k-- {
		g := add(gxNext, sub(xs[k+1], targets[k]))
		grads[7] = add(grads[7], tMul(zLast[k], g))
		v := mulT(g, p.R) // at z_L
		for l := lLayers - 1; l >= 0; l-- {
			c := caches[k][l]
			wi, ui, bi := 3*l, 3*l+1, 3*l+2
			grads[ui] = add(grads[ui], tMul(c.s, v))
			gs := mulT(v, p.U[l])
			if l == 0 {
				gs = add(gs, gh)
			}
			ga := zip(gs, c.s, func(g, s float64) float64 { return g * (1 - s*s) })
			grads[wi] = add(grads[wi], tMul(c.z, ga))
			grads[bi] = add(grads[bi], colSum(ga))
			jftv := mulT(ga, p.W[l])
			moments[k][l] = [3]float64{dot(v, v) / dState, dot(v, jftv) / dState, dot(jftv, jftv) / dState}
			alpha, m := gains[k][l][0], gains[k][l][1]
			if l == 0 {
				grads[6] = add(grads[6], tMul(hPrev[k], ga))
				gh = scale(m, mulT(ga, p.P)) // state routed with m
			}
			v = add(scale(alpha, v), scale(m, jftv))
		}
		gxNext = add(g, v) // outer update open: dx_{k+1}/dx_k = I + dz_L/dx_k
	}
	return loss, grads, moments
}

// buildLoss builds the same model in GoMLX, routed through a Router when routed is true and with
// plain residual additions otherwise.
func buildLoss(ps []*Node, x0 *Node, targets []*Node, gains *Node, routed bool) (*Node, *Router) {
	W, U, B := [lLayers]*Node{ps[0], ps[3]}, [lLayers]*Node{ps[1], ps[4]}, [lLayers]*Node{ps[2], ps[5]}
	P, R := ps[6], ps[7]
	var router *Router
	if routed {
		router = NewRouter(gains)
	}
	g := x0.Graph()
	h := Zeros(g, shapes.Make(dtypes.Float64, nBatch, hidden))
	x := x0
	loss := ScalarZero(g, dtypes.Float64)
	for k := range kSteps {
		z := x
		for l := range lLayers {
			if l == 0 {
				f := func(z *Node, h []*Node) (*Node, []*Node) {
					s := Tanh(Add(Add(MatMul(z, W[0]), MatMul(h[0], P)), B[0]))
					return MatMul(s, U[0]), []*Node{s}
				}
				if routed {
					var hs []*Node
					z, hs = router.BlockWithState(k, 0, z, []*Node{h}, f)
					h = hs[0]
				} else {
					out, hNext := f(z, []*Node{h})
					z, h = Add(z, out), hNext[0]
				}
				continue
			}
			f := func(z *Node) *Node { return MatMul(Tanh(Add(MatMul(z, W[l]), B[l])), U[l]) }
			if routed {
				z = router.Block(k, l, z, f)
			} else {
				z = Add(z, f(z))
			}
		}
		x = Add(x, MatMul(z, R))
		r := Sub(x, targets[k])
		loss = Add(loss, MulScalar(ReduceAllSum(Mul(r, r)), 0.5))
	}
	return loss, router
}

type fixture struct {
	p       params
	x0      mat
	targets []mat
	gains   [kSteps][lLayers][2]float64
}

func newFixture(seed uint64) fixture {
	rng := rand.New(rand.NewPCG(seed, 7))
	f := fixture{p: newParams(rng), x0: randMat(rng, nBatch, dState, 1)}
	for range kSteps {
		f.targets = append(f.targets, randMat(rng, nBatch, dState, 1))
	}
	for k := range kSteps {
		for l := range lLayers {
			f.gains[k][l] = [2]float64{0.1 + 0.8*rng.Float64(), 0.1 + 0.8*rng.Float64()}
		}
	}
	return f
}

func toTensor(m mat) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(append([]float64(nil), m.v...), m.r, m.c)
}

func gainsTensor(g [kSteps][lLayers][2]float64) *tensors.Tensor {
	flat := make([]float64, 0, kSteps*lLayers*2)
	for k := range kSteps {
		for l := range lLayers {
			flat = append(flat, g[k][l][0], g[k][l][1])
		}
	}
	return tensors.FromFlatDataAndDimensions(flat, kSteps, lLayers, 2)
}

func (f fixture) args(gains [kSteps][lLayers][2]float64) []any {
	var args []any
	for _, m := range f.p.list() {
		args = append(args, toTensor(m))
	}
	args = append(args, toTensor(f.x0))
	for _, t := range f.targets {
		args = append(args, toTensor(t))
	}
	return append(args, gainsTensor(gains))
}

// graphOutputs runs the GoMLX model and returns loss, parameter gradients and, if probe, the probe
// moments of q = loss.
func graphOutputs(t *testing.T, f fixture, gains [kSteps][lLayers][2]float64, routed, open, probe bool) (loss float64, grads [][]float64, moments []float64) {
	t.Helper()
	exec := MustNewExec(backend.MustShared(), func(in []*Node) []*Node {
		ps, x0, targets, g := in[:8], in[8], in[9:9+kSteps], in[9+kSteps]
		l, router := buildLoss(ps, x0, targets, g, routed)
		var gr []*Node
		if open {
			gr = OpenGradient(l, ps...)
		} else {
			gr = Gradient(l, ps...)
		}
		out := append([]*Node{l}, gr...)
		if probe {
			out = append(out, router.ProbeMoments(l))
		}
		return out
	})
	outs := exec.MustCall(f.args(gains)...)
	loss = tensors.ToScalar[float64](outs[0])
	for _, o := range outs[1:9] {
		grads = append(grads, tensors.MustCopyFlatData[float64](o))
	}
	if probe {
		moments = tensors.MustCopyFlatData[float64](outs[9])
	}
	return
}

func ones() (g [kSteps][lLayers][2]float64) {
	for k := range kSteps {
		for l := range lLayers {
			g[k][l] = [2]float64{1, 1}
		}
	}
	return
}

func swapped(g [kSteps][lLayers][2]float64) [kSteps][lLayers][2]float64 {
	for k := range kSteps {
		for l := range lLayers {
			g[k][l][0], g[k][l][1] = g[k][l][1], g[k][l][0]
		}
	}
	return g
}

func maxRelErr(got [][]float64, want []mat) float64 {
	worst := 0.0
	for i := range want {
		for j, w := range want[i].v {
			worst = math.Max(worst, math.Abs(got[i][j]-w)/math.Max(1, math.Abs(w)))
		}
	}
	return worst
}

func TestRoutedGradientsMatchHandBackprop(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		f := newFixture(seed)
		wantLoss, want, _ := handBackprop(f.p, f.x0, f.targets, f.gains)
		loss, got, _ := graphOutputs(t, f, f.gains, true, false, false)
		if math.Abs(loss-wantLoss) > 1e-12*math.Max(1, wantLoss) {
			t.Errorf("seed %d: loss %.15g, hand-written forward %.15g", seed, loss, wantLoss)
		}
		if e := maxRelErr(got, want); e > 1e-10 {
			t.Errorf("seed %d: routed gradients differ from the hand-written routed backprop by %g", seed, e)
		}
		// The check must be able to fail: swapping α and m changes the routed gradient.
		_, wrong, _ := handBackprop(f.p, f.x0, f.targets, swapped(f.gains))
		if e := maxRelErr(got, wrong); e < 1e-4 {
			t.Errorf("seed %d: gradients also match the α/m-swapped backprop (err %g): the check cannot tell the routes apart", seed, e)
		}
	}
}

// TestHandBackpropMatchesFiniteDifferences validates the reference itself: with all gains 1 the
// hand-written backward must be the true gradient of the loss.
func TestHandBackpropMatchesFiniteDifferences(t *testing.T) {
	f := newFixture(4)
	_, grads, _ := handBackprop(f.p, f.x0, f.targets, ones())
	const h = 1e-6
	for i, m := range f.p.list() {
		for j := range m.v {
			orig := m.v[j]
			m.v[j] = orig + h
			lp, _, _ := handBackprop(f.p, f.x0, f.targets, ones())
			m.v[j] = orig - h
			lm, _, _ := handBackprop(f.p, f.x0, f.targets, ones())
			m.v[j] = orig
			fd := (lp - lm) / (2 * h)
			if d := math.Abs(fd - grads[i].v[j]); d > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Fatalf("param %d entry %d: hand gradient %.10g, finite difference %.10g", i, j, grads[i].v[j], fd)
			}
		}
	}
}

func TestUnitGainsReproducePlainBPTTExactly(t *testing.T) {
	f := newFixture(5)
	plainLoss, plain, _ := graphOutputs(t, f, ones(), false, false, false)
	routedLoss, routed, _ := graphOutputs(t, f, ones(), true, false, false)
	if plainLoss != routedLoss {
		t.Errorf("forward differs: plain %v, routed %v", plainLoss, routedLoss)
	}
	for i := range plain {
		for j := range plain[i] {
			if plain[i][j] != routed[i][j] {
				t.Fatalf("param %d entry %d: plain BPTT %v, routed with unit gains %v", i, j, plain[i][j], routed[i][j])
			}
		}
	}
}

func TestForwardUnchangedAndOpenGradientIsBPTT(t *testing.T) {
	f := newFixture(6)
	plainLoss, plain, _ := graphOutputs(t, f, ones(), false, false, false)
	routedLoss, _, _ := graphOutputs(t, f, f.gains, true, false, false)
	if plainLoss != routedLoss {
		t.Errorf("routing changed the forward value: %v vs %v", routedLoss, plainLoss)
	}
	_, open, _ := graphOutputs(t, f, f.gains, true, true, false)
	for i := range plain {
		for j := range plain[i] {
			if plain[i][j] != open[i][j] {
				t.Fatalf("OpenGradient with gains ≠ 1: param %d entry %d is %v, plain BPTT %v", i, j, open[i][j], plain[i][j])
			}
		}
	}
}

func TestProbeMomentsMatchHandComputed(t *testing.T) {
	f := newFixture(7)
	_, _, want := handBackprop(f.p, f.x0, f.targets, ones())
	// Task gains are not 1: the probe must still see fully open routes.
	_, taskGrads, got := graphOutputs(t, f, f.gains, true, false, true)
	for k := range kSteps {
		for l := range lLayers {
			for c := range 3 {
				g, w := got[(k*lLayers+l)*3+c], want[k][l][c]
				if math.Abs(g-w) > 1e-10*math.Max(1, math.Abs(w)) {
					t.Errorf("moment (k=%d, l=%d, %d): graph %.12g, hand %.12g", k, l, c, g, w)
				}
			}
		}
	}
	// Probe gradients never reach the task gradients.
	_, noProbe, _ := graphOutputs(t, f, f.gains, true, false, false)
	for i := range noProbe {
		for j := range noProbe[i] {
			if noProbe[i][j] != taskGrads[i][j] {
				t.Fatalf("computing probes changed task gradient %d[%d]: %v vs %v", i, j, taskGrads[i][j], noProbe[i][j])
			}
		}
	}
}

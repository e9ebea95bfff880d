package appdiag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/model"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// TestUtilityLinearClosedForm: on x_{k+1} = a·x_k + c the gradients g_k of the single step losses
// are known in closed form, so A(k) and U(k) of every drawn pair can be computed by hand and
// compared with HeldOutUtility.
func TestUtilityLinearClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trainU, testU := scalarUnits(rng, 9, 30), scalarUnits(rng, 4, 30)
	m := newLinearAR(0.9, 0.1)
	g := train.Geometry{Window: 2, K: 6, BurnIn: 1}
	r, err := HeldOutUtility(testBackend(t), m, trainU, testU, g, UtilityConfig{Pairs: 8, Loss: LossMSE, Seed: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != 4 || r.Coords.Total != 2 || r.Coords.Index != nil {
		t.Fatalf("%d pairs (want min(8, 9, 4) = 4), coordinates %+v", len(r.Pairs), r.Coords)
	}
	for p, pair := range r.Pairs {
		targets := func(s data.Series, o int) []float64 {
			y := make([]float64, g.K)
			for k := range y {
				y[k] = s.X[o+1+k][0]
			}
			return y
		}
		a := trainU[pair.A.Unit]
		gA := m.grads(a.X[pair.A.Origin][0], targets(a, pair.A.Origin))
		b := testU[pair.B.Unit]
		gB := m.grads(b.X[pair.B.Origin][0], targets(b, pair.B.Origin))
		mean := []float64{0, 0}
		for _, gk := range gB {
			mean[0] += gk[0] / float64(g.K)
			mean[1] += gk[1] / float64(g.K)
		}
		n1 := math.Hypot(gA[0][0], gA[0][1])
		for k, gk := range gA {
			nk := math.Hypot(gk[0], gk[1])
			wantA, wantU := nk/n1, (gk[0]*mean[0]+gk[1]*mean[1])/nk
			if !closeRel(r.A[p][k], wantA, 1e-10) || !closeRel(r.U[p][k], wantU, 1e-10) {
				t.Errorf("pair %d, k = %d: A = %.12g, U = %.12g; closed form %.12g, %.12g", p, k+1, r.A[p][k], r.U[p][k], wantA, wantU)
			}
			if !closeRel(r.NormA[p][k], nk, 1e-10) {
				t.Errorf("pair %d, k = %d: ‖g_k^A‖ = %v, want %v", p, k+1, r.NormA[p][k], nk)
			}
		}
		if !closeRel(r.NormB[p], math.Hypot(mean[0], mean[1]), 1e-10) {
			t.Errorf("pair %d: ‖ḡ^B‖ = %v, want %v", p, r.NormB[p], math.Hypot(mean[0], mean[1]))
		}
	}
}

// TestUtilityLinearRelL2 checks the rel-L2 step loss on the same model: for a scalar state
// L_k = |e_k|/|y_k| (up to the 1e-12 under the root), so g_k = sign(e_k)/|y_k| · (s_k, t_k) =
// g_k^MSE / (2|e_k||y_k|).
func TestUtilityLinearRelL2(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	units := scalarUnits(rng, 3, 20)
	m := newLinearAR(0.7, -0.2)
	g := train.Geometry{Window: 1, K: 4}
	sg, err := NewStepGradients(testBackend(t), m, g.K, LossRelL2)
	if err != nil {
		t.Fatal(err)
	}
	o := 9
	b, err := train.MakeBatch(units, []train.Pick{{Unit: 1, Origin: o}}, g)
	if err != nil {
		t.Fatal(err)
	}
	losses, gk, mean, err := sg.PerStep(b)
	if err != nil {
		t.Fatal(err)
	}
	s := units[1]
	y := []float64{s.X[o+1][0], s.X[o+2][0], s.X[o+3][0], s.X[o+4][0]}
	mse := m.grads(s.X[o][0], y)
	x := s.X[o][0]
	for k := range g.K {
		x = m.a*x + m.c
		e := x - y[k]
		if !closeRel(losses[k], math.Abs(e)/math.Abs(y[k]), 1e-8) {
			t.Errorf("L_%d = %v, want %v", k+1, losses[k], math.Abs(e)/math.Abs(y[k]))
		}
		for j := range 2 {
			want := mse[k][j] / (2 * math.Abs(e) * math.Abs(y[k]))
			if !closeRel(gk[k][j], want, 1e-8) {
				t.Errorf("g_%d[%d] = %v, want %v", k+1, j, gk[k][j], want)
			}
		}
	}
	for j := range 2 {
		sum := 0.0
		for k := range g.K {
			sum += gk[k][j] / float64(g.K)
		}
		if !closeRel(mean[j], sum, 1e-12) {
			t.Errorf("gradient of the full-horizon loss [%d] = %v, mean of the step gradients %v", j, mean[j], sum)
		}
	}
}

// TestStepGradientMatchesFiniteDifferences compares, on a small float64 Mamba forecaster with
// perturbed parameters, the gradient of one step's rel-L2 loss (k = 3 of K = 4) with central
// finite differences of that loss, for every parameter coordinate. (With DetachContext the
// gradient deliberately is not the loss's derivative; it must then differ but keep the losses.)
func TestStepGradientMatchesFiniteDifferences(t *testing.T) {
	{
		f, err := model.New(model.Config{Kind: "mamba", StateDim: 2, DriveDim: 1, Hidden: 4, Layers: 2, SSMState: 2, ConvWidth: 2,
			Window: 3, BurnIn: 0, DType: dtypes.Float64, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(6, 7))
		vars := Parameters(Forecaster{F: f})
		for _, v := range vars {
			x := tensors.MustCopyFlatData[float64](v.MustValue())
			for i := range x {
				x[i] += 0.3 * rng.NormFloat64()
			}
			v.MustSetValue(tensors.FromFlatDataAndDimensions(x, v.Shape().Dimensions...))
		}
		const K, k = 4, 2 // 0-based step 2: the third forecast step
		b := &train.Batch{N: 1, Window: 3, K: K, D: 2, J: 1}
		for range 3 * 2 {
			b.History = append(b.History, rng.NormFloat64())
		}
		for range K * 2 {
			b.Targets = append(b.Targets, rng.NormFloat64())
		}
		for range 3 - 1 + K {
			b.Drive = append(b.Drive, rng.NormFloat64())
		}
		sg, err := NewStepGradients(testBackend(t), Forecaster{F: f}, K, "")
		if err != nil {
			t.Fatal(err)
		}
		w := make([]float64, K)
		w[k] = 1
		_, grad, err := sg.Compute(b, w)
		if err != nil {
			t.Fatal(err)
		}
		loss := func() float64 {
			l, _, err := sg.Compute(b, w)
			if err != nil {
				t.Fatal(err)
			}
			return l[k]
		}
		const h = 1e-6
		maxG := 0.0
		for _, v := range grad {
			maxG = math.Max(maxG, math.Abs(v))
		}
		i := 0
		for _, v := range vars {
			x := tensors.MustCopyFlatData[float64](v.MustValue())
			for j := range x {
				orig := x[j]
				set := func(val float64) {
					x[j] = val
					v.MustSetValue(tensors.FromFlatDataAndDimensions(slices.Clone(x), v.Shape().Dimensions...))
				}
				set(orig + h)
				lp := loss()
				set(orig - h)
				lm := loss()
				set(orig)
				fd := (lp - lm) / (2 * h)
				if math.Abs(fd-grad[i]) > 1e-6*math.Max(math.Abs(fd), 1e-3*maxG) {
					t.Errorf("%s[%d]: gradient %.10g, finite difference %.10g", v.Path(), j, grad[i], fd)
				}
				i++
			}
		}
		if i != sg.NumParameters() || maxG == 0 {
			t.Fatalf("checked %d of %d coordinates, largest gradient entry %v", i, sg.NumParameters(), maxG)
		}
		det, err := NewStepGradients(testBackend(t), Forecaster{F: f, DetachContext: true}, K, "")
		if err != nil {
			t.Fatal(err)
		}
		l0, _, _ := sg.Compute(b, w)
		l1, g1, err := det.Compute(b, w)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l0, l1) || slices.Equal(grad, g1) {
			t.Error("DetachContext changed the losses or left the gradient unchanged")
		}
	}
}

func TestDrawPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	trainU, testU := scalarUnits(rng, 10, 40), scalarUnits(rng, 6, 40)
	testU[2] = data.Series{X: testU[2].X[:5]} // too short: skipped
	g := train.Geometry{Window: 4, K: 8, BurnIn: 2}
	p, err := DrawPairs(trainU, testU, g, 8, 0.5, 11)
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 5 {
		t.Fatalf("%d pairs, want min(8, 10, 5 usable) = 5", len(p))
	}
	seenA, seenB := map[int]bool{}, map[int]bool{}
	for _, q := range p {
		// Admissible origins [2+4−1, 40−1−8] = [5, 31]; the middle is 5 + round(13) = 18.
		if q.A.Origin != 18 || q.B.Origin != 18 || q.B.Unit == 2 || seenA[q.A.Unit] || seenB[q.B.Unit] {
			t.Errorf("pair %+v (units seen %v, %v)", q, seenA, seenB)
		}
		seenA[q.A.Unit], seenB[q.B.Unit] = true, true
	}
	again, _ := DrawPairs(trainU, testU, g, 8, 0.5, 11)
	other, _ := DrawPairs(trainU, testU, g, 8, 0.5, 12)
	if !slices.Equal(p, again) || slices.Equal(p, other) {
		t.Error("pairs are not a function of the seed")
	}
	if o, _ := StartAt(g, 40, 0); o != 5 {
		t.Errorf("earliest origin %d, want 5", o)
	}
	if o, _ := StartAt(train.Geometry{Window: 1, K: 1}, 4, 0.5); o != 1 { // [0, 2]: round(1) = 1
		t.Errorf("middle origin %d, want 1", o)
	}
	if o, _ := StartAt(train.Geometry{Window: 1, K: 1}, 3, 0.5); o != 0 { // [0, 1]: round(0.5) = 0 (to even)
		t.Errorf("half-way origin %d, want 0 (half to even)", o)
	}
	if _, err := DrawPairs(trainU, testU[2:3], g, 8, 0.5, 1); err == nil {
		t.Error("no usable test unit, yet pairs were drawn")
	}
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

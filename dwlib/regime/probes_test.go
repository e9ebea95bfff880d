package regime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScalerFloor(t *testing.T) {
	s := FitScaler([][]float64{{1, 5}, {3, 5}})
	if s.Mean[0] != 2 || s.SD[0] != 1 || s.Mean[1] != 5 || s.SD[1] != SDFloor {
		t.Fatalf("scaler %+v, want mean (2, 5) and sd (1, 1e-5)", s)
	}
	z := s.Apply([][]float64{{4, 5 + 1e-6}})
	if z[0][0] != 2 || math.Abs(z[0][1]-0.1) > 1e-9 {
		t.Errorf("apply %v, want [2 0.1]", z)
	}
}

// One feature, y = 2x + 1 at x = 0..3: the standardised feature has variance 1, so the
// regularised slope is cov(z, y)/(1 + 0.01) and the fit at x is 4 + (2/1.01)(x − 1.5).
func TestRidgeOneFeatureByHand(t *testing.T) {
	x := [][]float64{{0}, {1}, {2}, {3}}
	y := [][]float64{{1}, {3}, {5}, {7}}
	r, err := FitRidge(x, y, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []float64{0, 3, 10} {
		want := 4 + 2/1.01*(q-1.5)
		if got := r.Predict([][]float64{{q}})[0][0]; math.Abs(got-want) > 1e-12 {
			t.Errorf("x = %v: %v, want %v", q, got, want)
		}
	}
}

// Three features, two outputs: the same fit from the explicit normal equations with a matrix
// inverse.
func TestRidgeClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	n, p, m := 12, 3, 2
	x := make([][]float64, n)
	y := make([][]float64, n)
	for i := range n {
		x[i] = []float64{rng.NormFloat64() * 3, rng.NormFloat64() + 5, rng.NormFloat64()}
		y[i] = []float64{x[i][0] - 2*x[i][2] + rng.NormFloat64(), x[i][1] + rng.NormFloat64()}
	}
	const rho = 0.3
	r, err := FitRidge(x, y, rho)
	if err != nil {
		t.Fatal(err)
	}
	// Closed form: Z standardised (population sd), G = ZᵀZ/n, B = (G + ρ tr(G)/p I)⁻¹ Zᵀ(Y−ȳ)/n.
	mean, sd := make([]float64, p), make([]float64, p)
	for j := range p {
		for i := range n {
			mean[j] += x[i][j] / float64(n)
		}
		for i := range n {
			sd[j] += (x[i][j] - mean[j]) * (x[i][j] - mean[j]) / float64(n)
		}
		sd[j] = math.Sqrt(sd[j])
	}
	ym := columnMeans(y)
	Z, Y := mat.NewDense(n, p, nil), mat.NewDense(n, m, nil)
	for i := range n {
		for j := range p {
			Z.Set(i, j, (x[i][j]-mean[j])/sd[j])
		}
		for j := range m {
			Y.Set(i, j, y[i][j]-ym[j])
		}
	}
	var G, C, Ginv, B mat.Dense
	G.Mul(Z.T(), Z)
	G.Scale(1/float64(n), &G)
	lam := rho * mat.Trace(&G) / float64(p)
	for j := range p {
		G.Set(j, j, G.At(j, j)+lam)
	}
	C.Mul(Z.T(), Y)
	C.Scale(1/float64(n), &C)
	if err := Ginv.Inverse(&G); err != nil {
		t.Fatal(err)
	}
	B.Mul(&Ginv, &C)
	q := []float64{1, 4, -2}
	got := r.Predict([][]float64{q})[0]
	for j := range m {
		want := ym[j]
		for c := range p {
			want += (q[c] - mean[c]) / sd[c] * B.At(c, j)
		}
		if math.Abs(got[j]-want) > 1e-10 {
			t.Errorf("output %d: %v, want %v", j, got[j], want)
		}
	}
}

func TestProbesWithoutFeaturesPredictTheMean(t *testing.T) {
	x := [][]float64{{}, {}, {}}
	y := [][]float64{{1, 0}, {2, 3}, {6, 3}}
	r, err := FitRidge(x, y, DefaultRidge)
	if err != nil {
		t.Fatal(err)
	}
	k, err := FitKNN(x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range [][]float64{r.Predict([][]float64{{}})[0], k.Predict([][]float64{{}})[0]} {
		if !slices.Equal(got, []float64{3, 2}) {
			t.Errorf("prediction %v, want the mean [3 2]", got)
		}
	}
}

func TestKNNAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2))
	n, p, q := 300, 5, 7
	x := make([][]float64, n)
	y := make([][]float64, n)
	for i := range n {
		x[i] = make([]float64, p)
		for j := range p {
			x[i][j] = rng.NormFloat64() * float64(j+1)
		}
		y[i] = []float64{rng.NormFloat64(), float64(i)}
	}
	queries := make([][]float64, 600) // more than one chunk
	for i := range queries {
		queries[i] = make([]float64, p)
		for j := range p {
			queries[i][j] = rng.NormFloat64() * float64(j+1) * 1.2
		}
	}
	k, err := FitKNN(x, y, q)
	if err != nil {
		t.Fatal(err)
	}
	got := k.Predict(queries)
	s := FitScaler(x)
	zx, zq := s.Apply(x), s.Apply(queries)
	for i, qr := range zq {
		idx := make([]int, n)
		dist := make([]float64, n)
		for j := range n {
			idx[j] = j
			for c := range p {
				d := qr[c] - zx[j][c]
				dist[j] += d * d
			}
		}
		slices.SortFunc(idx, func(a, b int) int {
			if dist[a] != dist[b] {
				if dist[a] < dist[b] {
					return -1
				}
				return 1
			}
			return a - b
		})
		want := []float64{0, 0}
		for _, j := range idx[:q] {
			want[0] += y[j][0] / float64(q)
			want[1] += y[j][1] / float64(q)
		}
		if math.Abs(got[i][0]-want[0]) > 1e-9 || math.Abs(got[i][1]-want[1]) > 1e-9 {
			t.Fatalf("query %d: %v, want %v", i, got[i], want)
		}
	}
	// Fewer fitting rows than q: every row, equal weights.
	k2, err := FitKNN(x[:4], y[:4], q)
	if err != nil {
		t.Fatal(err)
	}
	if got := k2.Predict(queries[:1])[0][1]; got != 1.5 {
		t.Errorf("with 4 rows and q = %d: %v, want the mean index 1.5", q, got)
	}
}

// Frames in a known 2-dimensional subspace of R^6 (plus tiny noise): the two leading components
// span it, and their variances are the latent ones.
func TestPCARecoversLowRankSubspace(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	d := 6
	A := mat.NewDense(d, 2, nil)
	for i := range d {
		A.Set(i, 0, rng.NormFloat64())
		A.Set(i, 1, rng.NormFloat64())
	}
	var qr mat.QR
	qr.Factorize(A)
	var Q mat.Dense
	qr.QTo(&Q)
	basis := Q.Slice(0, d, 0, 2) // orthonormal basis of span(A)
	frames := make([][]float64, 4000)
	for i := range frames {
		a, b := 3*rng.NormFloat64(), rng.NormFloat64()
		f := make([]float64, d)
		for j := range d {
			f[j] = 2 + a*basis.At(j, 0) + b*basis.At(j, 1) + 1e-3*rng.NormFloat64()
		}
		frames[i] = f
	}
	p, err := FitPCA(frames, 2)
	if err != nil {
		t.Fatal(err)
	}
	var P1, P2, diff mat.Dense
	P1.Mul(p.Components, p.Components.T())
	P2.Mul(basis, basis.T())
	diff.Sub(&P1, &P2)
	if e := mat.Norm(&diff, 2); e > 1e-3 {
		t.Errorf("projector error %v", e)
	}
	if math.Abs(p.Variances[0]-9)/9 > 0.08 || math.Abs(p.Variances[1]-1) > 0.08 {
		t.Errorf("variances %v, want about [9 1]", p.Variances)
	}
	// Rank is capped by the state dimension and by n − 1.
	if p8, _ := FitPCA(frames, 8); p8.Dim() != d {
		t.Errorf("rank 8 on %d columns kept %d", d, p8.Dim())
	}
	if p3, _ := FitPCA(frames[:3], 8); p3.Dim() != 2 {
		t.Errorf("rank 8 on 3 frames kept %d, want 2", p3.Dim())
	}
}

func TestCircularShiftKeepsMarginals(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 4))
	T := 500
	rows := make([][]float64, T)
	prev := 0.0
	for t := range rows {
		prev = 0.9*prev + rng.NormFloat64()
		rows[t] = []float64{prev, rng.ExpFloat64()}
	}
	for _, c := range []int{1, 137, T - 1, -3, T + 5} {
		s := CircularShift(rows, c)
		for ch := range 2 {
			a, b := column(rows, ch), column(s, ch)
			if !slices.Equal(sorted(a), sorted(b)) {
				t.Fatalf("shift %d: channel %d values changed", c, ch)
			}
			if math.Abs(lag1(a)-lag1(b)) > 0.02 {
				t.Errorf("shift %d: lag-1 autocorrelation %v -> %v", c, lag1(a), lag1(b))
			}
		}
		want := ((c % T) + T) % T
		if &s[0][0] != &rows[want][0] {
			t.Errorf("shift %d: out[0] is not rows[%d]", c, want)
		}
	}
	for range 1000 {
		if c := shiftDraw(100, 30, rng); c < 30 || c > 70 {
			t.Fatalf("shift %d outside [30, 70]", c)
		}
	}
}

func column(rows [][]float64, j int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = r[j]
	}
	return out
}

func sorted(v []float64) []float64 { s := slices.Clone(v); slices.Sort(s); return s }

func lag1(v []float64) float64 {
	m := sum(v) / float64(len(v))
	var num, den float64
	for i := range v {
		den += (v[i] - m) * (v[i] - m)
		if i > 0 {
			num += (v[i] - m) * (v[i-1] - m)
		}
	}
	return num / den
}

func TestOrigins(t *testing.T) {
	all := Origins([]int{10, 12}, 3, 4, 0, 0, nil)
	// Unit 0: starts 3..6; unit 1: starts 3..8.
	if len(all) != 4+6 || all[0] != (Origin{0, 3}) || all[3] != (Origin{0, 6}) || all[9] != (Origin{1, 8}) {
		t.Fatalf("origins %v", all)
	}
	if s := Origins([]int{10}, 3, 4, -1, 0, nil); s[0].Start != 3 || len(s) != 4 {
		t.Errorf("shift −1: %v", s)
	}
	if s := Origins([]int{10}, 3, 4, 2, 0, nil); s[len(s)-1].Start != 4 {
		t.Errorf("shift 2 must end at 10−4−2 = 4: %v", s)
	}
	sub := Origins([]int{100, 100}, 3, 4, 0, 20, rand.New(rand.NewPCG(1, 1)))
	if len(sub) != 20 || !slices.IsSortedFunc(sub, func(a, b Origin) int {
		if a.Unit != b.Unit {
			return a.Unit - b.Unit
		}
		return a.Start - b.Start
	}) {
		t.Errorf("subsample %v", sub)
	}
}

func TestMapPointAveragesThenClips(t *testing.T) {
	p := Point("x", LongScores{PsiD: .4, DeltaPsiH: .1}, LongScores{PsiD: -.1, DeltaPsiH: -.3})
	if math.Abs(p.RawPsiD-.15) > 1e-12 || math.Abs(p.RawDeltaPsiH+.1) > 1e-12 || math.Abs(p.PsiD-.15) > 1e-12 || p.DeltaPsiH != 0 {
		t.Errorf("%+v", p)
	}
	// The paper's NARMA-5 row: (.857 + .283)/2 = .570 and ΔΨ_H clipped to 0.
	v, _ := PaperFor("narma5")
	if q := v.PaperPoint("NARMA"); math.Abs(q.PsiD-.57) > 1e-12 || q.DeltaPsiH != 0 {
		t.Errorf("NARMA point %+v", q)
	}
}

func TestPaperSettingsTable(t *testing.T) {
	for tb, want := range map[string][3]any{
		"mackey-glass": {8, 32, []int{1, 2, 4, 8, 16}},
		"narma5":       {8, 32, []int{1, 2, 4, 8}},
		"ettm2":        {7, 32, []int{1, 2, 4, 8, 16, 32}},
	} {
		s, err := PaperSettings(tb)
		if err != nil || s.PCADim != want[0] || s.Neighbors != want[1] || !slices.Equal(s.Windows, want[2].([]int)) {
			t.Errorf("%s: %+v, %v", tb, s, err)
		}
	}
	if _, err := PaperSettings("known-snr"); err == nil {
		t.Error("known-snr has no probe settings")
	}
	c, err := DefaultConfig("narma5")
	if err != nil || c.Ridge != .01 || c.LongMin != 8 || c.Null != NullPermute || c.Score != ScoreTest || c.NullRepeats != 8 {
		t.Errorf("default %+v, %v", c, err)
	}
}

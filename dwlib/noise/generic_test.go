package noise

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// mustGeneric returns a default DW-Generic sampler.
func mustGeneric(t *testing.T) *Generic {
	t.Helper()
	g, err := NewGeneric(GenericConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// stageCommit stages one minibatch laid out [n][K][D] and commits it.
func stageCommit(t *testing.T, g Sampler, res []float64, n, K, D int) {
	t.Helper()
	if err := g.Stage(res, n, K, D); err != nil {
		t.Fatal(err)
	}
	g.Commit()
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func TestGenericTemplateIsFirstSample(t *testing.T) {
	// [n=3][K=2][D=2]; entry value = 100*i + 10*k + d.
	mk := func(n, K, D int, off float64) []float64 {
		r := make([]float64, n*K*D)
		for i := range n {
			for k := range K {
				for d := range D {
					r[(i*K+k)*D+d] = off + float64(100*i+10*k+d)
				}
			}
		}
		return r
	}
	tests := []struct {
		name   string
		stages [][]float64 // parts of ONE minibatch, each [n=3][K][2]
		Ks     []int
		want   [][]float64 // template per horizon after Commit
	}{
		{"single part", [][]float64{mk(3, 2, 2, 0)}, []int{2}, [][]float64{{0, 1}, {10, 11}}},
		{"second part does not replace", [][]float64{mk(3, 2, 2, 0), mk(3, 2, 2, 1000)}, []int{2, 2},
			[][]float64{{0, 1}, {10, 11}}},
		{"second part adds a horizon", [][]float64{mk(3, 1, 2, 0), mk(3, 2, 2, 1000)}, []int{1, 2},
			[][]float64{{0, 1}, {1010, 1011}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeneric(t)
			for p, r := range tc.stages {
				if err := g.Stage(r, 3, tc.Ks[p], 2); err != nil {
					t.Fatal(err)
				}
			}
			if g.Horizons() != 0 {
				t.Fatalf("horizons visible before Commit: %d", g.Horizons())
			}
			g.Commit()
			if g.Horizons() != len(tc.want) {
				t.Fatalf("Horizons = %d, want %d", g.Horizons(), len(tc.want))
			}
			for k, w := range tc.want {
				if got := g.Template(k); !equalBits(got, w) {
					t.Errorf("Template(%d) = %v, want %v", k, got, w)
				}
			}
		})
	}
}

func TestGenericMeanEMA(t *testing.T) {
	// D = 1; beta = 0.99. Hand-worked expectations per commit.
	type mb struct {
		res []float64 // [n][K][1]
		n   int
		K   int
	}
	tests := []struct {
		name     string
		batches  []mb
		wantMean [][]float64 // after each commit: mean per horizon
		wantTpl  [][]float64
	}{
		{
			name: "one horizon",
			batches: []mb{
				{[]float64{1, 3}, 2, 1},    // mean 2   -> mu = 2 (first-minibatch init, not 0.02)
				{[]float64{5, 7}, 2, 1},    // mean 6   -> .99*2 + .01*6 = 2.04
				{[]float64{0, 0, 3}, 3, 1}, // mean 1   -> .99*2.04 + .01*1 = 2.0296
			},
			wantMean: [][]float64{{2}, {2.04}, {2.0296}},
			wantTpl:  [][]float64{{1}, {5}, {0}},
		},
		{
			name: "new horizon initialised by its first minibatch mean",
			batches: []mb{
				{[]float64{4, 8}, 2, 1},           // h0: mean 6
				{[]float64{2, 10, 4, 20}, 2, 2},   // h0: mean 3 -> .99*6+.01*3 = 5.97; h1: mean 15 (init)
				{[]float64{6, 115, 6, 115}, 2, 2}, // h0: .99*5.97+.01*6 = 5.9703; h1: .99*15+.01*115 = 16
			},
			wantMean: [][]float64{{6}, {5.97, 15}, {5.9703, 16}},
			wantTpl:  [][]float64{{4}, {2, 10}, {6, 115}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeneric(t)
			for b, m := range tc.batches {
				stageCommit(t, g, m.res, m.n, m.K, 1)
				if g.Horizons() != len(tc.wantMean[b]) {
					t.Fatalf("batch %d: Horizons = %d, want %d", b, g.Horizons(), len(tc.wantMean[b]))
				}
				for k, w := range tc.wantMean[b] {
					if got := g.Mean(k)[0]; math.Abs(got-w) > 1e-12 {
						t.Errorf("batch %d: Mean(%d) = %.17g, want %.17g", b, k, got, w)
					}
					if got := g.Template(k)[0]; got != tc.wantTpl[b][k] {
						t.Errorf("batch %d: Template(%d) = %v, want %v", b, k, got, tc.wantTpl[b][k])
					}
				}
			}
		})
	}
}

// TestGenericMeanSplitMinibatch checks that a minibatch staged in two parts
// counts |B_n| over both parts: (1+3+5)/3 = 3, not mean of part means.
func TestGenericMeanSplitMinibatch(t *testing.T) {
	g := mustGeneric(t)
	stageCommit(t, g, []float64{0}, 1, 1, 1)
	if err := g.Stage([]float64{1, 3}, 2, 1, 1); err != nil {
		t.Fatal(err)
	}
	if err := g.Stage([]float64{5}, 1, 1, 1); err != nil {
		t.Fatal(err)
	}
	g.Commit()
	beta := 0.99 // a variable, so the expectation is float64 arithmetic, not an exact constant
	if got, want := g.Mean(0)[0], beta*0+(1-beta)*3.0; got != want {
		t.Errorf("Mean = %.17g, want %.17g", got, want)
	}
	if g.Count(0) != 2 {
		t.Errorf("Count = %d, want 2", g.Count(0))
	}
}

func TestGenericSampleUsesCommittedState(t *testing.T) {
	g := mustGeneric(t)
	stageCommit(t, g, []float64{1, 2, 3, 6}, 2, 1, 2) // template (1,2), mu (2,4) -> centered (-1,-2)
	committed := []float64{-1, -2}
	check := func(when string, want []float64) {
		t.Helper()
		eps, err := g.Sample(rand.New(rand.NewPCG(1, 2)), 8, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			s := eps[i*2 : i*2+2]
			if !(equalBits(s, want) || (s[0] == -want[0] && s[1] == -want[1])) {
				t.Fatalf("%s: sample %d = %v, want ±%v", when, i, s, want)
			}
		}
	}
	check("committed", committed)
	if err := g.Stage([]float64{50, 60}, 1, 1, 2); err != nil {
		t.Fatal(err)
	}
	check("after Stage, before Commit", committed) // staged data must not leak
	g.Commit()
	// mu = .99*(2,4) + .01*(50,60) = (2.48, 4.56); template (50,60).
	beta := 0.99
	check("after Commit", []float64{50 - (beta*2 + (1-beta)*50), 60 - (beta*4 + (1-beta)*60)})
}

func TestGenericSignSharedAndBalanced(t *testing.T) {
	const n, K, D = 4000, 3, 4
	g := mustGeneric(t)
	res := make([]float64, 2*K*D)
	for j := range res {
		res[j] = float64(j%7) - 2.5 + float64(j)/10 // sample 0 differs from sample 1
	}
	stageCommit(t, g, res, 2, K, D)
	centered := make([]float64, K*D)
	for k := range K {
		for d := range D {
			centered[k*D+d] = g.Template(k)[d] - g.Mean(k)[d]
			if centered[k*D+d] == 0 {
				t.Fatalf("test needs nonzero centered template at k=%d d=%d", k, d)
			}
		}
	}
	for _, seed := range []uint64{1, 2, 3} {
		eps, err := g.Sample(rand.New(rand.NewPCG(seed, 99)), n, K, D)
		if err != nil {
			t.Fatal(err)
		}
		pos := 0
		for i := range n {
			sign := eps[i*K*D] / centered[0]
			if sign != 1 && sign != -1 {
				t.Fatalf("seed %d sample %d: ratio %v is not ±1", seed, i, sign)
			}
			for j := range K * D {
				if eps[i*K*D+j] != sign*centered[j] {
					t.Fatalf("seed %d sample %d: sign not shared at flat (k,d) index %d", seed, i, j)
				}
			}
			if sign > 0 {
				pos++
			}
		}
		// Binomial(4000, 1/2): sd = 31.6; allow 5 sd.
		if frac := float64(pos) / n; math.Abs(frac-0.5) > 5*0.5/math.Sqrt(n) {
			t.Errorf("seed %d: fraction of + signs %.4f, want ~0.5", seed, frac)
		}
	}
}

func TestGenericZeroMeanInExpectation(t *testing.T) {
	const n, K, D = 20000, 2, 3
	g := mustGeneric(t)
	stageCommit(t, g, []float64{3, -1, 2, 0.5, 4, -2, 1, 1, 1, 1, 1, 1}, 2, K, D)
	eps, err := g.Sample(rand.New(rand.NewPCG(7, 7)), n, K, D)
	if err != nil {
		t.Fatal(err)
	}
	for j := range K * D {
		c := g.Template(j / D)[j%D] - g.Mean(j / D)[j%D]
		sum := 0.0
		for i := range n {
			sum += eps[i*K*D+j]
		}
		if mean := sum / n; math.Abs(mean) > 5*math.Abs(c)/math.Sqrt(n) {
			t.Errorf("entry %d: sample mean %.4g, want 0 ± %.3g (|centered| = %g)", j, mean, 5*math.Abs(c)/math.Sqrt(n), c)
		}
	}
}

func TestGenericNotReadyHorizonsAreZero(t *testing.T) {
	tests := []struct {
		name      string
		committed int // committed horizons (0: nothing)
		K         int
		wantReady []bool
	}{
		{"nothing committed", 0, 3, []bool{false, false, false}},
		{"two of four", 2, 4, []bool{true, true, false, false}},
		{"K smaller than committed", 3, 2, []bool{true, true}},
	}
	const D = 2
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeneric(t)
			if tc.committed > 0 {
				res := make([]float64, 2*tc.committed*D)
				for j := range res {
					res[j] = float64(j + 1)
				}
				stageCommit(t, g, res, 2, tc.committed, D)
			}
			ready := g.Ready(tc.K)
			if len(ready) != tc.K {
				t.Fatalf("len(Ready) = %d", len(ready))
			}
			for k := range ready {
				if ready[k] != tc.wantReady[k] {
					t.Errorf("Ready[%d] = %v, want %v", k, ready[k], tc.wantReady[k])
				}
			}
			eps, err := g.Sample(rand.New(rand.NewPCG(1, 1)), 5, tc.K, D)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				for k := range tc.K {
					for d := range D {
						v := eps[(i*tc.K+k)*D+d]
						if !ready[k] && v != 0 {
							t.Errorf("sample %d horizon %d (not ready) = %v, want 0", i, k, v)
						}
						if ready[k] && v == 0 {
							t.Errorf("sample %d horizon %d (ready) = 0", i, k)
						}
					}
				}
			}
		})
	}
}

func TestGenericSameSeedSameDraws(t *testing.T) {
	g := mustGeneric(t)
	stageCommit(t, g, []float64{1, 2, 3, 4, 5, 6, 7, 9}, 2, 2, 2)
	draw := func(s1, s2 uint64) []float64 {
		eps, err := g.Sample(rand.New(rand.NewPCG(s1, s2)), 64, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		return eps
	}
	if !equalBits(draw(5, 6), draw(5, 6)) {
		t.Error("same seed gave different draws")
	}
	if equalBits(draw(5, 6), draw(6, 5)) {
		t.Error("different seeds gave identical 64-sample draws")
	}
	// Exactly one Uint64 per sample: the stream after Sample is predictable.
	r1, r2 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	if _, err := g.Sample(r1, 10, 2, 2); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		r2.Uint64()
	}
	if r1.Uint64() != r2.Uint64() {
		t.Error("Sample did not consume exactly one Uint64 per sample")
	}
}

func TestGenericStageErrorsLeaveStateUnchanged(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	withAt := func(v float64, at int) []float64 { // [n=2][K=3][D=2]
		r := make([]float64, 12)
		for j := range r {
			r[j] = float64(j)
		}
		r[at] = v
		return r
	}
	tests := []struct {
		name    string
		res     []float64
		n, K, D int
		want    string
	}{
		{"length mismatch", make([]float64, 11), 2, 3, 2, "length 11 != n*K*D"},
		{"zero n", nil, 0, 3, 2, "must be positive"},
		{"negative K", make([]float64, 12), 2, -3, 2, "must be positive"},
		{"D differs from committed", make([]float64, 18), 2, 3, 3, "D=3 differs from the committed dimension 2"},
		{"NaN", withAt(nan, (1*3+2)*2+1), 2, 3, 2, "NaN at minibatch sample 1, horizon 2, coordinate 1"},
		{"Inf", withAt(inf, 0), 2, 3, 2, "+Inf at minibatch sample 0, horizon 0, coordinate 0"},
		{"sum overflow", withAt(math.MaxFloat64, 2), 2, 3, 2, "overflows at horizon 1, coordinate 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustGeneric(t)
			stageCommit(t, g, withAt(1, 0), 2, 3, 2)
			if err := g.Stage(withAt(math.MaxFloat64, 8), 2, 3, 2); err != nil { // a pending part
				t.Fatal(err)
			}
			before, err := g.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			err = g.Stage(tc.res, tc.n, tc.K, tc.D)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want containing %q", err, tc.want)
			}
			after, _ := g.MarshalJSON()
			if string(before) != string(after) {
				t.Errorf("state changed on error:\n%s\n%s", before, after)
			}
		})
	}
}

func TestGenericSampleErrors(t *testing.T) {
	g := mustGeneric(t)
	stageCommit(t, g, []float64{1, 2}, 1, 1, 2)
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name    string
		rng     *rand.Rand
		n, K, D int
		want    string
	}{
		{"nil rng", nil, 1, 1, 2, "nil rng"},
		{"zero n", rng, 0, 1, 2, "must be positive"},
		{"D mismatch", rng, 1, 1, 3, "D=3 differs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := g.Sample(tc.rng, tc.n, tc.K, tc.D); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want containing %q", err, tc.want)
			}
		})
	}
}

func TestGenericDiscard(t *testing.T) {
	g := mustGeneric(t)
	stageCommit(t, g, []float64{1, 3}, 2, 1, 1)
	if err := g.Stage([]float64{100}, 1, 1, 1); err != nil {
		t.Fatal(err)
	}
	g.Discard()
	g.Commit()
	if g.Mean(0)[0] != 2 || g.Template(0)[0] != 1 || g.Count(0) != 1 || g.Staged() {
		t.Errorf("Discard did not drop the staged update: mean %v template %v count %d",
			g.Mean(0), g.Template(0), g.Count(0))
	}
}

package prior

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

func mustBank(t *testing.T, K, D int, rows [][]float64) *Bank {
	t.Helper()
	b, err := NewBank(K, D, rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustSampler(t *testing.T, b *Bank) *Sampler {
	t.Helper()
	s, err := NewSampler(Config{Bank: b})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A two-row bank with K=2, D=1: rows (1,3) and (3,7), mean (2,5), so the
// centred rows are ∓(1,2) and every draw must be exactly +(1,2) or -(1,2):
// the same trajectory and sign at both horizons, and the draw's outer
// product is the bank covariance [[1,2],[2,4]] whatever the draws are.
func TestSamplerHandWorkedTwoRows(t *testing.T) {
	b := mustBank(t, 2, 1, [][]float64{{1, 3}, {3, 7}})
	if got := b.Mean(); !slices.Equal(got, []float64{2, 5}) {
		t.Fatalf("mean = %v, want [2 5]", got)
	}
	if got := b.Covariance(); !slices.Equal(got, []float64{1, 2, 2, 4}) {
		t.Fatalf("covariance = %v, want [1 2 2 4]", got)
	}
	s := mustSampler(t, b)
	eps, err := s.Sample(rand.New(rand.NewPCG(1, 2)), 1000, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	pos, neg := 0, 0
	for i := range 1000 {
		e := eps[2*i : 2*i+2]
		switch {
		case e[0] == 1 && e[1] == 2:
			pos++
		case e[0] == -1 && e[1] == -2:
			neg++
		default:
			t.Fatalf("draw %d = %v, want ±(1, 2)", i, e)
		}
	}
	if pos == 0 || neg == 0 {
		t.Fatalf("signs: %d positive, %d negative; want both", pos, neg)
	}
}

// A three-row bank with K=1, D=2: rows (0,0), (3,3), (0,6), mean (1,3),
// centred (-1,-3), (2,0), (-1,3); covariance (1/3)[[6,0],[0,18]] = diag(2,6).
func TestBankCovarianceHandWorked(t *testing.T) {
	b := mustBank(t, 1, 2, [][]float64{{0, 0}, {3, 3}, {0, 6}})
	if got := b.Mean(); !slices.Equal(got, []float64{1, 3}) {
		t.Fatalf("mean = %v, want [1 3]", got)
	}
	if got := b.Covariance(); !slices.Equal(got, []float64{2, 0, 0, 6}) {
		t.Fatalf("covariance = %v, want [2 0 0 6]", got)
	}
	s := mustSampler(t, b)
	eps, err := s.Sample(rand.New(rand.NewPCG(3, 4)), 300, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	// This bank is not symmetric, so a flipped draw is recognisable: about
	// half the draws must be negated rows (binomial, 300 draws: 150 ± 26 is
	// three standard deviations; [100, 200] is about 5.8).
	plus := [][]float64{{-1, -3}, {2, 0}, {-1, 3}}
	minus := [][]float64{{1, 3}, {-2, 0}, {1, -3}}
	flipped := 0
	for i := range 300 {
		e := eps[2*i : 2*i+2]
		is := func(a []float64) bool { return slices.Equal(a, e) }
		switch {
		case slices.ContainsFunc(plus, is):
		case slices.ContainsFunc(minus, is):
			flipped++
		default:
			t.Fatalf("draw %d = %v is not ± a centred bank row", i, e)
		}
	}
	if flipped < 100 || flipped > 200 {
		t.Fatalf("%d of 300 draws have sign -1, want about half", flipped)
	}
}

// Monte-Carlo: the draws are zero mean and their second moment is the bank
// covariance, each entry within 5 standard errors computed from the bank
// itself (the standard error of a mean of M iid products c_a c_b).
func TestSamplerMomentsMonteCarlo(t *testing.T) {
	const N, K, D, M = 40, 3, 2, 100000
	rng := rand.New(rand.NewPCG(11, 12))
	rows := make([][]float64, N)
	for i := range rows {
		r := make([]float64, K*D)
		for j := range r {
			r[j] = 0.5 + rng.NormFloat64()*float64(1+j%3) // non-zero mean, unequal scales
		}
		r[K*D-1] += 0.8 * r[0] // a cross-horizon, cross-coordinate correlation
		rows[i] = r
	}
	b := mustBank(t, K, D, rows)
	want := b.Covariance()
	n := K * D
	// Per-entry variance of the product c_a c_b under uniform J.
	cen := make([][]float64, N)
	for i, r := range rows {
		cen[i] = make([]float64, n)
		for j := range n {
			cen[i][j] = r[j] - b.mean[j]
		}
	}
	eps, err := mustSampler(t, b).Sample(rand.New(rand.NewPCG(5, 6)), M, K, D)
	if err != nil {
		t.Fatal(err)
	}
	for a := range n {
		mean := 0.0
		for i := range M {
			mean += eps[i*n+a]
		}
		mean /= M
		if se := math.Sqrt(want[a*n+a] / M); math.Abs(mean) > 5*se {
			t.Errorf("mean[%d] = %g, want 0 within 5·SE = %g", a, mean, 5*se)
		}
		for c := range n {
			got := 0.0
			for i := range M {
				got += eps[i*n+a] * eps[i*n+c]
			}
			got /= M
			m2 := 0.0
			for _, r := range cen {
				m2 += r[a] * r[a] * r[c] * r[c]
			}
			m2 /= N
			se := math.Sqrt((m2 - want[a*n+c]*want[a*n+c]) / M)
			if math.Abs(got-want[a*n+c]) > 5*se+1e-12 {
				t.Errorf("cov[%d][%d] = %g, want %g within 5·SE = %g", a, c, got, want[a*n+c], 5*se)
			}
		}
	}
}

func TestSamplerReadyAndLongerK(t *testing.T) {
	b := mustBank(t, 2, 1, [][]float64{{1, 3}, {3, 7}})
	s := mustSampler(t, b)
	if got := s.Ready(4); !slices.Equal(got, []bool{true, true, false, false}) {
		t.Fatalf("Ready(4) = %v", got)
	}
	eps, err := s.Sample(rand.New(rand.NewPCG(1, 1)), 3, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if eps[i*4+2] != 0 || eps[i*4+3] != 0 || math.Abs(eps[i*4]) != 1 {
			t.Fatalf("draw %d = %v: want ±(1,2,0,0)", i, eps[i*4:i*4+4])
		}
	}
	empty, _ := noise.New(ARName)
	if got := empty.Ready(2); slices.Contains(got, true) {
		t.Fatalf("empty sampler Ready = %v, want all false", got)
	}
	if _, err := empty.Sample(rand.New(rand.NewPCG(1, 1)), 1, 2, 1); err == nil || !strings.Contains(err.Error(), "no bank") {
		t.Fatalf("empty sampler Sample: err = %v, want a refusal", err)
	}
}

func TestSamplerFixedUnderStageCommit(t *testing.T) {
	b := mustBank(t, 2, 2, [][]float64{{1, 2, 3, 4}, {0, 1, 0, 1}, {5, 5, 5, 5}})
	s := mustSampler(t, b)
	before, _ := json.Marshal(s)
	draw := func() []float64 {
		e, err := s.Sample(rand.New(rand.NewPCG(9, 9)), 7, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e0 := draw()
	if err := s.Stage(make([]float64, 3*2*2), 3, 2, 2); err != nil {
		t.Fatal(err)
	}
	s.Commit()
	if err := s.Stage([]float64{9, 9, 9, 9}, 1, 2, 2); err != nil {
		t.Fatal(err)
	}
	s.Discard()
	after, _ := json.Marshal(s)
	if !bytes.Equal(before, after) || !slices.Equal(e0, draw()) {
		t.Fatal("Stage/Commit/Discard changed the bank sampler")
	}
	if err := s.Stage(make([]float64, 3), 1, 1, 3); err == nil || !strings.Contains(err.Error(), "D=3") {
		t.Fatalf("Stage with D=3 on a D=2 bank: err = %v", err)
	}
	if _, err := s.Sample(nil, 1, 2, 2); err == nil {
		t.Fatal("Sample with a nil rng did not fail")
	}
}

func TestSamplerReproducible(t *testing.T) {
	b := mustBank(t, 2, 2, [][]float64{{1, 2, 3, 4}, {0, 1, 0, 1}, {5, 5, 5, 5}})
	s1, s2 := mustSampler(t, b), mustSampler(t, b)
	e1, _ := s1.Sample(rand.New(rand.NewPCG(42, 7)), 50, 2, 2)
	e2, _ := s2.Sample(rand.New(rand.NewPCG(42, 7)), 50, 2, 2)
	e3, _ := s2.Sample(rand.New(rand.NewPCG(43, 7)), 50, 2, 2)
	if !slices.Equal(e1, e2) {
		t.Fatal("same seed, different draws")
	}
	if slices.Equal(e1, e3) {
		t.Fatal("different seeds, same draws")
	}
}

func TestSamplerJSONRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	rows := make([][]float64, 5)
	for i := range rows {
		rows[i] = []float64{rng.NormFloat64(), rng.NormFloat64() * 1e-300, -0.0, math.Pi * rng.Float64(), 1e300 * rng.Float64(), rng.NormFloat64()}
	}
	b := mustBank(t, 3, 2, rows)
	s, err := NewSampler(Config{Name: ARName, Bank: b})
	if err != nil {
		t.Fatal(err)
	}
	j1, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	restored, err := noise.New(ARName) // what a checkpoint restore does
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(j1, restored); err != nil {
		t.Fatal(err)
	}
	j2, _ := json.Marshal(restored)
	if !bytes.Equal(j1, j2) {
		t.Fatalf("round trip changed the JSON:\n%s\n%s", j1, j2)
	}
	r := restored.(*Sampler)
	for i := range rows {
		for j, v := range rows[i] {
			if math.Float64bits(v) != math.Float64bits(r.bank.rows[i][j]) {
				t.Fatalf("row %d value %d: %v restored as %v", i, j, v, r.bank.rows[i][j])
			}
		}
	}
	e1, _ := s.Sample(rand.New(rand.NewPCG(8, 8)), 20, 3, 2)
	e2, _ := restored.Sample(rand.New(rand.NewPCG(8, 8)), 20, 3, 2)
	if !slices.Equal(e1, e2) {
		t.Fatal("restored sampler draws differently")
	}
	// Empty samplers round-trip too.
	empty, _ := noise.New(Name)
	je, _ := json.Marshal(empty)
	e3, _ := noise.New(Name)
	if err := json.Unmarshal(je, e3); err != nil {
		t.Fatal(err)
	}
}

func TestSamplerJSONRefusesCorruptInput(t *testing.T) {
	b := mustBank(t, 1, 2, [][]float64{{1, 2}, {3, 4}})
	s := mustSampler(t, b)
	good, _ := json.Marshal(s)
	cases := map[string]string{
		`"version"`:               `{"sampler":"prior","version":2,"K":1,"D":2,"bank":[[1,2]]}`,
		`"sampler"`:               `{"sampler":"generic","version":1,"K":1,"D":2,"bank":[[1,2]]}`,
		`has 1 values`:            `{"sampler":"prior","version":1,"K":1,"D":2,"bank":[[1]]}`,
		`unknown field`:           `{"sampler":"prior","version":1,"K":1,"D":2,"bank":[[1,2]],"x":1}`,
		`trailing`:                `{"sampler":"prior","version":1,"K":1,"D":2,"bank":[[1,2]]} {}`,
		`K=0`:                     `{"sampler":"prior","version":1,"K":0,"D":2,"bank":[[1,2]]}`,
		`this sampler is "prior"`: `{"sampler":"prior-ar","version":1,"K":1,"D":2,"bank":[[1,2]]}`,
	}
	for want, in := range cases {
		err := s.UnmarshalJSON([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to mention %s", in, err, want)
		}
		if now, _ := json.Marshal(s); !bytes.Equal(now, good) {
			t.Fatalf("%s: a refused input changed the sampler", in)
		}
	}
}

func TestRegistry(t *testing.T) {
	names := noise.Names()
	for _, n := range []string{Name, ARName} {
		if !slices.Contains(names, n) {
			t.Fatalf("noise.Names() = %v lacks %q", names, n)
		}
	}
	b := mustBank(t, 1, 1, [][]float64{{1}, {2}})
	s, err := noise.New(Name, Config{Bank: b})
	if err != nil || s.Name() != Name || !s.Ready(1)[0] {
		t.Fatalf("noise.New(%q, Config) = %v, %v", Name, s, err)
	}
	if _, err := noise.New(ARName, noise.GenericConfig{}); err == nil {
		t.Fatal("a GenericConfig was accepted for prior-ar")
	}
	if _, err := NewSampler(Config{}); err == nil || !strings.Contains(err.Error(), "Bank") {
		t.Fatalf("NewSampler without a bank: err = %v", err)
	}
}

func TestNewBankErrors(t *testing.T) {
	for _, c := range []struct {
		K, D int
		rows [][]float64
		want string
	}{
		{0, 1, [][]float64{{1}}, "K=0"},
		{1, 1, nil, "no trajectories"},
		{1, 2, [][]float64{{1}}, "trajectory 0 has 1 values"},
		{2, 1, [][]float64{{1, math.NaN()}}, "horizon 1, coordinate 0"},
	} {
		if _, err := NewBank(c.K, c.D, c.rows); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewBank(%d, %d, %v): err = %v, want %q", c.K, c.D, c.rows, err, c.want)
		}
	}
}

func TestChooseWithoutReplacement(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	got := chooseWithoutReplacement(rng, 5000, 1024)
	if len(got) != 1024 || !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != 1024 || got[len(got)-1] >= 5000 {
		t.Fatalf("not 1024 distinct sorted indices below 5000")
	}
	if all := chooseWithoutReplacement(rng, 7, 1024); !slices.Equal(all, []int{0, 1, 2, 3, 4, 5, 6}) {
		t.Fatalf("n <= limit: got %v", all)
	}
}

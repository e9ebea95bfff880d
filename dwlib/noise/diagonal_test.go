package noise

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDiagonalMomentsFollowTheEMA(t *testing.T) {
	g, err := NewDiagonal(DiagonalConfig{Beta: 0.5, Floor: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	// n = 2, K = 2, D = 2. Horizon 0: samples (1, 2) and (3, -2); horizon 1: (0, 4) and (2, 0).
	stageCommit(t, g, []float64{1, 2, 0, 4, 3, -2, 2, 0}, 2, 2, 2)
	// Minibatch 1 initialises: horizon 0 mean (2, 0), second (5, 4); horizon 1 mean (1, 2), second (2, 8).
	// Minibatch 2 (n = 1, K = 1) reaches horizon 0 only: residual (4, 2), so mean (4, 2), second (16, 4).
	stageCommit(t, g, []float64{4, 2}, 1, 1, 2)
	// EMA at 0.5: horizon 0 mean (3, 1), second (10.5, 4) -> variance (1.5, 3) + 1e-3 * mean(10.5, 4).
	want := map[int][]float64{
		0: {1.5 + 1e-3*7.25, 3 + 1e-3*7.25},
		1: {1 + 1e-3*5, 4 + 1e-3*5}, // untouched: second - mean^2 = (2 - 1, 8 - 4)
	}
	for k, w := range want {
		got := g.Variance(k)
		for d := range w {
			if math.Abs(got[d]-w[d]) > 1e-12 {
				t.Errorf("Variance(%d)[%d] = %v, want %v", k, d, got[d], w[d])
			}
		}
	}
	if v := g.Variance(2); v != nil {
		t.Errorf("Variance(2) = %v for a horizon never seen", v)
	}
	if r := g.Ready(3); !r[0] || !r[1] || r[2] {
		t.Errorf("Ready(3) = %v, want [true true false]", r)
	}
}

func TestDiagonalSampleHasTheCommittedVariance(t *testing.T) {
	g, err := NewDiagonal(DiagonalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	// One horizon, D = 3: residuals ±(1, 2, 0) around mean (5, 0, 1), so variances (1, 4, ~0).
	stageCommit(t, g, []float64{6, 2, 1, 4, -2, 1}, 2, 1, 3)
	staged := []float64{100, 100, 100} // staged, never committed: must not change the draws
	if err := g.Stage(staged, 1, 1, 3); err != nil {
		t.Fatal(err)
	}
	const n, K = 40000, 2
	eps, err := g.Sample(rand.New(rand.NewPCG(1, 2)), n, K, 3)
	if err != nil {
		t.Fatal(err)
	}
	var sum, sq [3]float64
	var cross float64
	for i := range n {
		row := eps[i*K*3 : i*K*3+3]
		for d, v := range row {
			sum[d] += v
			sq[d] += v * v
		}
		cross += row[0] * row[1]
		for _, v := range eps[i*K*3+3 : (i+1)*K*3] {
			if v != 0 {
				t.Fatalf("horizon 1 is not ready but sample %d drew %v", i, v)
			}
		}
	}
	floor := DefaultDiagonalFloor * (26.0 + 4 + 1) / 3 // the mean of the second moments (26, 4, 1)
	for d, want := range []float64{1 + floor, 4 + floor, floor} {
		got := sq[d] / n
		if math.Abs(got-want) > 0.03*want+1e-9 || math.Abs(sum[d]/n) > 4*math.Sqrt(want/n) {
			t.Errorf("coordinate %d: variance %v, mean %v; want variance %v, mean 0", d, got, sum[d]/n, want)
		}
	}
	if c := cross / n / 2; math.Abs(c) > 0.03 { // correlation of coordinates 0 and 1
		t.Errorf("coordinates 0 and 1 correlate: %v", c)
	}
}

func TestDiagonalJSONRoundTrip(t *testing.T) {
	g, _ := NewDiagonal(DiagonalConfig{Beta: 0.9})
	stageCommit(t, g, []float64{0.1, -0.3, 1e-17, 2.5}, 2, 1, 2)
	if err := g.Stage([]float64{1, 2, 3, 4}, 1, 2, 2); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(DiagonalName)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, s); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(s)
	if string(again) != string(data) {
		t.Fatalf("round trip changed the state:\n%s\n%s", data, again)
	}
	g.Commit()
	s.Commit()
	a, _ := g.Sample(rand.New(rand.NewPCG(3, 4)), 2, 2, 2)
	b, _ := s.Sample(rand.New(rand.NewPCG(3, 4)), 2, 2, 2)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("restored sampler draws %v, original %v", b, a)
		}
	}

	for _, c := range []struct{ name, edit, want string }{
		{"beta", `"beta":0.9`, `"beta":1.5`},
		{"floor", `"floor":1e-8`, `"floor":-1`},
		{"count", `"count":[1]`, `"count":[0]`},
		{"sampler", `"sampler":"diagonal-gaussian"`, `"sampler":"generic"`},
	} {
		bad := strings.Replace(string(data), c.edit, c.want, 1)
		if bad == string(data) {
			t.Fatalf("%s: edit %q not found in %s", c.name, c.edit, data)
		}
		before, _ := json.Marshal(s)
		err := json.Unmarshal([]byte(bad), s)
		if err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: err = %v, want one naming the field", c.name, err)
		}
		if after, _ := json.Marshal(s); string(after) != string(before) {
			t.Errorf("%s: a refused state changed the sampler", c.name)
		}
	}
}

func TestDiagonalRefusesBadInput(t *testing.T) {
	g, _ := NewDiagonal(DiagonalConfig{})
	stageCommit(t, g, []float64{1, 2}, 1, 1, 2)
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"NaN residual", g.Stage([]float64{math.NaN(), 0}, 1, 1, 2), "residual is NaN"},
		{"wrong D", g.Stage([]float64{1, 2, 3}, 1, 1, 3), "D=3 differs"},
		{"short slice", g.Stage([]float64{1}, 1, 1, 2), "length 1"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: err = %v, want containing %q", c.name, c.err, c.want)
		}
	}
	if _, err := g.Sample(nil, 1, 1, 2); err == nil {
		t.Error("Sample with a nil rng succeeded")
	}
	for _, cfg := range []DiagonalConfig{{Beta: 1}, {Floor: -1}, {Floor: math.Inf(1)}} {
		if _, err := New(DiagonalName, cfg); err == nil {
			t.Errorf("New accepted %+v", cfg)
		}
	}
}

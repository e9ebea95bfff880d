package appdiag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestQuantileMatchesNumpy(t *testing.T) {
	// numpy.quantile([4, 1, 3, 2], q) with the default linear method.
	xs := []float64{4, 1, 3, 2}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.1, 1.3}, {0.25, 1.75}, {0.5, 2.5}, {0.75, 3.25}, {0.9, 3.7}, {1, 4}} {
		if got := Quantile(xs, c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", xs, c.q, got, c.want)
		}
	}
	if !slices.Equal(xs, []float64{4, 1, 3, 2}) {
		t.Errorf("Quantile sorted its input: %v", xs)
	}
	if m := Median([]float64{5}); m != 5 {
		t.Errorf("median of one value: %v", m)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("quantile of nothing is not NaN")
	}
}

func TestCoordSampleAllIsExact(t *testing.T) {
	for _, size := range []int{0, -1, 5, 9} {
		s, err := NewCoordSample(5, size, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.Index != nil || s.Scale != 1 || s.Size() != 5 || s.Unique() != 5 {
			t.Fatalf("size %d: %+v, want every coordinate with scale 1", size, s)
		}
		a, b := []float64{1, 2, 3, 4, 5}, []float64{1, 0, -1, 0, 2}
		if d := s.Dot(s.Project(a), s.Project(b)); d != 8 {
			t.Errorf("size %d: dot %v, want 8", size, d)
		}
		if n := s.Norm(s.Project(b)); math.Abs(n-math.Sqrt(6)) > 1e-15 {
			t.Errorf("size %d: norm %v, want √6", size, n)
		}
	}
	if _, err := NewCoordSample(0, 3, 1); err == nil {
		t.Error("a model without parameters was accepted")
	}
}

func TestCoordSampleIsFixedBySeed(t *testing.T) {
	a, _ := NewCoordSample(1000, 50, 7)
	b, _ := NewCoordSample(1000, 50, 7)
	c, _ := NewCoordSample(1000, 50, 8)
	if !slices.Equal(a.Index, b.Index) || slices.Equal(a.Index, c.Index) {
		t.Error("the sample is not a function of the seed")
	}
	if a.Scale != 20 || a.Size() != 50 {
		t.Errorf("scale %v, size %d; want 1000/50 = 20 and 50", a.Scale, a.Size())
	}
	for _, i := range a.Index {
		if i < 0 || i >= 1000 {
			t.Fatalf("coordinate %d out of range", i)
		}
	}
}

// TestCoordSampleIsUnbiased checks E[Scale·Σ_sample a_i b_i] = ⟨a, b⟩ and E[Norm²] = ‖a‖² over
// many fixed-seed samples: the mean estimate must lie within 4 standard errors of the truth,
// while a sample without the full-dimensional scaling is off by the factor Total/Size.
func TestCoordSampleIsUnbiased(t *testing.T) {
	const P, m, R = 400, 25, 4000
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := make([]float64, P), make([]float64, P)
	for i := range a {
		a[i] = rng.NormFloat64() + 0.3
		b[i] = 0.5*a[i] + rng.NormFloat64()
	}
	full, _ := NewCoordSample(P, 0, 0)
	dot, sq := full.Dot(a, b), full.Dot(a, a)
	var est, est2, nrm, nrm2 float64
	for r := range R {
		s, err := NewCoordSample(P, m, uint64(r+1))
		if err != nil {
			t.Fatal(err)
		}
		d := s.Dot(s.Project(a), s.Project(b))
		n := s.Norm(s.Project(a))
		est, est2 = est+d, est2+d*d
		nrm, nrm2 = nrm+n*n, nrm2+n*n*n*n
	}
	check := func(name string, sum, sum2, truth float64) {
		mean := sum / R
		se := math.Sqrt((sum2/R - mean*mean) / R)
		if math.Abs(mean-truth) > 4*se {
			t.Errorf("%s: mean estimate %.4f, truth %.4f, standard error %.4f", name, mean, truth, se)
		}
		if unscaled := mean * m / P; math.Abs(unscaled-truth) < 4*se {
			t.Errorf("%s: the unscaled estimate %.4f is also within 4 SE of %.4f: the test has no power", name, unscaled, truth)
		}
	}
	check("inner product", est, est2, dot)
	check("squared norm", nrm, nrm2, sq)
}

func TestMeasureHandWorked(t *testing.T) {
	cs, _ := NewCoordSample(2, 0, 0)
	gA := [][]float64{{3, 4}, {0, -2}, {0, 0}}
	gB := []float64{1, 1}
	a, u, na, nb := Measure(cs, gA, gB)
	want := func(name string, got, w []float64) {
		for i := range w {
			if math.Abs(got[i]-w[i]) > 1e-12 {
				t.Errorf("%s = %v, want %v", name, got, w)
				return
			}
		}
	}
	want("A", a, []float64{1, 0.4, 0})
	want("U", u, []float64{1.4, -1, 0}) // a zero gradient has zero utility (norm guarded at 1e-30)
	want("‖g_k^A‖", na, []float64{5, 2, 0})
	if math.Abs(nb-math.Sqrt2) > 1e-15 {
		t.Errorf("‖ḡ^B‖ = %v, want √2", nb)
	}
}

func TestSummary(t *testing.T) {
	r := &UtilityResult{K: 2, Pairs: make([]Pair, 4),
		A: [][]float64{{1, 4}, {1, 1}, {1, 3}, {1, 2}},
		U: [][]float64{{0.5, -1}, {0.1, 2}, {0.2, -3}, {0.3, -0.5}}}
	s := r.Summary()
	if s.AMedian[1] != 2.5 || math.Abs(s.AQ10[1]-1.3) > 1e-12 || math.Abs(s.AQ90[1]-3.7) > 1e-12 {
		t.Errorf("A(2): median %v, band [%v, %v]; want 2.5, [1.3, 3.7]", s.AMedian[1], s.AQ10[1], s.AQ90[1])
	}
	if math.Abs(s.UMedian[0]-0.25) > 1e-12 || s.UMedian[1] != -0.75 || math.Abs(s.UQ25[1]+1.5) > 1e-12 || math.Abs(s.UQ75[1]-0.125) > 1e-12 {
		t.Errorf("U: medians %v, U(2) band [%v, %v]; want [0.25 -0.75], [-1.5, 0.125]", s.UMedian, s.UQ25[1], s.UQ75[1])
	}
	if s.NegativeSteps != 1 || s.NegativeFraction != 0.5 || s.AFinal != 2.5 || s.AMax != 2.5 || s.Pairs != 4 {
		t.Errorf("summary %+v", s)
	}
}

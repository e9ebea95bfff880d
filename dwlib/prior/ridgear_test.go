package prior

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Only complete lag windows inside one segment count: with segments [1 2]
// and [3 4 5] and p = 1 the pairs are 1→2, 3→4, 4→5 (not 2→3), so
// phi = (1·2 + 3·4 + 4·5)/(1 + 9 + 16) = 34/26; with the relative ridge
// lambda, s = G = 26 and phi = 34/(26(1+lambda)).
func TestFitScalarARHandWorked(t *testing.T) {
	segs := [][]float64{{1, 2}, {3, 4, 5}}
	phi, err := FitScalarAR(segs, 1, 0)
	if err != nil || math.Abs(phi[0]-34.0/26) > 1e-14 {
		t.Fatalf("p=1, ridge 0: %v, %v; want 34/26", phi, err)
	}
	phi, err = FitScalarAR(segs, 1, 0.5)
	if err != nil || math.Abs(phi[0]-34.0/(26*1.5)) > 1e-14 {
		t.Fatalf("p=1, ridge 0.5: %v, %v; want 34/39", phi, err)
	}
	// p = 2: only target 5 with lags (4, 3); G = [[16,12],[12,9]] (s = 12.5),
	// c = (20, 15). With ridge 1: (G + 12.5 I) phi = c.
	phi, err = FitScalarAR(segs, 2, 1)
	a, b, c, d := 28.5, 12.0, 12.0, 21.5
	det := a*d - b*c
	w0, w1 := (d*20-b*15)/det, (a*15-c*20)/det
	if err != nil || math.Abs(phi[0]-w0) > 1e-14 || math.Abs(phi[1]-w1) > 1e-14 {
		t.Fatalf("p=2, ridge 1: %v, %v; want [%v %v]", phi, err, w0, w1)
	}
	if _, err := FitScalarAR(segs, 2, 0); err == nil || !strings.Contains(err.Error(), "singular") {
		t.Fatalf("one window, ridge 0: err = %v, want singular", err)
	}
	if _, err := FitScalarAR(segs, 3, 1); err == nil || !strings.Contains(err.Error(), "no segment") {
		t.Fatalf("p=3: err = %v, want no complete window", err)
	}
	if _, err := FitScalarAR(segs, -1, 1); err == nil || !strings.Contains(err.Error(), "p=-1") {
		t.Fatalf("p=-1: err = %v", err)
	}
}

func TestFitScalarARNoiseFreeRecovery(t *testing.T) {
	want := []float64{2 * 0.97 * math.Cos(0.3), -0.97 * 0.97}
	var segs [][]float64
	for s := range 3 {
		y := []float64{1 + float64(s), -0.5 * float64(s)}
		for t := 2; t < 80; t++ {
			y = append(y, want[0]*y[t-1]+want[1]*y[t-2])
		}
		segs = append(segs, y)
	}
	phi, err := FitScalarAR(segs, 2, 0)
	if err != nil || math.Abs(phi[0]-want[0]) > 1e-10 || math.Abs(phi[1]-want[1]) > 1e-10 {
		t.Fatalf("phi = %v, %v; want %v", phi, err, want)
	}
	f := arForecast(phi, segs[0][:10], 3)
	for k := range 3 {
		if math.Abs(f[k]-segs[0][10+k]) > 1e-9 {
			t.Fatalf("forecast %d = %v, want %v", k, f[k], segs[0][10+k])
		}
	}
}

// The fast lag Gram (first row plus diagonal recursion) against the direct
// normal equations on random segments of several lengths, some shorter than p.
func TestFitScalarARMatchesDirectSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var segs [][]float64
	for _, L := range []int{3, 40, 7, 120, 6} {
		y := make([]float64, L)
		for i := range y {
			y[i] = rng.NormFloat64() + 0.3
		}
		segs = append(segs, y)
	}
	const p, ridge = 6, 0.01
	G := mat.NewDense(p, p, nil)
	c := mat.NewVecDense(p, nil)
	for _, y := range segs {
		for tt := p; tt < len(y); tt++ {
			for i := range p {
				c.SetVec(i, c.AtVec(i)+y[tt-1-i]*y[tt])
				for j := range p {
					G.Set(i, j, G.At(i, j)+y[tt-1-i]*y[tt-1-j])
				}
			}
		}
	}
	s := 0.0
	for i := range p {
		s += G.At(i, i) / p
	}
	for i := range p {
		G.Set(i, i, G.At(i, i)+ridge*s)
	}
	var want mat.VecDense
	if err := want.SolveVec(G, c); err != nil {
		t.Fatal(err)
	}
	got, err := FitScalarAR(segs, p, ridge)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p {
		if math.Abs(got[i]-want.AtVec(i)) > 1e-12 {
			t.Fatalf("phi = %v, direct solve %v", got, mat.Formatted(want.T()))
		}
	}
}

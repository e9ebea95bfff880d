package knownsnr

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

func TestNewFan(t *testing.T) {
	p := data.KnownSNR()
	X := p.Simulate(60, rand.New(rand.NewPCG(1, 2)))
	t0, H, B, K := 20, 16, 5, 12
	for _, d := range []int{0, 7} {
		f, err := NewFan(p, X, t0, d, H, B, K, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.History) != H+1 || f.History[0] != X[t0-H][d] || f.History[H] != X[t0][d] {
			t.Errorf("d=%d: history %v does not run from x_{t0-H} to x_{t0}", d, f.History)
		}
		if len(f.Mean) != K+1 || f.Mean[0] != X[t0][d] || math.Abs(f.Mean[3]-math.Pow(p.Coef[d], 3)*X[t0][d]) > 1e-15 {
			t.Errorf("d=%d: conditional mean %v", d, f.Mean)
		}
		cont := p.Continuations(X[t0], B, K, 7)
		if len(f.Paths) != B {
			t.Fatalf("d=%d: %d paths, want %d", d, len(f.Paths), B)
		}
		for b, path := range f.Paths {
			if len(path) != K+1 || path[0] != X[t0][d] || path[K] != cont[b][K-1][d] {
				t.Errorf("d=%d, path %d: %v does not follow the continuation", d, b, path)
			}
		}
	}
	if _, err := NewFan(p, X, 10, 0, H, B, K, 7); err == nil {
		t.Errorf("a history reaching before the trajectory was accepted")
	}
	if _, err := NewFan(p, X, t0, 8, H, B, K, 7); err == nil {
		t.Errorf("coordinate 8 of an 8-dimensional process was accepted")
	}
}

func TestRelativeToFull(t *testing.T) {
	s := &GradSplit{K: 3, Total: []float64{4, 2, 8}}
	got := s.RelativeToFull([]float64{4, 2, 8})
	if got[0] != 0.5 || got[1] != 0.25 || got[2] != 1 {
		t.Errorf("RelativeToFull = %v, want [0.5 0.25 1]", got)
	}
}

package fields

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRadialSpectrumPlantedModes: a single Fourier mode cos(2π(ax/W + by/H)) puts all its power,
// Σ z² = H·W/2, in shell round(√(a² + b²)); a constant field puts H·W·c² in shell 0.
func TestRadialSpectrumPlantedModes(t *testing.T) {
	const H, W = 8, 16
	for _, tc := range []struct {
		a, b  int
		shell int
	}{{1, 0, 1}, {0, 2, 2}, {3, 4, 5}, {5, 1, 5}} {
		z := make([]float64, H*W)
		for y := range H {
			for x := range W {
				z[y*W+x] = math.Cos(2 * math.Pi * (float64(tc.a*x)/W + float64(tc.b*y)/H))
			}
		}
		s, err := RadialSpectrum(z, H, W)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range s {
			want := 0.0
			if i == tc.shell {
				want = H * W / 2
			}
			if math.Abs(p-want) > 1e-9 {
				t.Errorf("mode (%d, %d): shell %d power %v, want %v", tc.a, tc.b, i, p, want)
			}
		}
	}
	z := make([]float64, H*W)
	for i := range z {
		z[i] = 3
	}
	s, _ := RadialSpectrum(z, H, W)
	if math.Abs(s[0]-9*H*W) > 1e-9 {
		t.Errorf("constant field: shell 0 power %v, want %v", s[0], 9*H*W)
	}
}

// TestRadialSpectrumParseval: the shells of a random field sum to Σ z²; a wrong size is an error.
func TestRadialSpectrumParseval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const H, W = 6, 10
	z := make([]float64, H*W)
	var sum float64
	for i := range z {
		z[i] = rng.NormFloat64()
		sum += z[i] * z[i]
	}
	s, err := RadialSpectrum(z, H, W)
	if err != nil {
		t.Fatal(err)
	}
	var tot float64
	for _, p := range s {
		tot += p
	}
	if math.Abs(tot-sum) > 1e-9*sum {
		t.Errorf("shells sum to %v, Σ z² = %v", tot, sum)
	}
	if _, err := RadialSpectrum(z, H+1, W); err == nil {
		t.Error("RadialSpectrum accepted 60 values as a 7×10 field")
	}
}

package calib

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// probe returns deterministic, non-trivial reduced probe moments for
// minibatch b: tot and noise laid out [K][L]. The noise scale cycles so the
// solves land on interior, edge and corner candidates.
func probe(b, K, L int) (tot, noise []wiener.Sym2) {
	for k := range K {
		for l := range L {
			x := float64(1 + (b*7+k*3+l*5)%11)
			f := []float64{0.1, 0.8, 3, 0.4}[(b+2*k+l)%4]
			tot = append(tot, wiener.Sym2{II: 2 + x, IJ: 0.3*x - 1, JJ: 1 + x/3})
			noise = append(noise, wiener.Sym2{II: f * (0.5 + x/4), IJ: f * (0.3 - 0.05*x), JJ: f * (3 - x/5)})
		}
	}
	return tot, noise
}

func allReady(K int) []bool {
	r := make([]bool, K)
	for k := range r {
		r[k] = true
	}
	return r
}

func mustNew(t *testing.T, cfg Config) *Controller {
	t.Helper()
	c, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fastCfg calibrates on every minibatch from b = 0.
func fastCfg(K, L int) Config {
	return Config{K: K, L: L, Warmup: 0, Period: 1, RouteEMA: DefaultRouteEMA}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func symClose(a, b wiener.Sym2, tol float64) bool {
	return math.Abs(a.II-b.II) <= tol && math.Abs(a.IJ-b.IJ) <= tol && math.Abs(a.JJ-b.JJ) <= tol
}

func symBits(a, b wiener.Sym2) bool {
	return math.Float64bits(a.II) == math.Float64bits(b.II) &&
		math.Float64bits(a.IJ) == math.Float64bits(b.IJ) &&
		math.Float64bits(a.JJ) == math.Float64bits(b.JJ)
}

package regime

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// gen builds units of length T with dim state coordinates from a per-unit generator; every
// random draw comes from PCG(seed, unit).
func gen(t *testing.T, n, T int, seed uint64, unit func(rng *rand.Rand, T int) data.Series) []data.Series {
	t.Helper()
	out := make([]data.Series, n)
	for i := range out {
		out[i] = unit(rand.New(rand.NewPCG(seed, uint64(i)+1)), T)
	}
	return out
}

// dataset splits generated units 60/20/20 into a data.Dataset (which standardises them).
func dataset(t *testing.T, name string, units []data.Series) *data.Dataset {
	t.Helper()
	n := len(units)
	a, b := n*6/10, n*8/10
	ds, err := data.NewDataset(name, units[:a], units[a:b], units[b:], false)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// arUnit is dim independent AR(lag) channels x_t = phi x_{t-lag} + sqrt(1-phi^2) e_t (stationary,
// unit variance), with no drive; phi = 0 gives iid noise.
func arUnit(dim, lag int, phi float64) func(*rand.Rand, int) data.Series {
	return func(rng *rand.Rand, T int) data.Series {
		burn := 200
		x := make([][]float64, T+burn)
		for t := range x {
			x[t] = make([]float64, dim)
			for d := range dim {
				prev := rng.NormFloat64()
				if t >= lag {
					prev = x[t-lag][d]
				}
				x[t][d] = phi*prev + math.Sqrt(1-phi*phi)*rng.NormFloat64()
			}
		}
		return data.Series{X: x[burn:]}
	}
}

// quickConfig is a small configuration for tests.
func quickConfig(horizons, windows []int, pca int) Config {
	return Config{Horizons: horizons, Windows: windows, PCADim: pca, Neighbors: 16,
		FitExamples: 1500, ValExamples: 800, TestExamples: 800, NullRepeats: 3, Seed: 1}
}

package regime

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

func TestGenericConfig(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		stateDim, K, unitLen int
		horizons, windows    []int
		pca                  int
		err                  string
	}{
		{"CSV default K = 32", 3, 32, 256, []int{1, 2, 4, 8, 16, 24, 32}, []int{1, 2, 4, 8, 16, 32}, 3, ""},
		{"wide state, long K", 20, 96, 256, []int{1, 2, 4, 8, 16, 24, 32, 48, 64, 96}, []int{1, 2, 4, 8, 16, 32}, 8, ""},
		{"short units cap the widths", 1, 64, 72, []int{1, 2, 4, 8, 16, 24, 32, 48, 64}, []int{1, 2, 4, 8}, 1, ""},
		{"short units cap the horizons", 2, 64, 40, []int{1, 2, 4, 8, 16, 24, 32}, []int{1, 2, 4, 8}, 2, ""},
		{"K below the long horizons", 2, 4, 256, nil, nil, 0, "at least 8 steps"},
		{"no state", 0, 32, 256, nil, nil, 0, "state dimension"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := GenericConfig(tc.stateDim, tc.K, tc.unitLen)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.Horizons, tc.horizons) || !slices.Equal(c.Windows, tc.windows) || c.PCADim != tc.pca {
				t.Errorf("horizons %v windows %v PCA %d, want %v %v %d", c.Horizons, c.Windows, c.PCADim, tc.horizons, tc.windows, tc.pca)
			}
			if c.DriveShift != -1 || c.Score != ScoreTest || c.Neighbors != DefaultNeighbors || c.LongMin != 8 {
				t.Errorf("shift %d score %q q %d long %d", c.DriveShift, c.Score, c.Neighbors, c.LongMin)
			}
			// Every origin must fit: the longest width and horizon inside one unit.
			if o := Origins([]int{tc.unitLen}, c.maxW(), c.maxH(), c.DriveShift, 0, nil); len(o) == 0 {
				t.Errorf("no origin fits in a unit of %d rows", tc.unitLen)
			}
		})
	}
}

// drivenUnits returns units whose state is twice a white-noise drive, X[t] = 2·D[t−lag]: lag 1
// is this project's convention (D[t] acts over t → t+1, so a forecaster of X[t] has seen it),
// lag 0 a state made by the drive of its own row, which a forecaster sees only afterwards.
func drivenUnits(n, length, lag int, seed uint64) []data.Series {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]data.Series, n)
	for u := range out {
		s := data.Series{X: make([][]float64, length), Drive: make([][]float64, length)}
		for t := range length {
			s.Drive[t] = []float64{rng.NormFloat64()}
		}
		for t := range length {
			s.X[t] = []float64{rng.NormFloat64()} // no drive before the first row
			if t >= lag {
				s.X[t][0] = 2 * s.Drive[t-lag][0]
			}
		}
		out[u] = s
	}
	return out
}

// TestGenericConfigReadsTheDriveThatActed checks the generic configuration's drive window
// (DriveShift −1: the rows that acted over the predicted interval) on two processes. When the
// state is made by the previous row's drive, the ridge probe's Ψ_D is 1 up to the ridge's
// shrinkage and history adds nothing. When it is made by its own row's drive, which acts only
// after the state is observed, the window holds nothing useful and Ψ_D is at most 0, while the
// authors' window (shift 0, their generator's convention) reads that row and scores 1.
func TestGenericConfigReadsTheDriveThatActed(t *testing.T) {
	dataset := func(lag int) *data.Dataset {
		return &data.Dataset{Name: "driven", StateDim: 1, DriveDim: 1,
			Train: drivenUnits(16, 128, lag, 1), Val: drivenUnits(8, 128, lag, 2), Test: drivenUnits(8, 128, lag, 3)}
	}
	c, err := GenericConfig(1, 32, 128)
	if err != nil {
		t.Fatal(err)
	}
	c = c.Quick()
	c.Horizons = []int{1, 2, 4, 8, 16, 32}
	for _, tc := range []struct {
		name       string
		lag, shift int
		psiD       float64
	}{
		{"previous row's drive, shift −1", 1, -1, 1},
		{"own row's drive, shift −1", 0, -1, 0},
		{"own row's drive, shift 0", 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := c
			c.DriveShift = tc.shift
			r, err := Run(dataset(tc.lag), c, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Without signal the fitted probe can only overfit: Ψ_D at or below 0.
			if got := r.Linear.Long.PsiD; tc.psiD == 1 && got < 0.98 || tc.psiD == 0 && got > 0.02 {
				t.Errorf("linear Ψ_D = %.4f, want %.0f", got, tc.psiD)
			}
			if tc.psiD == 1 && math.Abs(r.Linear.Long.DeltaPsiH) > 0.02 {
				t.Errorf("linear ΔΨ_H = %.4f, want ≈ 0 (history adds nothing to the drive)", r.Linear.Long.DeltaPsiH)
			}
		})
	}
}

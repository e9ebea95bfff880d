package train

import (
	"fmt"
	"math"
	"testing"
)

func TestWorstRise(t *testing.T) {
	for _, tc := range []struct {
		name      string
		losses    []float64
		wantRatio float64
		wantEpoch int
	}{
		{"empty", nil, 1, 0},
		{"only improves", []float64{1, 0.8, 0.5, 0.5}, 1, 0},
		{"one blow-up", []float64{1, 0.5, 2, 0.4}, 4, 3},
		{"rises from the first epoch", []float64{1, 2}, 2, 2},
		{"the larger of two rises", []float64{1, 0.5, 1, 0.25, 1.5, 0.2}, 6, 5},
		{"a rise measured from the lowest before it, not the previous epoch", []float64{1, 0.2, 0.4, 0.8}, 4, 4},
		{"non-finite and zero losses skipped", []float64{1, math.NaN(), 0, 0.5, math.Inf(1), 1.5}, 3, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eps []EpochRecord
			for i, l := range tc.losses {
				eps = append(eps, EpochRecord{Epoch: i + 1, TrainLoss: l})
			}
			r, e := WorstRise(eps)
			if math.Abs(r-tc.wantRatio) > 1e-12 || e != tc.wantEpoch {
				t.Errorf("WorstRise(%v) = %v, %d; want %v, %d", tc.losses, r, e, tc.wantRatio, tc.wantEpoch)
			}
		})
	}
}

// A run whose training loss fell to 0.4 and then climbed to 2.0 at epoch 4 rose five-fold.
func ExampleWorstRise() {
	var eps []EpochRecord
	for i, l := range []float64{0.9, 0.4, 0.7, 2.0, 0.6} {
		eps = append(eps, EpochRecord{Epoch: i + 1, TrainLoss: l})
	}
	r, e := WorstRise(eps)
	fmt.Printf("%.1f-fold at epoch %d\n", r, e)
	// Output: 5.0-fold at epoch 4
}

package train

import (
	"fmt"
	"math"
	"testing"
)

func TestGradNormRange(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		norms                   []float64
		wantLargest, wantMedian float64
		wantEpoch               int
	}{
		{"empty", nil, 0, 0, 0},
		{"one epoch", []float64{2}, 2, 2, 1},
		{"odd count: the middle value", []float64{3, 1, 2}, 3, 2, 1},
		{"even count: the mean of the middle two", []float64{1, 4, 2, 8}, 8, 3, 4},
		{"a spike leaves the median down", []float64{2, 3, 5e6, 2, 3}, 5e6, 3, 3},
		{"a run that stays exploded moves the median up", []float64{2, 1e5, 3e6, 2e5, 4e4}, 3e6, 1e5, 3},
		{"non-finite and stepless epochs skipped", []float64{math.NaN(), 0, 1, math.Inf(1), 5, -1, 3}, 5, 3, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eps []EpochRecord
			for i, g := range tc.norms {
				eps = append(eps, EpochRecord{Epoch: i + 1, GradNorm: g})
			}
			l, m, e := GradNormRange(eps)
			if l != tc.wantLargest || math.Abs(m-tc.wantMedian) > 1e-12 || e != tc.wantEpoch {
				t.Errorf("GradNormRange(%v) = %v, %v, %d; want %v, %v, %d", tc.norms, l, m, e, tc.wantLargest, tc.wantMedian, tc.wantEpoch)
			}
		})
	}
}

// A run whose gradient norm spiked to a million at epoch 3 and came back: the median stays at the
// typical norm.
func ExampleGradNormRange() {
	var eps []EpochRecord
	for i, g := range []float64{4, 3, 1e6, 2, 3} {
		eps = append(eps, EpochRecord{Epoch: i + 1, GradNorm: g})
	}
	l, m, e := GradNormRange(eps)
	fmt.Printf("largest %.0g at epoch %d, median %g\n", l, e, m)
	// Output: largest 1e+06 at epoch 3, median 3
}

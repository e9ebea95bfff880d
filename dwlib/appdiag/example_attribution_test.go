package appdiag_test

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/appdiag"
)

// An Attribution's summaries, on two routes: the sampler's draw carries 1.5 times the total
// probe's route energy pooled, more than it on one route of two, and the two factors of the
// foreign residual's share multiply back to it.
func ExampleAttribution() {
	a := &appdiag.Attribution{
		Total:           []float64{2, 2},
		Rescaled:        []float64{1, 3},
		Foreign:         []float64{2, 6},
		ForeignCentered: []float64{1, 5},
	}
	pattern := a.Pooled(a.Rescaled)
	size := a.Pooled(a.Foreign) / pattern
	fmt.Printf("pattern %.2f × size %.2f = foreign %.2f\n", pattern, size, a.Pooled(a.Foreign))
	fmt.Printf("sampler draw %.2f pooled, %.2f route-averaged, above 1 on %.0f%% of routes\n",
		a.Pooled(a.ForeignCentered), a.MeanRatio(a.ForeignCentered), 100*a.FractionAbove(a.ForeignCentered))
	// Output:
	// pattern 1.00 × size 2.00 = foreign 2.00
	// sampler draw 1.50 pooled, 1.50 route-averaged, above 1 on 50% of routes
}

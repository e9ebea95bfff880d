package data

import (
	"fmt"
	"math"
)

// MaxCSVMagnitude is the largest magnitude a CSV value may have. The model computes in float32,
// whose largest finite value is about 3.4e38; standardisation sums squares of deviations in
// float64. A value above 1e30 survives both with room to spare, and no measured quantity in any
// unit a user would choose comes near it; a larger one is a corrupt cell or a sentinel, and
// accepting it would end in a NaN loss blamed on the learning rate (issue 40).
const MaxCSVMagnitude = 1e30

// MaxStandardized is the largest magnitude a value may have after standardisation with the
// training statistics, in training standard deviations. Its square, summed over any batch, stays
// far inside float32; a value this far outside the training spread (a test-split outlier against
// a flat training split) would overflow the loss instead of being forecast.
const MaxStandardized = 1e9

// checkMagnitude refuses a finite value whose magnitude exceeds MaxCSVMagnitude.
func checkMagnitude(v float64) error {
	if math.Abs(v) > MaxCSVMagnitude {
		return fmt.Errorf("magnitude %.3g exceeds the limit %.0g (the model computes in float32, whose largest value is %.3g; standardisation squares deviations): rescale the column or fix the cell", math.Abs(v), MaxCSVMagnitude, math.MaxFloat32)
	}
	return nil
}

// checkStandardized refuses a table whose values, standardised with the statistics of its
// training units (norm), exceed MaxStandardized; the error names the file, the line and the
// column. rows are the table's rows of the units, in the order Dataset cut them.
func (t *CSVTable) checkStandardized(norm Normalizer, rows []int) error {
	check := func(a Affine, vals [][]float64, names []string, kind string) error {
		if a.IsIdentity() {
			return nil
		}
		for _, r := range rows {
			for j, v := range vals[r] {
				z := (v - a.Mean[j]) / a.Std[j]
				if math.Abs(z) <= MaxStandardized { // false for NaN too
					continue
				}
				line := r + 2
				if r < len(t.Lines) {
					line = t.Lines[r]
				}
				name := fmt.Sprintf("%s coordinate %d", kind, j)
				if j < len(names) {
					name = fmt.Sprintf("column %q", names[j])
				}
				return fmt.Errorf("data: %s line %d: %s: value %g is %.3g standard deviations of the training split from its mean (mean %g, standard deviation %g); more than %.0g cannot be trained on in float32: fix the value, or choose a split whose training rows span the data's range",
					t.Path, line, name, v, math.Abs(z), a.Mean[j], a.Std[j], MaxStandardized)
			}
		}
		return nil
	}
	if err := check(norm.State, t.Values, t.Spec.State, "state"); err != nil {
		return err
	}
	if t.Drive != nil {
		// The file's drive columns come first in the drive; the calendar coordinates after them are bounded.
		if err := check(norm.Drive, t.Drive, t.Spec.Drive, "drive"); err != nil {
			return err
		}
	}
	return nil
}

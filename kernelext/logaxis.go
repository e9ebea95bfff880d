package kernelext

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// The log-scaled charts here (BandChart and LineChart with logY) draw log10 of their values on a
// linear axis labelled with the values themselves (LogValueTicks), instead of using gonum's
// plot.LogScale. gonum places the padding box of the y-axis label at the arithmetic midpoint of
// the axis range, which on a log axis lies near the top, so a long label pushed the data area
// down and left a gap under the title (notebook 05's first panel lost a fifth of its height).
// plot.LogTicks also wrote "1e+01" where "10" reads better.

// LogValueTicks is a plot.Ticker for an axis whose data are log10 of the values shown: a labelled
// tick at every power of ten in range, written as the value ("0.01", "1", "100"), and unlabelled
// ticks at 2–9 times each power. Where the range holds fewer than two powers of ten, the
// multiples 2 and 5 are labelled too, so the axis always reads.
type LogValueTicks struct{}

// Ticks implements plot.Ticker; min and max are log10 values.
func (LogValueTicks) Ticks(min, max float64) []plot.Tick {
	if math.IsNaN(min) || math.IsNaN(max) || math.IsInf(min, 0) || math.IsInf(max, 0) || max < min {
		return nil
	}
	lo, hi := int(math.Floor(min)), int(math.Ceil(max))
	inRange := func(v float64) bool { return v >= min-1e-9 && v <= max+1e-9 }
	powers := 0
	for e := lo; e <= hi; e++ {
		if inRange(float64(e)) {
			powers++
		}
	}
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		for m := 1; m <= 9; m++ {
			v := float64(e) + math.Log10(float64(m))
			if !inRange(v) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || powers < 2 && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(float64(m)*math.Pow(10, float64(e)), 'g', 6, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// logValue returns log10 of v when logY is set, else v itself.
func logValue(logY bool, v float64) float64 {
	if logY {
		return math.Log10(v)
	}
	return v
}

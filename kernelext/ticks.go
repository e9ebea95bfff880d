package kernelext

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// IntegerTicks is a plot.Ticker with a labelled tick at every integer of the axis range, or at
// every n-th integer (n = ⌈range/10⌉) when there would be more than about ten: the axis of
// epochs, layers or horizons.
//
//	p.Y.Tick.Marker = kernelext.IntegerTicks{}
type IntegerTicks struct{}

// Ticks implements plot.Ticker.
func (IntegerTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	step := math.Max(1, math.Ceil((max-min)/10))
	for v := math.Ceil(min); v <= max; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprint(v)})
	}
	return ticks
}

// TicksAt is a plot.Ticker with labelled ticks at exactly the given values (labelled with
// fmt.Sprint), whatever the axis range.
//
//	p.X.Tick.Marker = kernelext.TicksAt(0, 0.5, 1, 1.5)
func TicksAt(values ...float64) plot.Ticker {
	ticks := make([]plot.Tick, len(values))
	for i, v := range values {
		ticks[i] = plot.Tick{Value: v, Label: fmt.Sprint(v)}
	}
	return plot.ConstantTicks(ticks)
}

// ReadableTicks is a plot.Ticker with at most five labelled ticks at multiples of a round step
// (1, 2, 2.5 or 5 times a power of ten), every label written with the decimals the step needs, so
// a label is the tick's value and neighbouring labels differ by the same amount. gonum's
// DefaultTicks can round labels on a narrow range (0.925 written "0.93" beside a "0.99"), which
// misreads a chart of errors that differ in the second decimal. Unlabelled minor ticks fall
// between the labelled ones.
//
//	p.Y.Tick.Marker = kernelext.ReadableTicks{}
type ReadableTicks struct{}

// readableMaxLabels is the most labelled ticks ReadableTicks puts on an axis.
const readableMaxLabels = 5

// Ticks implements plot.Ticker.
func (ReadableTicks) Ticks(min, max float64) []plot.Tick {
	if math.IsInf(min, 0) || math.IsInf(max, 0) || math.IsNaN(min) || math.IsNaN(max) {
		return nil // no round step spans an infinite range (gonum sanitises its axes before this)
	}
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: strconv.FormatFloat(min, 'g', 6, 64)}}
	}
	step, decimals, minors := readableStep(min, max)
	var ticks []plot.Tick
	first := math.Ceil(min/step - 1e-9)
	for i := first; i*step <= max+1e-9*step; i++ {
		v := i*step + 0 // + 0: no "-0.00"
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	minor := step / float64(minors)
	for i := math.Ceil(min/minor - 1e-9); i*minor <= max+1e-9*minor; i++ {
		if math.Mod(i, float64(minors)) != 0 {
			ticks = append(ticks, plot.Tick{Value: i * minor})
		}
	}
	return ticks
}

// readableStep is the smallest round step that puts at most readableMaxLabels multiples of it in
// [min, max], the decimals its labels need, and the number of minor intervals per step.
func readableStep(min, max float64) (step float64, decimals, minors int) {
	for exp := math.Floor(math.Log10(max-min)) - 1; ; exp++ {
		for _, m := range []struct {
			mantissa float64
			extra    int // one more decimal for 2.5 (below 10)
			minors   int
		}{{1, 0, 5}, {2, 0, 4}, {2.5, 1, 5}, {5, 0, 5}} {
			step = m.mantissa * math.Pow(10, exp)
			if n := math.Floor(max/step+1e-9) - math.Ceil(min/step-1e-9) + 1; n <= readableMaxLabels {
				return step, int(math.Max(0, -exp+float64(m.extra))), m.minors
			}
		}
	}
}

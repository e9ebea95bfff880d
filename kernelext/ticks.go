package kernelext

import (
	"fmt"
	"math"

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

package kernelext

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// HeatScale is the colour scale of a heat map and of its colour bar: a colour map over a fixed
// range, so that maps drawn with the same scale (several epochs, several panels) can be compared
// colour for colour.
//
//	gains := kernelext.HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1, Label: "gain"}
//	p := kernelext.HeatMap("alpha, epoch 3", "horizon k", "layer l", grid, gains)
//	kernelext.ShowHeatGrid([][]*plot.Plot{{p}}, gains, "gain-map", w, h)
//
// The scale owns Colors: HeatMap and ColorBar set its range (SetMin, SetMax).
type HeatScale struct {
	// Colors maps [Min, Max] onto colours, Min to the first.
	Colors palette.ColorMap
	// Min and Max are the fixed range, in the data's units. With Max <= Min the range is the
	// data's: HeatMap fits it to its grid (see Fit).
	Min, Max float64
	// Log colours by log10 of the values (which must then be positive); Min, Max and Ticks stay
	// in the data's units and the colour bar is labelled in them.
	Log bool
	// Steps is the number of colours of the heat map's palette (0: 101).
	Steps int
	// Over and Under colour the values above Max and below Min; nil leaves them undrawn, unless
	// Clip is set.
	Over, Under color.Color
	// Clip draws values outside [Min, Max] in the palette's end colours (where Over and Under
	// are nil), as a colour bar labelled "clipped" promises.
	Clip bool
	// Label is the colour bar's axis label.
	Label string
	// Ticks are the colour bar's ticks in the data's units, labelled with fmt.Sprint; those outside
	// [Min, Max] are dropped. nil: gonum's default ticks.
	Ticks []float64
}

// RasterizeAbove is the number of cells above which HeatMap draws its grid as one image instead
// of one rectangle per cell: small maps (a gain per route) stay crisp vectors, and large ones
// (a risk surface on 121×121 points) keep the SVG small.
var RasterizeAbove = 2500

// Fixed reports whether s has its own range (Max > Min) rather than the data's.
func (s HeatScale) Fixed() bool { return s.Max > s.Min }

// Fit returns s with the range of g's values (NaN values ignored) when s has no fixed range,
// and s itself otherwise.
func (s HeatScale) Fit(g plotter.GridXYZ) HeatScale {
	if s.Fixed() {
		return s
	}
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	c, r := g.Dims()
	for i := range c {
		for j := range r {
			if v := g.Z(i, j); !math.IsNaN(v) {
				s.Min, s.Max = math.Min(s.Min, v), math.Max(s.Max, v)
			}
		}
	}
	return s
}

// scaled is v in the colour map's units: log10(v) for a log scale.
func (s HeatScale) scaled(v float64) float64 {
	if s.Log {
		return math.Log10(v)
	}
	return v
}

// logGrid is a grid with log10 values.
type logGrid struct{ plotter.GridXYZ }

func (g logGrid) Z(c, r int) float64 { return math.Log10(g.GridXYZ.Z(c, r)) }

// check reports a scale HeatMap and ColorBar cannot use.
func (s HeatScale) check() error {
	switch {
	case s.Colors == nil:
		return fmt.Errorf("kernelext: HeatScale %q has no Colors", s.Label)
	case !s.Fixed():
		return fmt.Errorf("kernelext: HeatScale %q has range [%v, %v]: fix it, or Fit it to the data first", s.Label, s.Min, s.Max)
	case s.Log && !(s.Min > 0):
		return fmt.Errorf("kernelext: HeatScale %q is logarithmic but its range starts at %v", s.Label, s.Min)
	}
	return nil
}

// HeatLayer returns the heat map plotter of g under s (fitted to g if s has no fixed range), for
// plots that draw more on top of it. Cells are flat (no smoothing); see RasterizeAbove.
func (s HeatScale) HeatLayer(g plotter.GridXYZ) (*plotter.HeatMap, error) {
	s = s.Fit(g)
	if err := s.check(); err != nil {
		return nil, err
	}
	steps := s.Steps
	if steps == 0 {
		steps = 101
	}
	// The palette is sampled on [0, 1]: a colour map's palette does not depend on its range.
	s.Colors.SetMin(0)
	s.Colors.SetMax(1)
	pal := s.Colors.Palette(steps)
	if s.Log {
		g = logGrid{g}
	}
	h := plotter.NewHeatMap(g, pal)
	h.Min, h.Max = s.scaled(s.Min), s.scaled(s.Max)
	h.Overflow, h.Underflow = s.Over, s.Under
	if cs := pal.Colors(); s.Clip {
		if h.Overflow == nil {
			h.Overflow = cs[len(cs)-1]
		}
		if h.Underflow == nil {
			h.Underflow = cs[0]
		}
	}
	c, r := g.Dims()
	h.Rasterized = c*r > RasterizeAbove
	s.Colors.SetMin(h.Min)
	s.Colors.SetMax(h.Max)
	return h, nil
}

// HeatMap returns a plot of grid g as a heat map coloured by s, with a title and axis labels.
// If s has no fixed range it is fitted to g; give the colour bar the same fitted scale (s.Fit(g)).
// An unusable scale (no colours, a log scale over values that are not all positive) is reported
// when the plot is rendered (ShowPlot, ShowGrid, ShowHeatGrid return the error), so that a cell
// can build its panels without checking each one.
func HeatMap(title, xLabel, yLabel string, g plotter.GridXYZ, s HeatScale) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	h, err := s.HeatLayer(g)
	if err != nil {
		p.Add(failedPlotter{err})
		return p
	}
	p.Add(h)
	return p
}

// failedPlotter stands for a plotter that could not be built: it panics when drawn, which Render
// turns into its error.
type failedPlotter struct{ err error }

func (f failedPlotter) Plot(draw.Canvas, *plot.Plot) { panic(f.err) }

// ColorBar returns a vertical colour bar of s, labelled s.Label, for ShowHeatGrid or a layout of
// one's own. s must have a fixed range (see Fit).
func (s HeatScale) ColorBar() (*plot.Plot, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	lo, hi := s.scaled(s.Min), s.scaled(s.Max)
	s.Colors.SetMin(lo)
	s.Colors.SetMax(hi)
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: s.Colors, Vertical: true})
	bar.HideX()
	bar.Y.Label.Text = s.Label
	if s.Ticks != nil {
		var ticks []plot.Tick
		for _, t := range s.Ticks {
			if v := s.scaled(t); v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprint(t)})
			}
		}
		bar.Y.Tick.Marker = plot.ConstantTicks(ticks)
	}
	return bar, nil
}

package kernelext

import (
	"bytes"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// gains is a 4×2 horizon × layer grid with one value above 1 and one below 0.
var gains = grid{C: 4, R: 2, X0: 1, DX: 1, Y0: 1, DY: 1, F: func(x, y float64) float64 {
	switch {
	case x == 4 && y == 2:
		return 1.5
	case x == 1 && y == 1:
		return -0.5
	}
	return x / 4
}}

func TestHeatScaleFit(t *testing.T) {
	fixed := HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1}
	if got := fixed.Fit(gains); got.Min != 0 || got.Max != 1 {
		t.Errorf("Fit changed a fixed scale to [%v, %v]", got.Min, got.Max)
	}
	free := HeatScale{Colors: moreland.Kindlmann()}
	if got := free.Fit(gains); got.Min != -0.5 || got.Max != 1.5 || !got.Fixed() {
		t.Errorf("Fit = [%v, %v], want the data's range [-0.5, 1.5]", got.Min, got.Max)
	}
	nan := grid{C: 2, R: 1, F: func(x, y float64) float64 { return math.NaN() }}
	if got := free.Fit(nan); got.Fixed() {
		t.Errorf("Fit of an all-NaN grid = [%v, %v], want no range", got.Min, got.Max)
	}
}

func TestHeatLayerFixedScale(t *testing.T) {
	red := color.RGBA{R: 220, A: 255}
	s := HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1, Over: red}
	h, err := s.HeatLayer(gains)
	if err != nil {
		t.Fatal(err)
	}
	if h.Min != 0 || h.Max != 1 || h.Overflow != color.Color(red) || h.Underflow != nil {
		t.Errorf("heat map range [%v, %v], overflow %v, underflow %v: want the scale's", h.Min, h.Max, h.Overflow, h.Underflow)
	}
	if n := len(h.Palette.Colors()); n != 101 {
		t.Errorf("palette of %d colours, want the default 101", n)
	}
	if h.Rasterized {
		t.Errorf("a 4×2 grid is rasterized")
	}
	// The palette runs from the map's colour at 0 to its colour at 1, whatever the data.
	c := moreland.Kindlmann()
	c.SetMax(1)
	first, _ := c.At(0)
	last, _ := c.At(1)
	pal := h.Palette.Colors()
	if !sameColor(pal[0], first) || !sameColor(pal[len(pal)-1], last) {
		t.Errorf("palette ends %v, %v; want %v, %v", pal[0], pal[len(pal)-1], first, last)
	}
	big := grid{C: 60, R: 60, DX: 1, DY: 1, F: func(x, y float64) float64 { return x * y }}
	if h, err := (HeatScale{Colors: moreland.Kindlmann()}).HeatLayer(big); err != nil || !h.Rasterized {
		t.Errorf("a 60×60 grid: rasterized %v, err %v; want a raster", h != nil && h.Rasterized, err)
	}
}

// TestHeatLayerClip: a clipped scale draws values beyond its range in the palette's end colours,
// and an explicit Over colour still wins.
func TestHeatLayerClip(t *testing.T) {
	red := color.RGBA{R: 220, A: 255}
	for _, tc := range []struct {
		s          HeatScale
		over, unde bool // want the palette's end colour
	}{
		{HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1, Clip: true}, true, true},
		{HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1, Clip: true, Over: red}, false, true},
		{HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1}, false, false},
	} {
		h, err := tc.s.HeatLayer(gains)
		if err != nil {
			t.Fatal(err)
		}
		pal := h.Palette.Colors()
		if got := h.Overflow != nil && sameColor(h.Overflow, pal[len(pal)-1]); got != tc.over {
			t.Errorf("%+v: overflow %v, want the palette's last colour: %v", tc.s, h.Overflow, tc.over)
		}
		if got := h.Underflow != nil && sameColor(h.Underflow, pal[0]); got != tc.unde {
			t.Errorf("%+v: underflow %v, want the palette's first colour: %v", tc.s, h.Underflow, tc.unde)
		}
	}
}

func TestHeatLayerLog(t *testing.T) {
	pos := grid{C: 3, R: 3, X0: 1, DX: 1, Y0: 1, DY: 1, F: func(x, y float64) float64 { return x * y }}
	s := HeatScale{Colors: moreland.SmoothBlueRed(), Log: true, Steps: 16}.Fit(pos)
	h, err := s.HeatLayer(pos)
	if err != nil {
		t.Fatal(err)
	}
	if s.Min != 1 || s.Max != 9 || h.Min != 0 || h.Max != math.Log10(9) {
		t.Errorf("log scale: data range [%v, %v], colour range [%v, %v]; want [1, 9] and [0, log10 9]", s.Min, s.Max, h.Min, h.Max)
	}
	if z := h.GridXYZ.Z(1, 2); z != math.Log10(6) {
		t.Errorf("heat map value %v, want log10(6)", z)
	}
	if n := len(h.Palette.Colors()); n != 16 {
		t.Errorf("palette of %d colours, want 16", n)
	}
	bar, err := s.ColorBar()
	if err != nil {
		t.Fatal(err)
	}
	if bar.Y.Min != 0 || bar.Y.Max != math.Log10(9) {
		t.Errorf("colour bar axis [%v, %v], want [0, log10 9]", bar.Y.Min, bar.Y.Max)
	}
}

func TestHeatScaleErrors(t *testing.T) {
	for name, s := range map[string]HeatScale{
		"no colours":     {Min: 0, Max: 1},
		"log below zero": {Colors: moreland.Kindlmann(), Log: true},
	} {
		if _, err := s.HeatLayer(gains); err == nil {
			t.Errorf("%s: HeatLayer succeeded", name)
		}
		// HeatMap defers the error to rendering.
		p := HeatMap(name, "x", "y", gains, s)
		if _, err := Render("bad", 100, 100, p.Draw); err == nil || !strings.Contains(err.Error(), "HeatScale") {
			t.Errorf("%s: rendering = %v, want the scale's error", name, err)
		}
	}
	if _, err := (HeatScale{Colors: moreland.Kindlmann()}).ColorBar(); err == nil {
		t.Errorf("ColorBar of an unfitted scale succeeded")
	}
}

func TestShowHeatGrid(t *testing.T) {
	dir, _ := figuresIn(t)
	red := color.RGBA{R: 220, G: 40, B: 40, A: 255}
	s := HeatScale{Colors: moreland.Kindlmann(), Min: 0, Max: 1, Over: red, Label: "gain", Ticks: []float64{-1, 0, 0.5, 1, 2}}
	panels := [][]*plot.Plot{
		{HeatMap("alpha, epoch 1", "horizon k", "layer l", gains, s), HeatMap("alpha, epoch 2", "horizon k", "layer l", gains, s)},
		{HeatMap("m, epoch 1", "horizon k", "layer l", gains, s), nil},
	}
	w, h := 7*vg.Inch, 5*vg.Inch
	if err := ShowHeatGrid(panels, s, "heat/grid", w, h); err != nil {
		t.Fatal(err)
	}
	svg := checkWellFormed(t, dir, "heat/grid", w, h)
	// The overflow cell is drawn in red; the bar is labelled and carries exactly the ticks in [0, 1].
	if !bytes.Contains(svg, []byte("rgb(220,40,40)")) && !bytes.Contains(svg, []byte("#DC2828")) {
		t.Errorf("no cell drawn in the overflow colour")
	}
	for _, want := range []string{">gain<", ">0<", ">0.5<", ">1<"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %s", want)
		}
	}
	bar, _ := s.ColorBar()
	ticks := bar.Y.Tick.Marker.Ticks(0, 1)
	if len(ticks) != 3 || ticks[0].Value != 0 || ticks[1].Value != 0.5 || ticks[2].Value != 1 {
		t.Errorf("colour bar ticks %v, want exactly 0, 0.5, 1", ticks)
	}

	one := DefaultHeatGridLayout
	one.Pad, one.Between = 0, 0
	if err := one.Show([][]*plot.Plot{{panels[0][0]}}, s, "heat/one", 5*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, dir, "heat/one", 5*vg.Inch, 4*vg.Inch)

	for name, tc := range map[string]struct {
		panels [][]*plot.Plot
		s      HeatScale
		w      vg.Length
	}{
		"no panels":      {nil, s, w},
		"ragged":         {[][]*plot.Plot{{panels[0][0]}, {nil, nil}}, s, w},
		"unfitted scale": {panels, HeatScale{Colors: moreland.Kindlmann()}, w},
		"narrow":         {panels, s, 0.5 * vg.Inch},
	} {
		if err := ShowHeatGrid(tc.panels, tc.s, "heat/bad", tc.w, h); err == nil {
			t.Errorf("%s: ShowHeatGrid succeeded", name)
		}
	}
}

// sameColor compares colours by their RGBA values.
func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

var _ plotter.GridXYZ = grid{}

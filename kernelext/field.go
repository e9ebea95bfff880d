package kernelext

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
)

// FieldGrid is one channel of a spatial field, H rows of W values (row-major, y the slow index as
// in dwlib/fields), as a plotter.GridXYZ for HeatMap: column c is x = c, row r is y = r, so the
// image is the field as stored, y up.
type FieldGrid struct {
	Values []float64
	H, W   int
}

// Dims implements plotter.GridXYZ.
func (g FieldGrid) Dims() (c, r int) { return g.W, g.H }

// Z implements plotter.GridXYZ.
func (g FieldGrid) Z(c, r int) float64 { return g.Values[r*g.W+c] }

// X implements plotter.GridXYZ.
func (g FieldGrid) X(c int) float64 { return float64(c) }

// Y implements plotter.GridXYZ.
func (g FieldGrid) Y(r int) float64 { return float64(r) }

// Channel returns channel ch of a channel-major field of C×H×W values (dwlib/data's layout of a
// field testbed's state) as a FieldGrid.
func Channel(state []float64, ch, H, W int) (FieldGrid, error) {
	if H < 1 || W < 1 || len(state)%(H*W) != 0 || ch < 0 || ch >= len(state)/(H*W) {
		return FieldGrid{}, fmt.Errorf("kernelext: Channel %d of %d values as %d×%d fields", ch, len(state), H, W)
	}
	return FieldGrid{Values: state[ch*H*W : (ch+1)*H*W], H: H, W: W}, nil
}

// FieldMaps draws one heat map per field, titled, on one colour scale: s when it is fixed, else
// a scale symmetric about 0 that covers every field (signed quantities such as errors and
// vorticity read right only when 0 sits in the middle). It returns the row of plots and the scale
// for ShowHeatGrid's colour bar.
func FieldMaps(titles []string, fields []FieldGrid, s HeatScale) ([]*plot.Plot, HeatScale, error) {
	if len(titles) != len(fields) {
		return nil, s, fmt.Errorf("kernelext: FieldMaps: %d titles for %d fields", len(titles), len(fields))
	}
	if !s.Fixed() {
		m := 0.0
		for _, f := range fields {
			for _, v := range f.Values {
				m = math.Max(m, math.Abs(v))
			}
		}
		if m == 0 {
			m = 1
		}
		s.Min, s.Max = -m, m
	}
	out := make([]*plot.Plot, len(fields))
	for i, f := range fields {
		if len(f.Values) != f.H*f.W {
			return nil, s, fmt.Errorf("kernelext: FieldMaps: field %q has %d values for %d×%d", titles[i], len(f.Values), f.H, f.W)
		}
		p := HeatMap(titles[i], "", "", f, s)
		p.HideAxes()
		out[i] = p
	}
	return out, s, nil
}

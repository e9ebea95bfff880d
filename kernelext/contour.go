package kernelext

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ContourStyle is the line style of AddContours and AddLevelCurves: thin dark grey lines that
// stay visible on any heat map.
var ContourStyle = draw.LineStyle{Color: color.Gray{Y: 30}, Width: vg.Points(0.7)}

// AddContours adds to p the level sets of grid g at exactly the given levels, traced by
// marching squares (ContourSegments), all in ContourStyle. Unlike gonum's NewContour with nil
// levels (which picks quantiles of the data), nothing is chosen for the caller; and unlike
// gonum's Contour, which joins segments into paths and can loop forever when a level runs
// through grid points exactly, the segments are drawn as they are, one path per level. Levels
// outside the grid's values draw nothing.
func AddContours(p *plot.Plot, g plotter.GridXYZ, levels ...float64) (*Contours, error) {
	if len(levels) == 0 {
		return nil, fmt.Errorf("kernelext: AddContours: no levels")
	}
	for _, l := range levels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return nil, fmt.Errorf("kernelext: AddContours: level %v", l)
		}
	}
	c := &Contours{Grid: g, Levels: slices.Clone(levels), Style: ContourStyle}
	p.Add(c)
	return c, nil
}

// Contours is the plotter of AddContours: Grid's level sets at Levels, in Style.
type Contours struct {
	Grid   plotter.GridXYZ
	Levels []float64
	Style  draw.LineStyle
}

// Plot implements plot.Plotter: one stroked path per level, clipped to the data area.
func (k *Contours) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, level := range k.Levels {
		var lines [][]vg.Point
		for _, s := range ContourSegments(k.Grid, level) {
			lines = append(lines, []vg.Point{{X: trX(s[0][0]), Y: trY(s[0][1])}, {X: trX(s[1][0]), Y: trY(s[1][1])}})
		}
		var path vg.Path
		for _, l := range c.ClipLinesXY(lines...) {
			path.Move(l[0])
			for _, pt := range l[1:] {
				path.Line(pt)
			}
		}
		if len(path) > 0 {
			c.SetLineStyle(k.Style)
			c.Stroke(path)
		}
	}
}

// DataRange implements plot.DataRanger: the grid's extent.
func (k *Contours) DataRange() (xmin, xmax, ymin, ymax float64) {
	c, r := k.Grid.Dims()
	return k.Grid.X(0), k.Grid.X(c - 1), k.Grid.Y(0), k.Grid.Y(r - 1)
}

// ContourSegments returns the level set {z = level} of grid g as line segments in data
// coordinates, by marching squares: in every grid cell whose corners lie on both sides of the
// level (a corner equal to it counts as above), the crossing points on the cell's edges are
// interpolated linearly and joined, so every end point is exactly on the level along its edge.
// A saddle cell (opposite corners on the same side) is resolved by the mean of its corners.
// Cells with a NaN corner are skipped.
func ContourSegments(g plotter.GridXYZ, level float64) [][2][2]float64 {
	nc, nr := g.Dims()
	var segs [][2][2]float64
	for i := 0; i+1 < nc; i++ {
		for j := 0; j+1 < nr; j++ {
			// Corners counter-clockwise from the bottom left, and the edges between them:
			// edge e joins corner e and corner e+1 (mod 4): bottom, right, top, left.
			xs := [4]float64{g.X(i), g.X(i + 1), g.X(i + 1), g.X(i)}
			ys := [4]float64{g.Y(j), g.Y(j), g.Y(j + 1), g.Y(j + 1)}
			zs := [4]float64{g.Z(i, j), g.Z(i+1, j), g.Z(i+1, j+1), g.Z(i, j+1)}
			if math.IsNaN(zs[0]) || math.IsNaN(zs[1]) || math.IsNaN(zs[2]) || math.IsNaN(zs[3]) {
				continue
			}
			var above [4]bool
			n := 0
			for k, z := range zs {
				above[k] = z >= level
				if above[k] {
					n++
				}
			}
			if n == 0 || n == 4 {
				continue
			}
			cross := func(e int) [2]float64 {
				a, b := e, (e+1)%4
				t := (level - zs[a]) / (zs[b] - zs[a])
				return [2]float64{xs[a] + t*(xs[b]-xs[a]), ys[a] + t*(ys[b]-ys[a])}
			}
			var edges []int
			for e := range 4 {
				if above[e] != above[(e+1)%4] {
					edges = append(edges, e)
				}
			}
			if len(edges) == 2 {
				segs = append(segs, [2][2]float64{cross(edges[0]), cross(edges[1])})
				continue
			}
			// Saddle: corners 0 and 2 on one side, 1 and 3 on the other. If the centre is on
			// corner 0's side, corners 1 and 3 are cut off (edges 0-1 and 2-3); else 0 and 2
			// (edges 3-0 and 1-2).
			centre := (zs[0]+zs[1]+zs[2]+zs[3])/4 >= level
			if centre == above[0] {
				segs = append(segs, [2][2]float64{cross(0), cross(1)}, [2][2]float64{cross(2), cross(3)})
			} else {
				segs = append(segs, [2][2]float64{cross(3), cross(0)}, [2][2]float64{cross(1), cross(2)})
			}
		}
	}
	return segs
}

// AddLevelCurves adds to p one line per level, in ContourStyle, drawn through the points that
// curve returns for it: for functions whose level sets are known in closed form (the ellipses of
// a quadratic risk, say), which are then exact rather than traced on a grid. A level for which
// curve returns ok = false (an empty level set) is skipped. It returns the levels drawn.
func AddLevelCurves(p *plot.Plot, curve func(level float64) (pts [][2]float64, ok bool), levels ...float64) ([]float64, error) {
	var drawn []float64
	for _, level := range levels {
		pts, ok := curve(level)
		if !ok {
			continue
		}
		xy := make(plotter.XYs, len(pts))
		for i, w := range pts {
			xy[i] = plotter.XY{X: w[0], Y: w[1]}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("kernelext: AddLevelCurves: level %v: %w", level, err)
		}
		l.Color, l.Width = ContourStyle.Color, ContourStyle.Width
		p.Add(l)
		drawn = append(drawn, level)
	}
	return drawn, nil
}

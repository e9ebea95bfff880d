package kernelext

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// bowl is z = x² + y² on a 61×61 grid over [-1.5, 1.5]²: its level sets are circles.
var bowl = grid{C: 61, R: 61, X0: -1.5, DX: 0.05, Y0: -1.5, DY: 0.05, F: func(x, y float64) float64 { return x*x + y*y }}

// strokedPoints draws p on a recording canvas and returns the points of every path stroked in
// ContourStyle's colour, in data coordinates.
func strokedPoints(t *testing.T, p *plot.Plot) [][2]float64 {
	t.Helper()
	rec := &recorder.Canvas{}
	c := draw.NewCanvas(rec, 6*vg.Inch, 6*vg.Inch)
	p.Draw(c)
	dc := p.DataCanvas(c)
	var pts [][2]float64
	var current bool
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			current = sameColor(a.Color, ContourStyle.Color)
		case *recorder.Stroke:
			if !current {
				continue
			}
			for _, comp := range a.Path {
				if comp.Type != vg.MoveComp && comp.Type != vg.LineComp {
					continue
				}
				x := p.X.Min + float64((comp.Pos.X-dc.Min.X)/(dc.Max.X-dc.Min.X))*(p.X.Max-p.X.Min)
				y := p.Y.Min + float64((comp.Pos.Y-dc.Min.Y)/(dc.Max.Y-dc.Min.Y))*(p.Y.Max-p.Y.Min)
				pts = append(pts, [2]float64{x, y})
			}
		}
	}
	return pts
}

// TestAddContoursExactLevels: the contours are drawn at exactly the requested levels, not at
// quantiles of the data, and the caller's slice is left as it was.
func TestAddContoursExactLevels(t *testing.T) {
	p := NewPlot("bowl", "x", "y")
	levels := []float64{1, 0.25, 9} // 9 lies beyond the data (max 4.5): nothing drawn
	c, err := AddContours(p, bowl, levels...)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Levels, levels) {
		t.Fatalf("contour levels %v, want exactly %v", c.Levels, levels)
	}
	pts := strokedPoints(t, p)
	if len(pts) < 40 {
		t.Fatalf("%d contour points drawn, want two traced circles", len(pts))
	}
	// Every point lies on one of the two circles (radius 0.5 and 1), to the accuracy of linear
	// interpolation between grid points 0.05 apart; both circles are drawn.
	var near [2]int
	for _, q := range pts {
		r := math.Hypot(q[0], q[1])
		switch {
		case math.Abs(r-0.5) < 2e-3:
			near[0]++
		case math.Abs(r-1) < 2e-3:
			near[1]++
		default:
			t.Fatalf("contour point %v at radius %.4f: on no requested level", q, r)
		}
	}
	if near[0] == 0 || near[1] == 0 {
		t.Errorf("points per circle %v, want both levels drawn", near)
	}
	if _, err := AddContours(p, bowl); err == nil {
		t.Errorf("AddContours without levels succeeded")
	}
	if _, err := AddContours(p, bowl, math.NaN()); err == nil {
		t.Errorf("AddContours at NaN succeeded")
	}
}

func TestAddLevelCurves(t *testing.T) {
	p := NewPlot("circles", "x", "y")
	circle := func(level float64) ([][2]float64, bool) {
		if level < 0 {
			return nil, false
		}
		var pts [][2]float64
		for i := range 101 {
			a := 2 * math.Pi * float64(i) / 100
			pts = append(pts, [2]float64{math.Sqrt(level) * math.Cos(a), math.Sqrt(level) * math.Sin(a)})
		}
		return pts, true
	}
	drawn, err := AddLevelCurves(p, circle, 1, -1, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(drawn, []float64{1, 0.25}) {
		t.Errorf("levels drawn %v, want 1 and 0.25 (the empty level skipped)", drawn)
	}
	pts := strokedPoints(t, p)
	if len(pts) != 202 {
		t.Fatalf("%d points stroked, want 2 × 101", len(pts))
	}
	for i, q := range pts {
		want := 1.0
		if i >= 101 {
			want = 0.25
		}
		if z := q[0]*q[0] + q[1]*q[1]; math.Abs(z-want) > 1e-9 {
			t.Fatalf("point %d at level %v, want exactly %v", i, z, want)
		}
	}
	dir, _ := figuresIn(t)
	if err := ShowPlot(p, "circles", 4*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, dir, "circles", 4*vg.Inch, 4*vg.Inch)
}

// TestContourSegmentsOnLevel: every end point of every segment lies on a grid edge, and linear
// interpolation of the grid along that edge gives exactly the level (to rounding), on a random
// grid and on a saddle whose level runs through grid points.
func TestContourSegmentsOnLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := make([][]float64, 12)
	for i := range vals {
		vals[i] = make([]float64, 9)
		for j := range vals[i] {
			vals[i][j] = rng.NormFloat64()
		}
	}
	random := grid{C: 12, R: 9, X0: -1, DX: 0.25, Y0: 2, DY: 0.5, F: func(x, y float64) float64 {
		return vals[int(math.Round((x+1)/0.25))][int(math.Round((y-2)/0.5))]
	}}
	saddle := grid{C: 5, R: 5, X0: -1, DX: 0.5, Y0: -1, DY: 0.5, F: func(x, y float64) float64 { return x * y }}
	for name, tc := range map[string]struct {
		g      grid
		levels []float64
	}{"random": {random, []float64{-0.5, 0, 0.7}}, "saddle": {saddle, []float64{0, 0.1, -0.3}}} {
		for _, level := range tc.levels {
			segs := ContourSegments(tc.g, level)
			if len(segs) == 0 {
				t.Errorf("%s: no segments at level %v", name, level)
			}
			for _, s := range segs {
				for _, q := range s {
					if z, ok := onEdge(tc.g, q); !ok || math.Abs(z-level) > 1e-12 {
						t.Fatalf("%s: end point %v at level %v: on an edge %v, interpolated value %v", name, q, level, ok, z)
					}
				}
			}
		}
	}
	if segs := ContourSegments(saddle, 5); len(segs) != 0 {
		t.Errorf("a level above the data gave %d segments", len(segs))
	}
}

// onEdge finds the grid edge q lies on and returns g linearly interpolated there.
func onEdge(g grid, q [2]float64) (float64, bool) {
	fc, fr := (q[0]-g.X0)/g.DX, (q[1]-g.Y0)/g.DY
	const eps = 1e-9
	if c := math.Round(fc); math.Abs(fc-c) < eps && c >= 0 && int(c) < g.C { // vertical edge
		r := math.Min(math.Floor(fr), float64(g.R-2))
		t := fr - r
		return (1-t)*g.Z(int(c), int(r)) + t*g.Z(int(c), int(r)+1), true
	}
	if r := math.Round(fr); math.Abs(fr-r) < eps && r >= 0 && int(r) < g.R { // horizontal edge
		c := math.Min(math.Floor(fc), float64(g.C-2))
		t := fc - c
		return (1-t)*g.Z(int(c), int(r)) + t*g.Z(int(c)+1, int(r)), true
	}
	return 0, false
}

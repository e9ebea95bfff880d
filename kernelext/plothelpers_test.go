package kernelext

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// checkWellFormed checks that the figure saved as <dir>/<name>.png and .svg has the right size
// (checkFigureFiles) and that the SVG is well-formed XML from start to end. It returns the SVG.
func checkWellFormed(t *testing.T, dir, name string, w, h vg.Length) []byte {
	t.Helper()
	base := filepath.Join(dir, name)
	checkFigureFiles(t, base, w, h)
	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(svg))
	depth, elements := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s.svg is not well-formed XML: %v", name, err)
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
			elements++
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 || elements < 3 {
		t.Errorf("%s.svg: %d elements, depth %d at the end", name, elements, depth)
	}
	return svg
}

// grid is a plotter.GridXYZ over x = X0 + c·DX, y = Y0 + r·DY.
type grid struct {
	C, R           int
	X0, DX, Y0, DY float64
	F              func(x, y float64) float64
}

func (g grid) Dims() (int, int)   { return g.C, g.R }
func (g grid) X(c int) float64    { return g.X0 + float64(c)*g.DX }
func (g grid) Y(r int) float64    { return g.Y0 + float64(r)*g.DY }
func (g grid) Z(c, r int) float64 { return g.F(g.X(c), g.Y(r)) }

// plottersOf returns what was added to p (gonum keeps it unexported), for inspecting the
// plotters a helper added.
func plottersOf(p *plot.Plot) []plot.Plotter {
	v := reflect.ValueOf(p).Elem().FieldByName("plotters")
	return *(*[]plot.Plotter)(unsafe.Pointer(v.UnsafeAddr()))
}

package kernelext

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestReadFigure: a saved figure reads back byte for byte, at its size to within a pixel; a
// missing file is an error naming it.
func TestReadFigure(t *testing.T) {
	dir, _ := figuresIn(t)
	w, h := 10*vg.Centimeter, 6*vg.Centimeter
	saved, err := SavePlot(linePlot(t, "saved"), "sub/saved", w, h)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadFigure(dir, "sub/saved.svg")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "sub/saved" || !bytes.Equal(got.PNG, saved.PNG) || !bytes.Equal(got.SVG, saved.SVG) {
		t.Errorf("read back %q, %d/%d bytes; want %q, %d/%d", got.Name, len(got.PNG), len(got.SVG), saved.Name, len(saved.PNG), len(saved.SVG))
	}
	pixel := 72 / float64(PNGDPI)
	if math.Abs(got.Width.Points()-w.Points()) > pixel || math.Abs(got.Height.Points()-h.Points()) > pixel {
		t.Errorf("size %.2f x %.2f pt, want %.2f x %.2f", got.Width.Points(), got.Height.Points(), w.Points(), h.Points())
	}
	if err := os.Remove(filepath.Join(dir, "sub", "saved.svg")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFigure(dir, "sub/saved"); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "sub", "saved.svg")) {
		t.Errorf("missing SVG: %v, want an error naming it", err)
	}
	if _, err := ReadFigure(dir, "../x"); err == nil {
		t.Error("a name leaving the directory was accepted")
	}
}

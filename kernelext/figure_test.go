package kernelext

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// linePlot returns a small plot with one line, titled title.
func linePlot(t testing.TB, title string) *plot.Plot {
	t.Helper()
	p := plot.New()
	p.Title.Text = title
	pts := plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 4}, {X: 3, Y: 9}}
	l, err := plotter.NewLine(pts)
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	return p
}

// figuresIn points FiguresDir at a temporary directory and captures Output.
func figuresIn(t *testing.T) (dir string, out *bytes.Buffer) {
	t.Helper()
	dir = t.TempDir()
	t.Setenv(FiguresEnv, dir)
	out = &bytes.Buffer{}
	old := Output
	Output = out
	t.Cleanup(func() { Output = old })
	return dir, out
}

// checkFigureFiles checks base.png decodes at the expected pixel size and base.svg is an SVG of the right size.
func checkFigureFiles(t *testing.T, base string, w, h vg.Length) {
	t.Helper()
	data, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s.png does not decode: %v", base, err)
	}
	wantW, wantH := int(w.Points()*float64(PNGDPI)/72+0.5), int(h.Points()*float64(PNGDPI)/72+0.5)
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s.png is %dx%d px, want %dx%d", base, b.Dx(), b.Dy(), wantW, wantH)
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("</svg>")) {
		t.Errorf("%s.svg is not an SVG document: %.100q", base, svg)
	}
	if want := fmt.Appendf(nil, `width="%.5gpt"`, w.Points()); !bytes.Contains(svg, want) {
		t.Errorf("%s.svg lacks %s", base, want)
	}
}

func TestShowPlotText(t *testing.T) {
	tests := []struct {
		name, file string // file: expected path under the figures dir, without extension
		w, h       vg.Length
	}{
		{"fig1", "fig1", 4 * vg.Inch, 3 * vg.Inch},
		{"fig2/panel-a", "fig2/panel-a", 200, 100},
		{"fig3.svg", "fig3", 150, 150}, // extension dropped
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, out := figuresIn(t)
			if err := ShowPlot(linePlot(t, tc.name), tc.name, tc.w, tc.h); err != nil {
				t.Fatal(err)
			}
			checkFigureFiles(t, filepath.Join(dir, tc.file), tc.w, tc.h)
			if !strings.Contains(out.String(), "[figure "+tc.file+":") || !strings.Contains(out.String(), tc.file+".svg") {
				t.Errorf("text fallback = %q, want a line naming the figure and its files", out)
			}
		})
	}
}

func TestFigureErrors(t *testing.T) {
	figuresIn(t)
	for _, name := range []string{"", "../escape", "/abs", "a//b", "bad name", "a/../b"} {
		if err := ShowPlot(linePlot(t, "x"), name, 100, 100); err == nil {
			t.Errorf("ShowPlot(name=%q) succeeded, want invalid-name error", name)
		}
	}
	if err := ShowPlot(linePlot(t, "x"), "zero", 0, 100); err == nil {
		t.Errorf("ShowPlot with zero width succeeded")
	}
	// gonum/plot panics on a log scale with non-positive values: must become an error.
	p := linePlot(t, "log")
	p.Y.Scale = plot.LogScale{}
	p.Y.Min = -1
	if err := ShowPlot(p, "logpanic", 100, 100); err == nil || !strings.Contains(err.Error(), "drawing figure") {
		t.Errorf("ShowPlot(log of negative) = %v, want a drawing error", err)
	}
}

func TestShowGrid(t *testing.T) {
	dir, _ := figuresIn(t)
	a, b, c := linePlot(t, "a"), linePlot(t, "b"), linePlot(t, "c")
	tests := []struct {
		name    string
		plots   [][]*plot.Plot
		wantErr bool
	}{
		{"grid2x2", [][]*plot.Plot{{a, b}, {c, nil}}, false},
		{"grid1x3", [][]*plot.Plot{{a, b, c}}, false},
		{"ragged", [][]*plot.Plot{{a, b}, {c}}, true},
		{"empty", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := ShowGrid(tc.plots, tc.name, 6*vg.Inch, 4*vg.Inch)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ShowGrid() error = %v, wantErr %v", err, tc.wantErr)
			}
			if !tc.wantErr {
				checkFigureFiles(t, filepath.Join(dir, tc.name), 6*vg.Inch, 4*vg.Inch)
			}
		})
	}
}

// TestShowPlotNotebook checks the message a notebook receives: one
// display_data holding SVG under image/svg+xml (not wrapped in HTML), the
// PNG bytes, a text alternative, and the PNG display size.
func TestShowPlotNotebook(t *testing.T) {
	dir, out := figuresIn(t)
	nb := notebookMode(t)
	w, h := 4*vg.Inch, 3*vg.Inch
	if err := ShowPlot(linePlot(t, "nb"), "nbfig", w, h); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, filepath.Join(dir, "nbfig"), w, h)
	if out.Len() != 0 {
		t.Errorf("notebook mode printed text: %q", out)
	}
	msgs := nb.messages()
	if len(msgs) != 1 {
		t.Fatalf("got %d display messages, want 1", len(msgs))
	}
	m := msgs[0]
	svg, _ := m.Data[protocol.MIMEImageSVG].(string)
	if !strings.HasPrefix(strings.TrimSpace(svg), "<?xml") || !strings.Contains(svg, "<svg") {
		t.Errorf("image/svg+xml = %.60q, want an SVG document", svg)
	}
	pngData, _ := m.Data[protocol.MIMEImagePNG].([]byte)
	if _, err := png.Decode(bytes.NewReader(pngData)); err != nil {
		t.Errorf("image/png does not decode: %v", err)
	}
	if _, isHTML := m.Data[protocol.MIMETextHTML]; isHTML {
		t.Errorf("figure sent as text/html too; want image MIME types only")
	}
	size, _ := m.Metadata["image/png"].(map[string]int)
	if size["width"] != 384 || size["height"] != 288 {
		t.Errorf("image/png metadata = %v, want width 384, height 288 (CSS px)", m.Metadata)
	}
	if m.DisplayID != "" {
		t.Errorf("figure has display id %q, want a plain display", m.DisplayID)
	}
}

package kernelext

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/internal-dw/dwgo/kernelext/repo"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// FiguresEnv overrides the directory figures are saved to (default <repo>/figures).
const FiguresEnv = "DW_FIGURES_DIR"

// PNGDPI is the resolution of PNG figures: 144 dpi is 2 pixels per point,
// sharp on high-density screens while keeping committed PNGs small.
var PNGDPI = 144

// Figure is a rendered figure: the same drawing as PNG and SVG.
type Figure struct {
	// Name is the file name without extension, relative to the figures
	// directory; it may contain "/" for sub-directories (e.g. "fig3/panel-a").
	Name          string
	Width, Height vg.Length
	PNG, SVG      []byte
	// PNGPath and SVGPath are set by Save.
	PNGPath, SVGPath string
}

// FiguresDir returns $DW_FIGURES_DIR or <repo>/figures.
func FiguresDir() (string, error) {
	if dir := os.Getenv(FiguresEnv); dir != "" {
		return dir, nil
	}
	return repo.Path("figures")
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$`)

// cleanName validates a figure name, dropping a ".png"/".svg" extension.
func cleanName(name string) (string, error) {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".svg"), ".png")
	if !validName.MatchString(name) || strings.Contains(name, "..") {
		return "", fmt.Errorf("kernelext: invalid figure name %q: use letters, digits, '.', '_', '-' and '/' between parts", name)
	}
	return name, nil
}

// Render draws drawFn onto a PNG and an SVG canvas of size w×h. Panics from
// gonum/plot (e.g. a log scale with non-positive data) become errors.
func Render(name string, w, h vg.Length, drawFn func(c draw.Canvas)) (fig *Figure, err error) {
	if name, err = cleanName(name); err != nil {
		return nil, err
	}
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("kernelext: figure %q has size %v×%v, want positive", name, w, h)
	}
	defer func() {
		if r := recover(); r != nil {
			fig, err = nil, fmt.Errorf("kernelext: drawing figure %q: %v", name, r)
		}
	}()
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PNGDPI))
	drawFn(draw.New(img))
	var pngBuf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&pngBuf); err != nil {
		return nil, fmt.Errorf("kernelext: encoding PNG of %q: %w", name, err)
	}
	svg := vgsvg.New(w, h)
	drawFn(draw.New(svg))
	var svgBuf bytes.Buffer
	if _, err := svg.WriteTo(&svgBuf); err != nil {
		return nil, fmt.Errorf("kernelext: encoding SVG of %q: %w", name, err)
	}
	return &Figure{Name: name, Width: w, Height: h, PNG: pngBuf.Bytes(), SVG: svgBuf.Bytes()}, nil
}

// Save writes <dir>/<name>.png and <dir>/<name>.svg, creating directories.
func (f *Figure) Save(dir string) error {
	base := filepath.Join(dir, filepath.FromSlash(f.Name))
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return fmt.Errorf("kernelext: %w", err)
	}
	for _, out := range []struct {
		path string
		data []byte
	}{{base + ".png", f.PNG}, {base + ".svg", f.SVG}} {
		if err := writeFileAtomic(out.path, out.data); err != nil {
			return err
		}
	}
	f.PNGPath, f.SVGPath = base+".png", base+".svg"
	return nil
}

// Show displays the figure: in a notebook as one output holding both
// image/svg+xml (what Jupyter renders when the notebook is trusted) and
// image/png (used for untrusted notebooks and the HTML export); otherwise it
// prints where the files are.
//
// GoNB's gonbui.DisplaySVG wraps SVG in text/html, which HTML exporters
// sanitize; here the SVG goes out under its real MIME type.
func (f *Figure) Show() error {
	if !InNotebook() {
		where := "not saved"
		if f.SVGPath != "" {
			where = relToRoot(f.SVGPath) + ", " + relToRoot(f.PNGPath)
		}
		_, err := fmt.Fprintf(output(), "[figure %s: %.0fx%.0f pt; %s]\n", f.Name, f.Width.Points(), f.Height.Points(), where)
		return err
	}
	// Size in CSS pixels (96 per inch; points are 72 per inch).
	cssW, cssH := int(f.Width.Points()*96/72+0.5), int(f.Height.Points()*96/72+0.5)
	err := publish(map[protocol.MIMEType]any{
		protocol.MIMEImageSVG:  string(f.SVG),
		protocol.MIMEImagePNG:  f.PNG,
		protocol.MIMETextPlain: fmt.Sprintf("<figure %s>", f.Name),
	}, map[string]any{
		// map[string]int: gonbui's gob encoding only registers such maps.
		string(protocol.MIMEImagePNG): map[string]int{"width": cssW, "height": cssH},
	}, "")
	if err != nil {
		return fmt.Errorf("kernelext: displaying figure %q: %w", f.Name, err)
	}
	return flush()
}

// relToRoot shortens path to be relative to the repository root, for messages.
func relToRoot(path string) string {
	if root, err := repo.Root(); err == nil {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// writeFileAtomic writes data to path via a temporary file and rename, so a
// figure on disk is never half-written.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("kernelext: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("kernelext: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("kernelext: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("kernelext: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("kernelext: %w", err)
	}
	return nil
}

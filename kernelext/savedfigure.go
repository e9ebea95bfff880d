package kernelext

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"github.com/internal-dw/dwgo/kernelext/repo"
	"gonum.org/v1/plot/vg"
)

// CommittedFigure reads a figure committed under <repo>/figures, whatever FiguresDir says: a
// notebook shows it, labelled as such, where the computation behind it cannot be repeated
// here (its runs are no longer at hand), instead of showing nothing.
func CommittedFigure(name string) (*Figure, error) {
	dir, err := repo.Path("figures")
	if err != nil {
		return nil, err
	}
	return ReadFigure(dir, name)
}

// ReadFigure reads the PNG and SVG that Save wrote under dir. The size comes from the PNG's
// pixels at PNGDPI.
func ReadFigure(dir, name string) (*Figure, error) {
	name, err := cleanName(name)
	if err != nil {
		return nil, err
	}
	base := filepath.Join(dir, filepath.FromSlash(name))
	f := &Figure{Name: name, PNGPath: base + ".png", SVGPath: base + ".svg"}
	if f.PNG, err = os.ReadFile(f.PNGPath); err != nil {
		return nil, fmt.Errorf("kernelext: figure %q: %w", name, err)
	}
	if f.SVG, err = os.ReadFile(f.SVGPath); err != nil {
		return nil, fmt.Errorf("kernelext: figure %q: %w", name, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(f.PNG))
	if err != nil {
		return nil, fmt.Errorf("kernelext: figure %q: %s: %w", name, f.PNGPath, err)
	}
	f.Width = vg.Length(float64(cfg.Width) * 72 / float64(PNGDPI))
	f.Height = vg.Length(float64(cfg.Height) * 72 / float64(PNGDPI))
	return f, nil
}

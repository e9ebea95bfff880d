package kernelext

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/prior"
)

// TestFoldChart draws three folds over two sequences: one bar per fit segment, held-out piece and
// gap, one boundary line, fold ticks 1..3; an empty fold list is an error naming the chart.
func TestFoldChart(t *testing.T) {
	lengths := []int{60, 40}
	folds, err := prior.TimeFolds(lengths, 3, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FoldChart("folds", folds, lengths)
	if err != nil {
		t.Fatal(err)
	}
	wantBars := 0
	for _, f := range folds {
		wantBars += 1 + len(f.Fit) + len(f.Held)
	}
	bars, bounds, err := foldItems(folds, lengths)
	if err != nil {
		t.Fatal(err)
	}
	if len(bars) != wantBars || len(bounds) != 1 {
		t.Errorf("FoldChart drew %d bars and %d boundary lines, want %d and 1", len(bars), len(bounds), wantBars)
	}
	held := 0
	for _, b := range bars {
		if b.Color == foldHeldColor {
			held++
		}
	}
	if wantHeld := len(folds[0].Held) + len(folds[1].Held) + len(folds[2].Held); held != wantHeld {
		t.Errorf("FoldChart drew %d held-out bars, want %d", held, wantHeld)
	}
	if p.X.Max != 100 || len(p.Y.Tick.Marker.Ticks(0, 0)) != 3 {
		t.Errorf("FoldChart axes: x max %v (want 100), %d fold ticks (want 3)", p.X.Max, len(p.Y.Tick.Marker.Ticks(0, 0)))
	}
	if _, err := FoldChart("none", nil, lengths); err == nil {
		t.Error("FoldChart with no folds: no error")
	}
}

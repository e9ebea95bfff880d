package kernelext

import (
	"slices"
	"testing"
)

// TestTableOfCommasInNames: a column name may contain commas; the format is what follows the
// last comma, and only if it has a verb.
func TestTableOfCommasInNames(t *testing.T) {
	type row struct {
		Gains string     `table:"(alpha, m)"`
		W     [2]float64 `table:"w (a, b),%.1f"`
		N     int        `table:",%d steps"`
		Plain float64
	}
	tb, err := TableOf("commas", []row{{"(1, 0)", [2]float64{0.25, 1}, 3, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"(alpha, m)", "w (a, b)", "N", "Plain"}; !slices.Equal(tb.Header, want) {
		t.Errorf("header %q, want %q", tb.Header, want)
	}
	if want := []string{"(1, 0)", "[0.2 1.0]", "3 steps", "0.5"}; !slices.Equal(tb.Rows[0], want) {
		t.Errorf("row %q, want %q", tb.Rows[0], want)
	}
}

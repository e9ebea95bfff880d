package kernelext

import (
	"testing"

	"gonum.org/v1/plot/palette/moreland"
)

// TestFieldGrid: the grid reads row-major fields as stored, Channel cuts channel-major states, and
// FieldMaps gives one plot per field on a scale symmetric about 0 that covers them all.
func TestFieldGrid(t *testing.T) {
	state := []float64{ // two channels of 2×3
		1, 2, 3, 4, 5, 6,
		-7, 0, 0, 0, 0, 0,
	}
	g, err := Channel(state, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if c, r := g.Dims(); c != 3 || r != 2 || g.Z(0, 0) != -7 {
		t.Errorf("channel 1: dims %d×%d, Z(0,0) = %v; want 3×2 and -7", c, r, g.Z(0, 0))
	}
	g0, _ := Channel(state, 0, 2, 3)
	if g0.Z(2, 1) != 6 || g0.Z(1, 0) != 2 {
		t.Errorf("channel 0: Z(2,1) = %v, Z(1,0) = %v; want 6 and 2", g0.Z(2, 1), g0.Z(1, 0))
	}
	if _, err := Channel(state, 2, 2, 3); err == nil {
		t.Error("Channel 2 of a two-channel state: no error")
	}
	ps, s, err := FieldMaps([]string{"a", "b"}, []FieldGrid{g0, g}, HeatScale{Colors: moreland.SmoothBlueRed()})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || s.Min != -7 || s.Max != 7 {
		t.Errorf("FieldMaps: %d plots, scale [%v, %v]; want 2 and [-7, 7]", len(ps), s.Min, s.Max)
	}
	if _, _, err := FieldMaps([]string{"a"}, []FieldGrid{g0, g}, s); err == nil {
		t.Error("FieldMaps with one title for two fields: no error")
	}
}

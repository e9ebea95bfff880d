package experiment

import (
	"math"
	"slices"
	"testing"
)

func TestChangeFromFull(t *testing.T) {
	paper := func(m float64) *PaperScore { return &PaperScore{Mean: m} }
	s := Summary{Rows: []Row{
		{Testbed: "a", Method: "full", Seeds: []uint64{0, 1, 2}, Values: []float64{1, 2, 4}, Paper: paper(2)},
		{Testbed: "a", Method: "dw", Seeds: []uint64{0, 1, 2}, Values: []float64{1.1, 1.8, 5}, Paper: paper(1.5)},
		{Testbed: "a", Method: "clip", Seeds: []uint64{2}, Values: []float64{3}},
		{Testbed: "b", Method: "dw", Seeds: []uint64{0}, Values: []float64{1}}, // no Full on b
		{Testbed: "c", Method: "full", Seeds: []uint64{1}, Values: []float64{2}},
		{Testbed: "c", Method: "dw", Seeds: []uint64{0}, Values: []float64{1}}, // no matched seed
	}}
	got := ChangeFromFull(s)
	if len(got) != 2 {
		t.Fatalf("got %d rows, want 2 (a/dw, a/clip): %+v", len(got), got)
	}
	// a/dw: +10%, −10%, +25% (hand-worked); mean 25/3, sd sqrt(((5/3)^2+(55/3)^2+(50/3)^2)/2).
	dw := got[0]
	if dw.Method != "dw" || !slices.Equal(dw.Seeds, []uint64{0, 1, 2}) {
		t.Fatalf("first row %+v, want a/dw on seeds 0, 1, 2", dw)
	}
	for i, want := range []float64{10, -10, 25} {
		if math.Abs(dw.Percent[i]-want) > 1e-12 {
			t.Errorf("a/dw seed %d: %v%%, want %v%%", i, dw.Percent[i], want)
		}
	}
	wantSD := math.Sqrt((math.Pow(5.0/3, 2) + math.Pow(55.0/3, 2) + math.Pow(50.0/3, 2)) / 2)
	if math.Abs(dw.Mean-25.0/3) > 1e-12 || math.Abs(dw.SD-wantSD) > 1e-12 {
		t.Errorf("a/dw mean ± sd = %v ± %v, want %v ± %v", dw.Mean, dw.SD, 25.0/3, wantSD)
	}
	if math.Abs(dw.Paper-(-25)) > 1e-12 {
		t.Errorf("a/dw paper change %v%%, want −25%%", dw.Paper)
	}
	clip := got[1]
	if clip.Method != "clip" || len(clip.Percent) != 1 || math.Abs(clip.Percent[0]-(-25)) > 1e-12 || !math.IsNaN(clip.SD) || !math.IsNaN(clip.Paper) {
		t.Errorf("a/clip = %+v, want −25%% on seed 2, NaN sd and no paper value", clip)
	}
}

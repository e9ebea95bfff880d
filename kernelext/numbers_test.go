package kernelext

import (
	"math"
	"strings"
	"testing"
)

func TestNumberFormats(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want string
	}{{nil, "–"}, {[]float64{0.5}, "0.5000"}, {[]float64{1, 2, 3}, "2.0000 ± 1.0000"}} {
		if got := MeanSD(tc.xs); got != tc.want {
			t.Errorf("MeanSD(%v) = %q, want %q", tc.xs, got, tc.want)
		}
	}
	if m := Mean([]float64{1, 2, 6}); m != 3 || !math.IsNaN(Mean(nil)) {
		t.Errorf("Mean = %v, Mean(nil) = %v; want 3 and NaN", m, Mean(nil))
	}
	if got := PaperScore("mackey-glass", "dw"); got != "0.9997 ± 0.0096" {
		t.Errorf("PaperScore(mackey-glass, dw) = %q", got)
	}
	if got := PaperScore("mackey-glass", "magic"); got != "–" {
		t.Errorf("PaperScore of an unreported method = %q, want –", got)
	}
}

func TestShowMarkdownOutsideANotebook(t *testing.T) {
	var b strings.Builder
	Output = &b
	defer func() { Output = nil }()
	if err := ShowMarkdown("| a |\n|---|"); err != nil || b.String() != "| a |\n|---|\n" {
		t.Errorf("ShowMarkdown printed %q (%v)", b.String(), err)
	}
}

func TestMeanCurve(t *testing.T) {
	for _, tc := range []struct {
		curves [][]float64
		want   []float64
	}{
		{nil, nil},
		{[][]float64{{1, 2, 3}}, []float64{1, 2, 3}},
		{[][]float64{{1, 2, 3}, {3, 4, 5}}, []float64{2, 3, 4}},
		{[][]float64{{1, 2, 3}, {3, 6}}, []float64{2, 4}},
	} {
		got := MeanCurve(tc.curves)
		if len(got) != len(tc.want) {
			t.Fatalf("MeanCurve(%v) = %v, want %v", tc.curves, got, tc.want)
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-15 {
				t.Errorf("MeanCurve(%v) = %v, want %v", tc.curves, got, tc.want)
			}
		}
	}
}

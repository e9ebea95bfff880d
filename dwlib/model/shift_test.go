package model

import (
	"slices"
	"strings"
	"testing"
)

func TestShiftOffsets(t *testing.T) {
	// Two windows of three states of dimension 2.
	hist := []float64{
		1, 10, 2, 20, 6, 30, // window 0
		-1, 0, -3, 4, 1, -1, // window 1
	}
	for _, tc := range []struct {
		shift string
		want  []float64
	}{
		{ShiftNone, nil},
		{ShiftLast, []float64{6, 30, 1, -1}},
		{ShiftMean, []float64{3, 20, -1, 1}},
	} {
		got, err := ShiftOffsets(tc.shift, hist, 2, 3, 2)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ShiftOffsets(%q) = %v, %v; want %v", tc.shift, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		shift   string
		hist    []float64
		n, w, d int
		want    string
	}{
		{"median", hist, 2, 3, 2, `"median"`},
		{ShiftLast, hist, 2, 2, 2, "12 history values for 2 windows of 2 states"},
		{ShiftMean, nil, 0, 0, 2, "0 states"},
	} {
		if _, err := ShiftOffsets(tc.shift, tc.hist, tc.n, tc.w, tc.d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ShiftOffsets(%q, n %d, w %d) = %v, want an error containing %q", tc.shift, tc.n, tc.w, err, tc.want)
		}
	}
}

func TestOffsetsRoundTrip(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12} // [2, 3, 2]
	c := []float64{0.5, -1, 2, 3}
	sub := SubtractOffsets(xs, c, 2, 3, 2)
	want := []float64{0.5, 3, 2.5, 5, 4.5, 7, 5, 5, 7, 7, 9, 9}
	if !slices.Equal(sub, want) {
		t.Errorf("SubtractOffsets = %v, want %v", sub, want)
	}
	if back := AddOffsets(sub, c, 2, 3, 2); !slices.Equal(back, xs) {
		t.Errorf("AddOffsets(SubtractOffsets(xs)) = %v, want %v", back, xs)
	}
	if xs[0] != 1 || sub[0] != 0.5 {
		t.Errorf("the inputs were changed in place")
	}
}

func TestConfigShiftValidated(t *testing.T) {
	c := Config{StateDim: 2, Shift: "median"}.Defaults()
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), `Config.Shift = "median"`) {
		t.Errorf("Validate with Shift median: %v, want an error naming Config.Shift", err)
	}
	c.Shift = ShiftLast
	if err := c.Validate(); err != nil {
		t.Errorf("Validate with Shift last: %v", err)
	}
	f, err := New(c)
	if err != nil || f.Spec().Shift != ShiftLast {
		t.Errorf("New(Shift last).Spec().Shift = %q, %v", f.Spec().Shift, err)
	}
}

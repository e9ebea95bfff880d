package kernelext

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func TestLogValueTicks(t *testing.T) {
	lg := math.Log10
	for _, tc := range []struct {
		name     string
		min, max float64
		labels   []string
	}{
		{"three decades", lg(0.5), lg(200), []string{"1", "10", "100"}},
		{"small values", -4, 0, []string{"0.0001", "0.001", "0.01", "0.1", "1"}},
		{"two powers", lg(0.8), lg(30), []string{"1", "10"}},
		{"no power in range: 2 and 5 labelled", lg(1.5), lg(8), []string{"2", "5"}},
		{"one power: 2 and 5 beside it", lg(0.15), lg(0.9), []string{"0.2", "0.5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ticks := LogValueTicks{}.Ticks(tc.min, tc.max)
			var labels []string
			for _, tk := range ticks {
				if tk.Value < tc.min-1e-9 || tk.Value > tc.max+1e-9 {
					t.Errorf("tick at %v outside [%v, %v]", tk.Value, tc.min, tc.max)
				}
				if tk.Label == "" {
					continue
				}
				labels = append(labels, tk.Label)
				v, err := strconv.ParseFloat(tk.Label, 64)
				if err != nil || math.Abs(lg(v)-tk.Value) > 1e-12 {
					t.Errorf("label %q at log10 value %v: it must read as 10^value", tk.Label, tk.Value)
				}
			}
			if !slices.Equal(labels, tc.labels) {
				t.Errorf("labels %q, want %q", labels, tc.labels)
			}
			if len(ticks) <= len(labels) {
				t.Errorf("%d ticks for %d labels: want unlabelled minor ticks too", len(ticks), len(labels))
			}
		})
	}
	if got := (LogValueTicks{}).Ticks(math.NaN(), 1); got != nil {
		t.Errorf("NaN range: %v, want no ticks", got)
	}
}

// A long y label on a log chart must not push the data area down: gonum's LogScale padded it at
// the arithmetic midpoint of the range, near the top of a log axis (notebook 05, Figure 5a).
func TestLogChartLongLabelKeepsDataArea(t *testing.T) {
	band := Band{Mid: []float64{1e-4, 1e-2, 1}, Lo: []float64{1e-4, 1e-3, 0.5}, Hi: []float64{1e-3, 0.1, 1}, X0: 1}
	top := func(yLabel string) vg.Length {
		p, err := BandChart("title", "k", yLabel, true, nil, band)
		if err != nil {
			t.Fatal(err)
		}
		c := draw.New(vgimg.New(12*vg.Centimeter, 8*vg.Centimeter))
		return p.DataCanvas(c).Max.Y
	}
	short, long := top("A"), top("A(k): median, 10–90% band")
	if math.Abs(float64(short-long)) > 0.5 {
		t.Errorf("data area top at %.1f pt with a short y label, %.1f pt with a long one: want the same", short, long)
	}
}

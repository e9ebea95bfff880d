package kernelext

import (
	"math"
	"strconv"
	"testing"
)

func TestReadableTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		labels   []string
	}{
		{0.92, 1.06, []string{"0.95", "1.00", "1.05"}}, // DefaultTicks wrote 0.93, 0.99, 1
		{0.955, 1.035, []string{"0.96", "0.98", "1.00", "1.02"}},
		{0.97, 1.04, []string{"0.98", "1.00", "1.02", "1.04"}},
		{0, 0.1, []string{"0.000", "0.025", "0.050", "0.075", "0.100"}}, // 0.02 would label six
		{0, 1, []string{"0.00", "0.25", "0.50", "0.75", "1.00"}},
		{-3, 7, []string{"-2", "0", "2", "4", "6"}},
		{10, 110, []string{"20", "40", "60", "80", "100"}},
		{10, 130, []string{"25", "50", "75", "100", "125"}},
		{1e-4, 4.5e-4, []string{"0.0001", "0.0002", "0.0003", "0.0004"}},
	} {
		var labels []string
		for _, tick := range (ReadableTicks{}).Ticks(tc.min, tc.max) {
			if tick.Value < tc.min-1e-12 || tick.Value > tc.max+1e-12 {
				t.Errorf("[%v, %v]: tick %v outside the range", tc.min, tc.max, tick.Value)
			}
			if tick.IsMinor() {
				continue
			}
			v, err := strconv.ParseFloat(tick.Label, 64)
			if err != nil || math.Abs(v-tick.Value) > 1e-9*math.Max(1, math.Abs(v)) {
				t.Errorf("[%v, %v]: label %q of tick %v", tc.min, tc.max, tick.Label, tick.Value)
			}
			labels = append(labels, tick.Label)
		}
		if len(labels) != len(tc.labels) {
			t.Errorf("[%v, %v]: labels %q, want %q", tc.min, tc.max, labels, tc.labels)
			continue
		}
		for i := range labels {
			if labels[i] != tc.labels[i] {
				t.Errorf("[%v, %v]: labels %q, want %q", tc.min, tc.max, labels, tc.labels)
				break
			}
		}
	}
	for _, r := range [][2]float64{{0, math.Inf(1)}, {math.Inf(-1), 1}, {math.NaN(), 1}} {
		if ticks := (ReadableTicks{}).Ticks(r[0], r[1]); ticks != nil {
			t.Errorf("range %v gave %v, want no ticks", r, ticks)
		}
	}
	if ticks := (ReadableTicks{}).Ticks(2, 2); len(ticks) != 1 || ticks[0].Label != "2" {
		t.Errorf("an empty range gave %v, want one tick labelled 2", ticks)
	}
}

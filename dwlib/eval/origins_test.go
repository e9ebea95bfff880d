package eval

import (
	"slices"
	"testing"
)

func TestOrigins(t *testing.T) {
	tests := []struct {
		name                                string
		unitLen, history, horizon, maxOrigs int
		want                                []int
	}{
		// Valid origins are [history, unitLen-horizon] = [3, 8]: fewer than
		// maxOrigins, so all of them, each once (the 64 linspace points
		// collapse onto 6 integers and are deduplicated).
		{"dedup when maxOrigins exceeds valid count", 10, 3, 2, 64, []int{3, 4, 5, 6, 7, 8}},
		// [2, 17] with 4 points: step 15/3 = 5 exactly.
		{"exact spacing", 20, 2, 3, 4, []int{2, 7, 12, 17}},
		// [1, 4] with 3 points: 1, 2.5, 4; the tie 2.5 rounds to even (2),
		// as NumPy's round does (half away from zero would give 3).
		{"tie rounds to even", 5, 1, 1, 3, []int{1, 2, 4}},
		// [1, 6] with 3 points: 1, 3.5, 6 -> 3.5 rounds to even 4.
		{"tie rounds to even upward", 7, 1, 1, 3, []int{1, 4, 6}},
		// [10, 100] with 4 points: 10, 40, 70, 100.
		{"wide range", 110, 10, 10, 4, []int{10, 40, 70, 100}},
		// [0+5, 17-5] = [5, 12] with 3 points: 5, 8.5 -> 8, 12.
		{"three points", 17, 5, 5, 3, []int{5, 8, 12}},
		{"maxOrigins one gives first valid origin", 20, 2, 3, 1, []int{2}},
		{"single valid origin", 8, 3, 5, 64, []int{3}},
		{"history exactly fills start", 6, 5, 1, 2, []int{5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Origins(tc.unitLen, tc.history, tc.horizon, tc.maxOrigs)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Origins(%d, %d, %d, %d) = %v, want %v",
					tc.unitLen, tc.history, tc.horizon, tc.maxOrigs, got, tc.want)
			}
		})
	}
}

// TestOriginsPaperSetting checks the known-SNR protocol: 16-step history,
// 48-step rollout, 64 origins in a 2048-step trajectory.
func TestOriginsPaperSetting(t *testing.T) {
	got, err := Origins(2048, 16, HEval(32), MaxOrigins)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 64 || got[0] != 16 || got[63] != 2048-48 {
		t.Fatalf("got %d origins from %d to %d, want 64 from 16 to 2000", len(got), got[0], got[len(got)-1])
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != 64 {
		t.Errorf("origins not strictly increasing: %v", got)
	}
	// Spacing is 1984/63 = 31.49..., so consecutive gaps are 31 or 32.
	for i := 1; i < len(got); i++ {
		if d := got[i] - got[i-1]; d != 31 && d != 32 {
			t.Errorf("gap %d between origins %d and %d", d, got[i-1], got[i])
		}
	}
}

func TestOriginsErrors(t *testing.T) {
	tests := []struct {
		name                                string
		unitLen, history, horizon, maxOrigs int
		parts                               []string
	}{
		{"horizon longer than data", 10, 8, 5, 64, []string{"no valid origin", "unitLen=10", "history=8", "horizon=5"}},
		{"one step short", 12, 4, 9, 64, []string{"unitLen=12", "history=4", "horizon=9"}},
		{"zero history", 10, 0, 2, 64, []string{"history=0"}},
		{"zero horizon", 10, 2, 0, 64, []string{"horizon=0"}},
		{"zero maxOrigins", 10, 2, 2, 0, []string{"maxOrigins=0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Origins(tc.unitLen, tc.history, tc.horizon, tc.maxOrigs)
			checkErrContains(t, err, tc.parts...)
		})
	}
}

func TestRoundDivHalfEven(t *testing.T) {
	tests := []struct{ num, den, want int }{
		{0, 3, 0}, {1, 3, 0}, {2, 3, 1}, {3, 2, 2}, {5, 2, 2}, {7, 2, 4}, {9, 4, 2}, {10, 4, 2}, {14, 4, 4},
	}
	for _, tc := range tests {
		if got := roundDivHalfEven(tc.num, tc.den); got != tc.want {
			t.Errorf("roundDivHalfEven(%d, %d) = %d, want %d", tc.num, tc.den, got, tc.want)
		}
	}
}

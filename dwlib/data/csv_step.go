package data

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseStep parses a sampling step: a Go duration ("15m", "1h30m") or a
// whole number of days ("1d", "7d"), which Go durations lack.
func ParseStep(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a positive step (examples: 15m, 1h, 1d)", s)
	}
	return d, nil
}

// FormatStep writes a step the way ParseStep reads it, shortest form first:
// "1d", "1h", "15m", "1h30m", "90s".
func FormatStep(d time.Duration) string {
	const day = 24 * time.Hour
	if d > 0 && d%day == 0 {
		return fmt.Sprintf("%dd", d/day)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// modeStep is the most common positive difference between consecutive
// timestamps, the smallest on a tie: a few gaps cannot outvote the regular
// rows, so the error lands on the gap, not on its neighbours.
func modeStep(ts []time.Time) time.Duration {
	count := map[time.Duration]int{}
	for i := 1; i < len(ts); i++ {
		count[ts[i].Sub(ts[i-1])]++
	}
	var best time.Duration
	for d, n := range count {
		if n > count[best] || n == count[best] && d < best {
			best = d
		}
	}
	return best
}

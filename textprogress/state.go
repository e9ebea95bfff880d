package textprogress

import (
	"fmt"
	"strings"
	"time"
)

// State is what every view draws.
type State struct {
	Label       string
	Total, Done int // Total <= 0: unknown
	Msg         string
	Elapsed     time.Duration
	Final       bool // set on the last update of a loop
}

// Fraction is Done/Total clamped to [0, 1], or -1 when the total is unknown.
func (s State) Fraction() float64 {
	if s.Total <= 0 {
		return -1
	}
	return min(1, max(0, float64(s.Done)/float64(s.Total)))
}

// ETA estimates the remaining time from the average step time so far.
func (s State) ETA() (time.Duration, bool) {
	if s.Total <= 0 || s.Done <= 0 || s.Done >= s.Total {
		return 0, false
	}
	return time.Duration(float64(s.Elapsed) * float64(s.Total-s.Done) / float64(s.Done)), true
}

// Summary is the one-line text form: "30/100 (30%) 5.0s, ETA 12s | msg".
func (s State) Summary() string {
	var parts []string
	count := fmt.Sprint(s.Done)
	if s.Total > 0 {
		count = fmt.Sprintf("%d/%d (%.0f%%)", s.Done, s.Total, 100*s.Fraction())
	}
	if s.Final {
		parts = append(parts, fmt.Sprintf("done %s in %s", count, FormatDuration(s.Elapsed)))
	} else {
		parts = append(parts, fmt.Sprintf("%s %s", count, FormatDuration(s.Elapsed)))
		if eta, ok := s.ETA(); ok {
			parts = append(parts, "ETA "+FormatDuration(eta))
		}
	}
	out := strings.Join(parts, ", ")
	if s.Msg != "" {
		out += " | " + s.Msg
	}
	return out
}

// FormatDuration prints durations compactly: 850ms, 12.3s, 4m05s, 2h03m.
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

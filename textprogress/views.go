package textprogress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// View draws progress states. Update is called under the Progress's lock, with s.Final set exactly
// once per loop.
type View interface {
	Update(s State)
}

// LogInterval is the default minimum time between progress lines in logs.
const LogInterval = 5 * time.Second

// TextView is the display for w without a notebook: a bar when w is a terminal, else log lines
// every interval (<= 0: LogInterval).
func TextView(w *os.File, interval time.Duration) View {
	if IsTerminal(w) {
		return NewBarView(w)
	}
	return &LineView{W: w, Interval: interval}
}

// LineView writes log lines: at start, at most every Interval, at the end.
type LineView struct {
	W        io.Writer
	Interval time.Duration // <= 0: LogInterval
	lastLine time.Duration
	started  bool
}

// Update implements View.
func (v *LineView) Update(s State) {
	interval := v.Interval
	if interval <= 0 {
		interval = LogInterval
	}
	switch {
	case !v.started:
		v.started = true
		total := "unknown total"
		if s.Total > 0 {
			total = fmt.Sprintf("total %d", s.Total) // units are the caller's: steps, epochs, cost
		}
		fmt.Fprintf(v.W, "%s: started (%s)\n", s.Label, total)
	case s.Final || s.Elapsed-v.lastLine >= interval:
		v.lastLine = s.Elapsed
		fmt.Fprintf(v.W, "%s: %s\n", s.Label, s.Summary())
	}
}

// BarView is the terminal bar: one line redrawn in place with "\r", throttled to 10 redraws a
// second. (A few lines of our own instead of a progress-bar module keep go.mod free of a
// dependency for a cosmetic feature.)
type BarView struct {
	w        io.Writer
	lastDraw time.Duration
	drawn    bool
	width    int // of the previous line, to blank leftovers
}

// NewBarView returns a bar drawn on w.
func NewBarView(w io.Writer) *BarView { return &BarView{w: w} }

// Update implements View.
func (v *BarView) Update(s State) {
	if v.drawn && !s.Final && s.Elapsed-v.lastDraw < 100*time.Millisecond {
		return
	}
	v.drawn, v.lastDraw = true, s.Elapsed
	line := s.Label + " " + TextBar(s.Fraction(), 30) + " " + s.Summary()
	pad := max(0, v.width-len(line))
	v.width = len(line)
	fmt.Fprintf(v.w, "\r%s%s", line, strings.Repeat(" ", pad))
	if s.Final {
		fmt.Fprintln(v.w)
	}
}

// TextBar draws [=====>    ] for fraction f in [0,1]; unknown (<0) gives [  ?  ].
func TextBar(f float64, width int) string {
	if f < 0 {
		return "[" + strings.Repeat(" ", width/2-1) + "?" + strings.Repeat(" ", width-width/2) + "]"
	}
	n := int(f * float64(width))
	bar := strings.Repeat("=", n)
	if n < width {
		bar += ">" + strings.Repeat(" ", width-n-1)
	}
	return "[" + bar + "]"
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

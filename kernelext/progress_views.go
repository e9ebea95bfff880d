package kernelext

import (
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// progressView draws progress states; update is called under Progress.mu,
// with s.Final set exactly once per loop.
type progressView interface {
	update(s progressState)
}

// htmlView is the notebook bar: one output block (Jupyter display id) that
// each update replaces.
type htmlView struct {
	displayID string
	lastDraw  time.Duration
	drawn     bool
}

func newHTMLView() *htmlView {
	return &htmlView{displayID: "kernelext-progress-" + gonbui.UniqueId()}
}

func (v *htmlView) update(s progressState) {
	if v.drawn && !s.Final && s.Elapsed-v.lastDraw < ProgressInterval {
		return
	}
	v.drawn, v.lastDraw = true, s.Elapsed
	// Errors are sticky in gonbui and surface in the next ShowPlot/ShowTable;
	// a progress bar must not abort the computation it reports on.
	_ = publish(map[protocol.MIMEType]any{
		protocol.MIMETextHTML:  progressHTML(s),
		protocol.MIMETextPlain: s.Label + ": " + s.summary(),
	}, nil, v.displayID)
	if s.Final {
		_ = flush()
	}
}

// progressHTML renders the bar; inline styles only, so it also looks right
// in the HTML export.
func progressHTML(s progressState) string {
	frac := s.fraction()
	color := "#4c8bf5"
	if s.Final {
		color = "#3a9f4a"
		if frac < 0 {
			frac = 1
		}
	}
	width := "100%"
	if frac >= 0 {
		width = fmt.Sprintf("%.1f%%", 100*frac)
	} else {
		color = "repeating-linear-gradient(45deg,#4c8bf5 0 8px,#9dbdf7 8px 16px)" // unknown total.
	}
	return fmt.Sprintf(`<div style="font-family:monospace;font-size:13px;line-height:1.8">`+
		`<b>%s</b> `+
		`<span style="display:inline-block;width:240px;height:10px;background:#e6e6e6;border-radius:3px;vertical-align:middle;overflow:hidden">`+
		`<span style="display:block;width:%s;height:100%%;background:%s"></span></span> %s</div>`,
		html.EscapeString(s.Label), width, color, html.EscapeString(s.summary()))
}

// lineView writes log lines: at start, at most every LogInterval, at the end.
type lineView struct {
	w        io.Writer
	lastLine time.Duration
	started  bool
}

func (v *lineView) update(s progressState) {
	switch {
	case !v.started:
		v.started = true
		total := "unknown total"
		if s.Total > 0 {
			total = fmt.Sprintf("total %d", s.Total) // units are the caller's: steps, epochs, cost
		}
		fmt.Fprintf(v.w, "%s: started (%s)\n", s.Label, total)
	case s.Final || s.Elapsed-v.lastLine >= LogInterval:
		v.lastLine = s.Elapsed
		fmt.Fprintf(v.w, "%s: %s\n", s.Label, s.summary())
	}
}

// barView is the terminal bar: one line redrawn in place with "\r",
// throttled to 10 redraws a second. (A few lines of our own instead of
// schollz/progressbar keep go.mod free of a dependency for a cosmetic feature.)
type barView struct {
	w        io.Writer
	lastDraw time.Duration
	drawn    bool
	width    int // of the previous line, to blank leftovers
}

func newBarView(w io.Writer) *barView { return &barView{w: w} }

func (v *barView) update(s progressState) {
	if v.drawn && !s.Final && s.Elapsed-v.lastDraw < 100*time.Millisecond {
		return
	}
	v.drawn, v.lastDraw = true, s.Elapsed
	line := s.Label + " " + textBar(s.fraction(), 30) + " " + s.summary()
	pad := max(0, v.width-len(line))
	v.width = len(line)
	fmt.Fprintf(v.w, "\r%s%s", line, strings.Repeat(" ", pad))
	if s.Final {
		fmt.Fprintln(v.w)
	}
}

// textBar draws [=====>    ] for fraction f in [0,1]; unknown (<0) gives [  ?  ].
func textBar(f float64, width int) string {
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

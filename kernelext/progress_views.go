package kernelext

import (
	"fmt"
	"html"
	"time"

	"github.com/internal-dw/dwgo/textprogress"
	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

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

// Update implements textprogress.View.
func (v *htmlView) Update(s textprogress.State) {
	if v.drawn && !s.Final && s.Elapsed-v.lastDraw < ProgressInterval {
		return
	}
	v.drawn, v.lastDraw = true, s.Elapsed
	// Errors are sticky in gonbui and surface in the next ShowPlot/ShowTable;
	// a progress bar must not abort the computation it reports on.
	_ = publish(map[protocol.MIMEType]any{
		protocol.MIMETextHTML:  progressHTML(s),
		protocol.MIMETextPlain: s.Label + ": " + s.Summary(),
	}, nil, v.displayID)
	if s.Final {
		_ = flush()
	}
}

// progressHTML renders the bar; inline styles only, so it also looks right
// in the HTML export.
func progressHTML(s textprogress.State) string {
	frac := s.Fraction()
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
		html.EscapeString(s.Label), width, color, html.EscapeString(s.Summary()))
}

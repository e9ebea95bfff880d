package kernelext

import (
	"os"
	"time"

	"github.com/internal-dw/dwgo/textprogress"
)

// Progress is a live progress display for one loop at a time; it implements
// progress.Reporter, so it can be handed to dwlib code:
//
//	p := kernelext.NewProgress("training", epochs)
//	for e := range epochs {
//		...
//		p.Add(1, fmt.Sprintf("epoch %d loss %.3g", e, loss))
//	}
//	p.Done()
//
//	res, err := train.Run(cfg, kernelext.NewReporter()) // library calls Start/Step/Finish
//
// Where it shows (chosen at Start):
//   - in a GoNB notebook: an HTML bar with ETA, updated in place through a
//     Jupyter display id (at most every ProgressInterval), final state kept
//     in the saved notebook;
//   - on a terminal: a bar redrawn in place on stderr;
//   - otherwise (logs, CI, go test): a line on stderr at start, at most
//     every LogInterval, and at the end.
//
// It is textprogress.Progress (the command line's display, which does not
// depend on GoNB) with the notebook view added. Methods are safe for
// concurrent use.
type Progress = textprogress.Progress

// ProgressInterval is the minimum time between notebook bar refreshes.
var ProgressInterval = 250 * time.Millisecond

// LogInterval is the minimum time between progress lines in logs.
var LogInterval = textprogress.LogInterval

// NewProgress starts a progress display for a loop of total steps (total <=
// 0: unknown).
func NewProgress(label string, total int) *Progress {
	p := NewReporter()
	p.Start(total, label)
	return p
}

// NewReporter returns a Progress that is not started yet: pass it to
// library code taking a progress.Reporter, which calls Start itself.
func NewReporter() *Progress {
	return textprogress.New(defaultView)
}

// defaultView picks the display for the current environment.
func defaultView() textprogress.View {
	if InNotebook() {
		return newHTMLView()
	}
	return textprogress.TextView(os.Stderr, LogInterval)
}

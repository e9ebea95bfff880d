package kernelext

import (
	"os"
	"sync"
	"time"

	"github.com/internal-dw/dwgo/dwlib/progress"
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
// Methods are safe for concurrent use.
type Progress struct {
	mu      sync.Mutex
	s       progressState
	running bool
	start   time.Time
	view    progressView

	now     func() time.Time
	newView func() progressView
}

var _ progress.Reporter = (*Progress)(nil)

// ProgressInterval is the minimum time between notebook bar refreshes.
var ProgressInterval = 250 * time.Millisecond

// LogInterval is the minimum time between progress lines in logs.
var LogInterval = 5 * time.Second

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
	return &Progress{now: time.Now, newView: defaultView}
}

// defaultView picks the display for the current environment.
func defaultView() progressView {
	switch {
	case InNotebook():
		return newHTMLView()
	case isTerminal(os.Stderr):
		return newBarView(os.Stderr)
	default:
		return &lineView{w: os.Stderr}
	}
}

// Start implements progress.Reporter: it begins a new loop (finishing the
// previous one if still running).
func (p *Progress) Start(total int, label string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		p.finishLocked()
	}
	if label == "" {
		label = "progress"
	}
	p.s = progressState{Label: label, Total: total}
	p.start = p.now()
	p.running = true
	p.view = p.newView()
	p.view.update(p.s)
}

// Step implements progress.Reporter; see Add.
func (p *Progress) Step(n int, msg string) { p.Add(n, msg) }

// Add advances by n steps; a non-empty msg replaces the status message.
func (p *Progress) Add(n int, msg string) {
	p.mu.Lock()
	if !p.running {
		p.mu.Unlock()
		p.Start(0, "")
		p.mu.Lock()
	}
	defer p.mu.Unlock()
	p.s.Done += n
	if msg != "" {
		p.s.Msg = msg
	}
	p.s.Elapsed = p.now().Sub(p.start)
	p.view.update(p.s)
}

// Finish implements progress.Reporter; see Done.
func (p *Progress) Finish() { p.Done() }

// Done marks the loop finished and draws the final state. Extra calls are no-ops.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		p.finishLocked()
	}
}

func (p *Progress) finishLocked() {
	p.s.Elapsed = p.now().Sub(p.start)
	p.s.Final = true
	p.view.update(p.s)
	p.running = false
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

package textprogress

import (
	"os"
	"sync"
	"time"

	"github.com/internal-dw/dwgo/dwlib/progress"
)

// Progress is a live progress display for one loop at a time; it implements progress.Reporter, so
// it can be handed to dwlib code, which calls Start, Step and Finish. Its view is chosen at each
// Start. Methods are safe for concurrent use.
type Progress struct {
	mu      sync.Mutex
	s       State
	running bool
	start   time.Time
	view    View

	now     func() time.Time
	newView func() View
}

var _ progress.Reporter = (*Progress)(nil)

// NewReporter returns a Progress that is not started yet, drawing on stderr: a bar on a terminal,
// log lines otherwise.
func NewReporter() *Progress {
	return New(func() View { return TextView(os.Stderr, 0) })
}

// New returns an unstarted Progress whose view newView makes at each Start (kernelext passes one
// that draws in a notebook).
func New(newView func() View) *Progress { return NewClocked(newView, time.Now) }

// NewClocked is New with the clock now, for tests that advance time by hand.
func NewClocked(newView func() View, now func() time.Time) *Progress {
	return &Progress{now: now, newView: newView}
}

// Start implements progress.Reporter: it begins a new loop (finishing the previous one if still
// running).
func (p *Progress) Start(total int, label string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		p.finishLocked()
	}
	if label == "" {
		label = "progress"
	}
	p.s = State{Label: label, Total: total}
	p.start = p.now()
	p.running = true
	p.view = p.newView()
	p.view.Update(p.s)
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
	p.view.Update(p.s)
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
	p.view.Update(p.s)
	p.running = false
}

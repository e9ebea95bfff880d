package progress

import (
	"fmt"
	"sync"
)

// Recorder is a Reporter that records calls, for tests of library code that
// reports progress.
type Recorder struct {
	mu sync.Mutex
	// Events holds one line per call: "start <total> <label>", "step <n> <msg>", "finish".
	Events []string
	// Done is the sum of Step increments since the last Start.
	Done int
}

var _ Reporter = (*Recorder)(nil)

// Start implements Reporter.
func (r *Recorder) Start(total int, label string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Done = 0
	r.Events = append(r.Events, fmt.Sprintf("start %d %s", total, label))
}

// Step implements Reporter.
func (r *Recorder) Step(n int, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Done += n
	r.Events = append(r.Events, fmt.Sprintf("step %d %s", n, msg))
}

// Finish implements Reporter.
func (r *Recorder) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Events = append(r.Events, "finish")
}

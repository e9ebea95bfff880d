// Package progress defines Reporter, the one interface library code uses to
// report progress of long loops (training epochs, sweeps, evaluations).
//
// Why a separate, dependency-free package: dwlib packages must not import
// the notebook machinery (gonbui, terminal bars), yet notebooks want a live
// bar for those loops. The library accepts a Reporter; the caller decides
// how it is shown:
//
//	// in dwlib/train:
//	func Run(cfg Config, rep progress.Reporter) (*Result, error) {
//		rep = progress.OrNop(rep)
//		rep.Start(cfg.Epochs, "training")
//		defer rep.Finish()
//		for epoch := range cfg.Epochs {
//			...
//			rep.Step(1, fmt.Sprintf("epoch %d loss %.3g", epoch, loss))
//		}
//	}
//
//	// in a notebook:   train.Run(cfg, kernelext.NewReporter())
//	// in a test:       train.Run(cfg, nil)  or  &progress.Recorder{}
package progress

// Reporter receives the progress of one loop at a time.
//
// Start begins a loop of total steps (total <= 0 means unknown) and may be
// called again after Finish for a following loop. Step advances by n steps
// with an optional short status message (e.g. the current loss). Finish ends
// the loop. Implementations must be safe to call from one goroutine at a time;
// those in this repository are also safe for concurrent Step calls.
type Reporter interface {
	Start(total int, label string)
	Step(n int, msg string)
	Finish()
}

// Nop returns a Reporter that ignores everything.
func Nop() Reporter { return nop{} }

// OrNop returns r, or Nop() when r is nil, so library code can accept nil.
func OrNop(r Reporter) Reporter {
	if r == nil {
		return nop{}
	}
	return r
}

type nop struct{}

func (nop) Start(int, string) {}
func (nop) Step(int, string)  {}
func (nop) Finish()           {}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// interruptible returns a context that SIGINT or SIGTERM cancels, for dw train and dw sweep: the
// run stops between two minibatches and keeps the checkpoint of its last finished epoch, which
// -resume continues with the numbers of an uninterrupted run. After the first signal the default
// handling is back, so a second Ctrl-C quits at once (the checkpoints are written atomically: they
// stay whole either way). stop releases the signals.
func interruptible() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			signal.Stop(sig)
			if experiment.BuildingOnly() {
				// Graph building cannot stop at a minibatch; nothing is trained or written yet.
				fmt.Fprintf(stderr, "dw: %v while building the graphs, before any step: nothing to keep; quitting\n", s)
				exit(exitInterrupted)
			}
			fmt.Fprintf(stderr, "dw: %v: stopping at the next minibatch, keeping the last finished epoch's checkpoint, if one has finished (again to quit at once)\n", s)
			cancel()
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}

// exit ends the process (a variable for tests).
var exit = os.Exit

// interruptedError is how dw reports an interruption: what was kept and what continues it
// (cont; empty: the -resume flag).
type interruptedError struct {
	e    *experiment.InterruptedError
	cont string
}

func (i interruptedError) Error() string {
	cont := i.cont
	if cont == "" {
		cont = "-resume continues"
	}
	if i.e.Epoch < 0 {
		return fmt.Sprintf("interrupted before %s began; %s", i.e.Run, cont)
	}
	if i.e.Epoch == 0 {
		// No epoch finished, so no checkpoint was written: there is nothing to keep or resume.
		return fmt.Sprintf("interrupted during the first epoch of %s, before its first checkpoint: nothing is kept, and running it again starts it over", i.e.Run)
	}
	return fmt.Sprintf("interrupted after epoch %d of %s (its checkpoint is kept); %s", i.e.Epoch, i.e.Run, cont)
}

func (i interruptedError) Unwrap() error { return i.e }

// interrupted wraps an *experiment.InterruptedError in err for the command line.
func interrupted(err error) error { return interruptedContinuedBy(err, "") }

// interruptedContinuedBy is interrupted naming what continues the work (empty: -resume).
func interruptedContinuedBy(err error, cont string) error {
	var ie *experiment.InterruptedError
	if errors.As(err, &ie) {
		return interruptedError{e: ie, cont: cont}
	}
	return err
}

// selectFlags are the dw flags that select cfg's run.
func selectFlags(c experiment.RunConfig) string {
	return fmt.Sprintf("-profile %s -testbed %s -method %s -seed %d -K %d", c.Profile, c.Testbed, c.Train.Method, c.Seed, c.Train.K)
}

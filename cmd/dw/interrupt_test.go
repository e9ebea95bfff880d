package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// TestInterruptedSaysWhatContinues: an interruption names what was kept and how to go on, which
// for dw ksweep -train is the same command (it resumes by itself), for the others -resume.
func TestInterruptedSaysWhatContinues(t *testing.T) {
	ie := &experiment.InterruptedError{Run: "paper-cpu/mackey-glass/dw-K24-s2", Epoch: 14}
	for _, tc := range []struct {
		err  interruptedError
		want string
	}{
		{interruptedError{e: ie}, "interrupted after epoch 14 of paper-cpu/mackey-glass/dw-K24-s2 (its checkpoint is kept); -resume continues"},
		{interruptedError{e: ie, cont: "the same dw ksweep -train continues"}, "interrupted after epoch 14 of paper-cpu/mackey-glass/dw-K24-s2 (its checkpoint is kept); the same dw ksweep -train continues"},
		{interruptedError{e: &experiment.InterruptedError{Run: "quick/narma5/full-K4-s0", Epoch: -1}}, "interrupted before quick/narma5/full-K4-s0 began; -resume continues"},
		// Issue 40: before the first epoch ends there is no checkpoint to keep.
		{interruptedError{e: &experiment.InterruptedError{Run: "quick/narma5/full-K4-s0", Epoch: 0}}, "interrupted during the first epoch of quick/narma5/full-K4-s0, before its first checkpoint: nothing is kept, and running it again starts it over"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q\nwant %q", got, tc.want)
		}
		if !errors.Is(tc.err, experiment.ErrInterrupted) {
			t.Errorf("%q does not unwrap to ErrInterrupted", tc.err.Error())
		}
	}
	// dw ksweep wraps every error of its training this way: only an interruption changes.
	wrapped := fmt.Errorf("sweep: %w", ie)
	if got := interruptedContinuedBy(wrapped, "the same dw ksweep -train continues"); got.Error() != "interrupted after epoch 14 of paper-cpu/mackey-glass/dw-K24-s2 (its checkpoint is kept); the same dw ksweep -train continues" {
		t.Errorf("wrapped interruption: %q", got)
	}
	other := errors.New("disk full")
	if got := interruptedContinuedBy(other, "x"); got != other {
		t.Errorf("another error came back as %v", got)
	}
}

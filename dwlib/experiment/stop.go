package experiment

import (
	"errors"
	"fmt"
)

// ErrExists is returned (wrapped) when a run directory already holds a checkpoint and neither
// Resume nor Force was given.
var ErrExists = errors.New("run directory already has a checkpoint")

// ErrStopped is returned (wrapped) when Options.StopAfter ended a run before it finished.
var ErrStopped = errors.New("stopped before the end of training; resume to continue")

// ErrInterrupted is returned (as an *InterruptedError) when Options.Context ended a run.
var ErrInterrupted = errors.New("interrupted")

// InterruptedError says where an interrupted run can be resumed from: the checkpoint of its last
// finished epoch (the epoch it was in is abandoned, and redone identically on resume).
type InterruptedError struct {
	Run   string // the run's name
	Dir   string
	Epoch int // the last finished epoch, which last.ckpt holds (0: none, the run starts over; -1: before the run began)
}

func (e *InterruptedError) Error() string {
	if e.Epoch < 0 {
		return fmt.Sprintf("experiment: interrupted before %s began; resume to continue", e.Run)
	}
	if e.Epoch == 0 {
		return fmt.Sprintf("experiment: %s interrupted during its first epoch, before any checkpoint; run it again to start over", e.Run)
	}
	return fmt.Sprintf("experiment: %s interrupted after epoch %d; resume to continue", e.Run, e.Epoch)
}

func (e *InterruptedError) Is(target error) bool { return target == ErrInterrupted }

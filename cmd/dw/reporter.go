package main

import (
	"github.com/internal-dw/dwgo/kernelext"
)

// newReporter is the progress display of every long command: a bar on a terminal, log lines
// otherwise.
func newReporter() *kernelext.Progress { return kernelext.NewReporter() }

package main

import "github.com/internal-dw/dwgo/textprogress"

// newReporter is the progress display of every long command: a bar on a terminal, log lines
// otherwise (textprogress, not kernelext: the command line does not depend on GoNB).
func newReporter() *textprogress.Progress { return textprogress.NewReporter() }

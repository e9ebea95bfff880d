// Package textprogress is the progress display of long work outside a notebook: a bar redrawn in
// place on a terminal, or log lines (at start, at most every LogInterval, at the end) elsewhere.
// It implements dwlib/progress.Reporter.
//
// It lives outside kernelext so that the command line (cmd/dw) shows progress without depending on
// the notebook toolkit (GoNB); kernelext's Progress is this package's, with a notebook view added.
// It does no computation and knows neither notebooks nor the command line.
package textprogress

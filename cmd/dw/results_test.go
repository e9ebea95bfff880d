package main

import (
	"testing"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// TestRunBackends: a saved table names the backends its runs were trained on, not the reader's.
func TestRunBackends(t *testing.T) {
	res := func(backends ...string) []*experiment.Result {
		var rs []*experiment.Result
		for _, b := range backends {
			rs = append(rs, &experiment.Result{Backend: b})
		}
		return rs
	}
	for _, tc := range []struct {
		rs   []*experiment.Result
		want string
	}{
		{res("go:ops_sequential", "go:ops_sequential"), "go:ops_sequential"},
		{res("go:ops_sequential", "go:parallelism=-1", "go:ops_sequential"), "go:ops_sequential (2), go:parallelism=-1 (1)"},
		{res(""), "unrecorded"},
	} {
		if got := runBackends(tc.rs); got != tc.want {
			t.Errorf("runBackends(%v) = %q, want %q", tc.rs, got, tc.want)
		}
	}
}

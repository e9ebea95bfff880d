package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The command line must not depend on the notebook toolkit: neither GoNB nor kernelext's own
// package (its progress bars and measurements are textprogress's and runmeasure's). Only
// kernelext's GoNB-free storage helpers, runcache and repo, which the notebooks' cache shares,
// may be linked in.
func TestNoNotebookDependency(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/internal-dw/dwgo/cmd/dw").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	allowed := map[string]bool{
		"github.com/internal-dw/dwgo/kernelext/runcache": true,
		"github.com/internal-dw/dwgo/kernelext/repo":     true,
	}
	for _, p := range strings.Fields(string(out)) {
		switch {
		case strings.HasPrefix(p, "github.com/janpfeifer/gonb"):
			t.Errorf("cmd/dw depends on %s (the notebook toolkit)", p)
		case strings.HasPrefix(p, "github.com/internal-dw/dwgo/kernelext") && !allowed[p]:
			t.Errorf("cmd/dw depends on %s: move what it uses out of kernelext (textprogress, runmeasure)", p)
		}
	}
}

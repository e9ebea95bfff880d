package kernelext

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommittedNotebooksQuiet fails when a committed notebook shows the run cache's hit and miss
// lines on a cell's stderr. Those lines go to <cache dir>/runcache.log (runcache.Cache.Log), and
// Jupyter renders stderr as an error block, so a reader of the committed notebook would see a
// wall of pink for what is bookkeeping. Warnings (a stale, corrupt or unstored entry) still
// belong on stderr and are not checked here.
func TestCommittedNotebooksQuiet(t *testing.T) {
	for _, path := range committedNotebooks(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Outputs []struct {
					Type string          `json:"output_type"`
					Name string          `json:"name"`
					Text json.RawMessage `json:"text"`
				} `json:"outputs"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(raw, &nb); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, c := range nb.Cells {
			for _, o := range c.Outputs {
				if o.Type != "stream" || o.Name != "stderr" {
					continue
				}
				text, err := nbText(o.Text)
				if err != nil {
					t.Fatalf("%s: cell %d: stream text is %v", path, i, err)
				}
				for _, line := range strings.Split(text, "\n") {
					if strings.HasPrefix(line, "runcache: hit ") || strings.HasPrefix(line, "runcache: miss ") {
						t.Errorf("%s: cell %d shows the cache log on stderr: %q (re-run the notebook: these lines now go to runcache.log)", filepath.Base(path), i, line)
						break
					}
				}
			}
		}
	}
}

package kernelext

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/kernelext/repo"
)

// TestCommittedNotebooksQuiet fails when a committed notebook shows the run cache's hit and miss
// lines on a cell's stderr. Those lines go to <cache dir>/runcache.log (runcache.Cache.Log), and
// Jupyter renders stderr as an error block, so a reader of the committed notebook would see a
// wall of pink for what is bookkeeping. Warnings (a stale, corrupt or unstored entry) still
// belong on stderr and are not checked here.
func TestCommittedNotebooksQuiet(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	notebooks, err := filepath.Glob(filepath.Join(root, "notebooks", "*.ipynb"))
	if err != nil || len(notebooks) == 0 {
		t.Fatalf("no notebooks found under %s/notebooks (%v)", root, err)
	}
	for _, path := range notebooks {
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
				var text string
				if err := json.Unmarshal(o.Text, &text); err != nil {
					var parts []string
					if err := json.Unmarshal(o.Text, &parts); err != nil {
						t.Fatalf("%s: cell %d: stream text is neither a string nor a list of strings", path, i)
					}
					text = strings.Join(parts, "")
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

package kernelext

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/kernelext/repo"
)

// cellSeparator is a cell boundary in a notebook's percent source (scripts/new-notebook.py).
var cellSeparator = regexp.MustCompile(`^// %%(\s*\[(markdown|md)\])?\s*$`)

// sourceCell is one cell of a notebook or of its percent source.
type sourceCell struct {
	Markdown bool
	Text     string
}

// parsePercent reads a percent source as scripts/new-notebook.py does: "// %%" starts a code
// cell, "// %% [markdown]" a markdown cell whose lines lose their leading "// "; each cell is
// trimmed of blank lines at both ends, and empty code cells are dropped.
func parsePercent(text string) []sourceCell {
	var cells []sourceCell
	var cur *sourceCell
	var lines []string
	flush := func() {
		if cur == nil {
			return
		}
		body := strings.Trim(strings.Join(lines, "\n"), "\n")
		if cur.Markdown {
			ls := strings.Split(body, "\n")
			for i, l := range ls {
				if rest, ok := strings.CutPrefix(l, "//"); ok {
					ls[i] = strings.TrimPrefix(rest, " ")
				}
			}
			cells = append(cells, sourceCell{true, strings.Join(ls, "\n")})
		} else if strings.TrimSpace(body) != "" {
			cells = append(cells, sourceCell{false, body})
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if m := cellSeparator.FindStringSubmatch(line); m != nil {
			flush()
			cur, lines = &sourceCell{Markdown: m[1] != ""}, nil
			continue
		}
		lines = append(lines, line)
	}
	flush()
	return cells
}

// committedNotebooks lists the committed notebooks (notebooks/*.ipynb), failing when there are none.
func committedNotebooks(t *testing.T) []string {
	t.Helper()
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(root, "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks found under %s/notebooks (%v)", root, err)
	}
	return paths
}

// nbText is a notebook text field, which nbformat stores as one string or a list of lines.
func nbText(raw json.RawMessage) (string, error) {
	var text string
	if err := json.Unmarshal(raw, &text); err == nil {
		return text, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("neither a string nor a list of strings")
	}
	return strings.Join(parts, ""), nil
}

// notebookCells reads the cells of a committed notebook.
func notebookCells(t *testing.T, path string) []sourceCell {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var cells []sourceCell
	for i, c := range nb.Cells {
		text, err := nbText(c.Source)
		if err != nil {
			t.Fatalf("%s: cell %d: source is %v", path, i, err)
		}
		cells = append(cells, sourceCell{c.Type == "markdown", text})
	}
	return cells
}

func TestParsePercent(t *testing.T) {
	src := "// %% [markdown]\n// # Title\n//\n// Some *text*.\n\n// %%\n%%\nfmt.Println(1)\n\n// %%\n\n// %% [md]\n// end"
	want := []sourceCell{{true, "# Title\n\nSome *text*."}, {false, "%%\nfmt.Println(1)"}, {true, "end"}}
	got := parsePercent(src)
	if len(got) != len(want) {
		t.Fatalf("got %d cells %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("cell %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestNotebookSourcesMatchNotebooks checks that every committed notebook has the cells of its
// percent source in notebooks/src: an edit made in one place only (a notebook's prose rewritten
// after a run, or a source changed and never turned into its notebook) fails here. To bring a
// source up to an edited notebook: scripts/new-notebook.py --source NOTEBOOK.ipynb SOURCE.go.txt.
func TestNotebookSourcesMatchNotebooks(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, nb := range committedNotebooks(t) {
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		t.Run(name, func(t *testing.T) {
			srcPath := filepath.Join(root, "notebooks", "src", name+".go.txt")
			raw, err := os.ReadFile(srcPath)
			if err != nil {
				t.Fatalf("notebook %s has no percent source: %v", name, err)
			}
			src, cells := parsePercent(string(raw)), notebookCells(t, nb)
			for i := 0; i < max(len(src), len(cells)); i++ {
				switch {
				case i >= len(src):
					t.Fatalf("%s: cell %d and later are in the notebook only", name, i)
				case i >= len(cells):
					t.Fatalf("%s: cell %d and later are in notebooks/src only", name, i)
				case src[i] != cells[i]:
					t.Fatalf("%s: cell %d differs between notebooks/src/%s.go.txt and the notebook:\nsource:   %.200q\nnotebook: %.200q",
						name, i, name, src[i].Text, cells[i].Text)
				}
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/internal-dw/dwgo/dwlib/experiment"
)

// repoRoot is the repository root, from this package's directory.
const repoRoot = "../.."

// readmeCommand is one `bin/dw ...` line of an indented code block of README.md.
type readmeCommand struct {
	doc     string
	line    int
	args    []string
	comment string
}

// marked reports whether the line's comment says it needs what a fresh clone lacks: training
// ([trains]) or files ([needs runs], [needs ETT], [needs your CSV]).
func (c readmeCommand) marked() bool {
	return strings.HasPrefix(c.comment, "[trains]") || strings.HasPrefix(c.comment, "[needs ")
}

var readmeDW = regexp.MustCompile(`^    bin/dw (.*?)(?:\s+#\s*(.*))?$`)

// readmeDocs are the documents whose dw lines a newcomer copies: the README and the two it sends
// them to for the command line and the library.
var readmeDocs = []string{"README.md", "docs/cli.md", "docs/library.md"}

// readmeCommands lists the dw command lines of readmeDocs.
func readmeCommands(t *testing.T) []readmeCommand {
	t.Helper()
	var out []readmeCommand
	for _, doc := range readmeDocs {
		b, err := os.ReadFile(filepath.Join(repoRoot, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if m := readmeDW.FindStringSubmatch(l); m != nil {
				out = append(out, readmeCommand{doc, i + 1, strings.Fields(m[1]), m[2]})
			}
		}
	}
	return out
}

// freshCopy is what a fresh clone holds that dw reads: go.mod (the root marker), the README and
// docs, and the committed results with their archive.
func freshCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"go.mod", "README.md", "docs", "data/results"} {
		if err := os.CopyFS(filepath.Join(dir, p), os.DirFS(filepath.Join(repoRoot, p))); err != nil {
			if err := copyFile(filepath.Join(repoRoot, p), filepath.Join(dir, p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// TestREADMECommands builds dw and runs every README command line that is not marked as training
// or needing files a fresh clone lacks, each in its own copy of what a clone holds: each must exit
// 0. The marks themselves are checked: a line that trains must say so.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds dw and runs the README's commands")
	}
	cmds := readmeCommands(t)
	if len(cmds) < 10 {
		t.Fatalf("found %d dw lines in README.md; the pattern no longer matches its command blocks", len(cmds))
	}
	bin := filepath.Join(t.TempDir(), "dw")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ran := 0
	for _, c := range cmds {
		trains := len(c.args) > 0 && (c.args[0] == "train" || c.args[0] == "runtime" ||
			c.args[0] == "sweep" && !hasFlag(c.args, "-plan") && !hasFlag(c.args, "-slurm") || hasFlag(c.args, "-train"))
		if trains && !c.marked() {
			t.Errorf("%s:%d: dw %s trains but is not marked [trains]", c.doc, c.line, strings.Join(c.args, " "))
		}
		if c.marked() {
			continue
		}
		ran++
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			dir := freshCopy(t)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, c.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "DW_CACHE_DIR="+filepath.Join(dir, "data", "cache", "runs"))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Errorf("%s:%d: dw %s: %v\n%s", c.doc, c.line, strings.Join(c.args, " "), err, stderr.String())
			}
			// dw table says whose numbers the paper's column holds (issue 38).
			if c.args[0] == "table" && !strings.Contains(stdout.String(), "| "+experiment.PaperColumn+" |") {
				t.Errorf("dw table's paper column is not labelled %q:\n%s", experiment.PaperColumn, stdout.String())
			}
		})
	}
	if ran < 5 {
		t.Errorf("only %d README lines run on a fresh clone", ran)
	}
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag {
			return true
		}
	}
	return false
}

// TestREADMEProgram builds and runs the Go program of docs/library.md (where the README sends a
// library user) as a file of this module, so that its imports, names and signatures stay right.
func TestREADMEProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the README's program")
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "library.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```go\n")
	src, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || !strings.Contains(src, "package main") {
		t.Fatal("docs/library.md has no ```go block with a whole program")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The program is laid over a directory of this module that does not exist, so that it
	// builds against this checkout without a go.mod of its own.
	target, err := filepath.Abs(filepath.Join(repoRoot, "cmd", "dw", "internal", "readmeprogram", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"Replace":{"`+target+`":"`+file+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "run", "-overlay", overlay, filepath.Dir(target)).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "epoch 10: validation loss") || !strings.Contains(string(out), "; at step 16: [0.00 0.00 0.00 0.00]") {
		t.Errorf("the README's program: %v\n%s", err, out)
	}
}

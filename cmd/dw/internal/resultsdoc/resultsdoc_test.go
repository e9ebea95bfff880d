package resultsdoc

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// root is the repository root, from this package's directory.
const root = "../../../.."

// TestCommittedDocsAreGenerated regenerates docs/results.md and README.md's results block from
// the committed data/results and fails on any difference: a summary re-written by a new run, or a
// hand edit of a generated line, shows here until `go run ./cmd/dw results-doc` is run.
func TestCommittedDocsAreGenerated(t *testing.T) {
	if err := Check(root); err != nil {
		t.Fatal(err)
	}
}

// committed returns the top-level summaries of data/results as an in-memory file system that a
// test may add to or take from.
func committed(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	names, err := filepath.Glob(filepath.Join(root, ResultsDir, "*.*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no summaries in %s: %v", ResultsDir, err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(n)] = &fstest.MapFile{Data: b}
	}
	return m
}

// withRuns serves the summaries of m and, below runs/, the committed run archive from disk, which
// the sections read for single runs (gradNorm) and which no test changes. It implements Open
// alone, so that every read of the summaries goes through m.
type withRuns struct{ m fstest.MapFS }

func (w withRuns) Open(name string) (fs.File, error) {
	if strings.HasPrefix(name, "runs/") {
		return os.DirFS(filepath.Join(root, ResultsDir)).Open(name)
	}
	return w.m.Open(name)
}

// TestResultsDirectoryChanges: a summary no section knows (another engineer's new testbed) is
// listed under "Other results" with its tables; a summary a section quotes that is gone, or lost
// the row it quotes, is an error naming the file.
func TestResultsDirectoryChanges(t *testing.T) {
	const shear = "# paper-cpu: shear\n\nWritten by `dw sweep -profile paper-cpu -testbeds shear -save -label shear`.\n\n" +
		"| testbed | method | seeds | test rel-L2 (mean ± sd) |\n|---|---|---|---|\n| shear | dw | 3 | 0.5000 ± 0.0100 |\n"
	const paperSelection = "select-paper-cpu-mg-narma5-dmg.md"
	const selection = "# Control selection: paper-cpu profile\n\n| testbed | method | K | candidates (val loss) | selected |\n|---|---|---|---|---|\n| mackey-glass | clip | 32 | **0.1: 0.5** | 0.1 |\n"
	for _, tc := range []struct {
		name    string
		change  func(fstest.MapFS)
		want    []string // in the document
		wantErr string
	}{
		{"unchanged", func(fstest.MapFS) {}, []string{"## The reproduction at the paper's width", "-5.11%"}, ""},
		{"a new summary", func(m fstest.MapFS) { m["paper-cpu-shear.md"] = &fstest.MapFile{Data: []byte(shear)} },
			[]string{"## Other results", "### paper-cpu: shear (`data/results/paper-cpu-shear.md`)", "| shear | dw | 3 | 0.5000 ± 0.0100 |"}, ""},
		{"a selection not yet saved", func(m fstest.MapFS) { delete(m, paperSelection) },
			[]string{"has not finished (`data/results/" + paperSelection + "` is not written yet)"}, ""},
		{"a selection saved", func(m fstest.MapFS) { m[paperSelection] = &fstest.MapFile{Data: []byte(selection)} },
			[]string{"the selection is in `data/results/" + paperSelection + "`", "| mackey-glass | clip | 32 | **0.1: 0.5** |"}, ""},
		{"a new JSON file only", func(m fstest.MapFS) { m["prior-ar-x.json"] = &fstest.MapFile{Data: []byte("[]")} }, nil, ""},
		{"a quoted summary removed", func(m fstest.MapFS) { delete(m, "paper-val64-mg.md") }, nil, "paper-val64-mg.md"},
		{"a quoted row removed", func(m fstest.MapFS) {
			s := string(m["paper-cpu-mg.md"].Data)
			m["paper-cpu-mg.md"] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(s, "| mackey-glass | dw |", "| mackey-glass | dw2 |"))}
		}, nil, `data/results/paper-cpu-mg.md: no table has column "test rel-L2 (mean ± sd)" with a row starting ["mackey-glass" "dw"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := committed(t)
			tc.change(m)
			doc, block, err := Render(withRuns{m})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one naming %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			flat := strings.ReplaceAll(string(doc), "\n", " ") // prose is reflowed
			for _, w := range tc.want {
				if !strings.Contains(flat, w) {
					t.Errorf("document lacks %q", w)
				}
			}
			if len(block) == 0 || strings.Contains(string(doc), placeholder) || strings.Contains(string(block), "<no value>") {
				t.Errorf("unexpanded template output:\n%s", block)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	ts := parseTables("x\n\n| a | b | c |\n|---|---|---|\n| r | 1 | 2 |\n| s | 3 | 4 |\n\n| a | c |\n| :-- | --: |\n| t | 5 |\n")
	for _, tc := range []struct {
		col     string
		keys    []string
		want    string
		wantErr bool
	}{
		{"b", []string{"s"}, "3", false},
		{"c", []string{"t"}, "5", false},
		{"c", []string{"r", "1"}, "2", false},
		{"c", nil, "", true}, // every row matches, with different values
		{"d", []string{"r"}, "", true},
		{"b", []string{"t"}, "", true},
	} {
		got, err := lookup(ts, tc.col, tc.keys)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("lookup(%q, %q) = %q, %v; want %q (error %v)", tc.col, tc.keys, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestRound(t *testing.T) {
	for _, tc := range []struct{ in, want string }{{"+0.66804", "+0.668"}, {"-0.05388", "-0.054"}, {"+61.39%", "+61.390%"}, {"1.5", "1.500"}} {
		if got, err := round(3, tc.in); err != nil || got != tc.want {
			t.Errorf("round(3, %q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := round(3, "n/a"); err == nil {
		t.Error("round of a non-number gave no error")
	}
}

func TestGradNorm(t *testing.T) {
	gz := func(doc string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(doc))
		w.Close()
		return b.Bytes()
	}
	src := newSource(fstest.MapFS{
		"runs/p/tb/full-K32-s1/result.json.gz":  {Data: gz(`{"epochs": [{"epoch": 1, "grad_norm": 3}, {"epoch": 2, "grad_norm": 2.5e9}, {"epoch": 3, "grad_norm": 4}]}`)},
		"runs/p/tb/none-K32-s0/result.json.gz":  {Data: gz(`{"epochs": [{"epoch": 1}]}`)},
		"runs/p/tb/plain-K32-s0/result.json.gz": {Data: []byte(`{"epochs": []}`)},
	})
	for _, tc := range []struct {
		run, want string
		wantErr   bool
	}{
		{"p/tb/full-K32-s1", "2.5e+09 at epoch 2 (median 4)", false},
		{"p/tb/none-K32-s0", "", true},  // no norm recorded
		{"p/tb/plain-K32-s0", "", true}, // not gzipped
		{"p/tb/missing-K32-s0", "", true},
	} {
		got, err := src.gradNorm(tc.run)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("gradNorm(%q) = %q, %v; want %q (error %v)", tc.run, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestChosen(t *testing.T) {
	src := newSource(fstest.MapFS{
		"c.md": {Data: []byte("| a |\n|---|\n| 1 |\n\n" +
			"Validation (val-loss) chooses `p1`: mean best validation loss (h = 1..K) over seeds [0 1]: `p1` 0.30, `p2` 0.31.\n\n" +
			"Validation (val-at-test) chooses `p2`: mean score over seeds [0]: `p1` 0.5, `p2` 0.4.\n")},
		"none.md":    {Data: []byte("| a |\n|---|\n| 1 |\n")},
		"empty.md":   {Data: []byte("Validation (val-loss) chooses ``: nothing: `a` 1\n")},
		"noscore.md": {Data: []byte("Validation (val-loss) chooses `p1` and nothing else\n")},
	})
	for _, tc := range []struct {
		name, criterion, want, wantScores string
		wantErr                           bool
	}{
		{"c.md", "val-loss", "p1", "`p1` 0.30, `p2` 0.31", false},
		{"c.md", "val-at-test", "p2", "`p1` 0.5, `p2` 0.4", false},
		{"c.md", "val-other", "", "", true},
		{"none.md", "val-loss", "", "", true},
		{"empty.md", "val-loss", "", "", true},
		{"noscore.md", "val-loss", "", "", true},
		{"missing.md", "val-loss", "", "", true},
	} {
		got, err := src.chosen(tc.name, tc.criterion)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("chosen(%q, %q) = %q, %v; want %q (error %v)", tc.name, tc.criterion, got, err, tc.want, tc.wantErr)
		}
		scores, err := src.choiceScores(tc.name, tc.criterion)
		if scores != tc.wantScores || (err != nil) != tc.wantErr {
			t.Errorf("choiceScores(%q, %q) = %q, %v; want %q (error %v)", tc.name, tc.criterion, scores, err, tc.wantScores, tc.wantErr)
		}
	}
}

func TestRatio(t *testing.T) {
	for _, tc := range []struct {
		baseline, in, want string
		wantErr            bool
	}{
		{"ridge-ar", "0.540 (ridge-ar 0.6722)", "0.540", false},
		{"damped-persistence", "1.007 (damped-persistence 0.2986)", "1.007", false},
		{"damped-persistence", "0.540 (ridge-ar 0.6722)", "", true}, // the prose names another baseline
		{"ridge-ar", "0.350", "", true},
		{"ridge-ar", "n/a (ridge-ar 0.6722)", "", true},
		{"ridge-ar", "0.540 (ridge-ar 0.6722", "", true},
	} {
		got, err := ratio(tc.baseline, tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("ratio(%q, %q) = %q, %v; want %q (error %v)", tc.baseline, tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestReflow(t *testing.T) {
	long := strings.Repeat("word ", 30)
	got := reflow(long + "\n\n| a | b |\n|---|---|\n- item " + long + "\n    code line\n")
	for _, l := range strings.Split(got, "\n") {
		if len(l) > width {
			t.Errorf("line longer than %d: %q", width, l)
		}
	}
	for _, w := range []string{"\n| a | b |\n|---|---|\n", "\n- item word", "\n  word", "\n    code line"} {
		if !strings.Contains(got, w) {
			t.Errorf("reflow lost %q:\n%s", w, got)
		}
	}
}

func TestSplice(t *testing.T) {
	readme := "a\n" + BeginMarker + "\nold\n" + EndMarker + "\nb\n"
	got, err := Splice([]byte(readme), []byte("new"))
	if err != nil || string(got) != "a\n"+BeginMarker+"\nnew\n"+EndMarker+"\nb\n" {
		t.Errorf("Splice = %q, %v", got, err)
	}
	if _, err := Splice([]byte("no markers"), nil); err == nil {
		t.Error("Splice without markers gave no error")
	}
}

func TestPaired(t *testing.T) {
	const pairedTable = "| testbed | difference | pairs | mean | 95% interval | change |\n|---|---|---|---|---|---|\n" +
		"| mg | clip − full | 3 | -0.00093 | [-0.01031, +0.00846] | -0.09% |\n" +
		"| mg | dw − full | 3 | +0.66791 | [-0.21382, +1.54965] | +61.37% |\n" +
		"| nd | dw − full | 2 | +0.1 | [-1, +1] | +1% |\n"
	src := newSource(fstest.MapFS{
		"t.md":     {Data: []byte("| testbed | method | seeds |\n|---|---|---|\n| mg | full | 3 |\n\n" + pairedTable)},
		"seed0.md": {Data: []byte("| testbed | method | seeds |\n|---|---|---|\n| mg | full | 1 |\n")},
	})
	for _, tc := range []struct {
		name, testbed, diff, want string
		wantErr                   bool
	}{
		{"t.md", "mg", "clip − full", "-0.00093 [-0.01031, +0.00846]", false},
		{"t.md", "mg", "dw − full", "+0.66791 [-0.21382, +1.54965]", false},
		{"t.md", "nd", "dw − full", "+0.1 [-1, +1]", false},
		{"t.md", "nd", "clip − full", "–", false},   // one seed: no row, said in place
		{"t.md", "mg", "tbptt − full", "–", false},  // not run
		{"seed0.md", "mg", "dw − full", "", true},   // no paired table at all
		{"missing.md", "mg", "dw − full", "", true}, // wrong file name
	} {
		got, err := src.paired(tc.name, tc.testbed, tc.diff)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("paired(%q, %q, %q) = %q, %v; want %q (error %v)", tc.name, tc.testbed, tc.diff, got, err, tc.want, tc.wantErr)
		}
	}
}

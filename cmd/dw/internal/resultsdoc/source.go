package resultsdoc

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// source reads the summaries of one results directory and remembers which of them a section
// showed in full, so that the rest can be listed under "Other results".
type source struct {
	fsys     fs.FS
	included map[string]bool
	bodies   []string // the included summaries, by placeholder number
}

func newSource(fsys fs.FS) *source { return &source{fsys: fsys, included: map[string]bool{}} }

func (s *source) read(name string) (string, error) {
	b, err := fs.ReadFile(s.fsys, name)
	if err != nil {
		return "", fmt.Errorf("data/results/%s: %w", name, err)
	}
	return string(b), nil
}

// have reports whether the directory holds a summary, so that a section can say a study is still
// running until its file lands, and show the file once it has (no status typed into the prose).
func (s *source) have(name string) bool {
	_, err := fs.Stat(s.fsys, name)
	return err == nil
}

// summaries lists the Markdown summaries of the directory (not the run archive below it).
func (s *source) summaries() ([]string, error) {
	names, err := fs.Glob(s.fsys, "*.md")
	slices.Sort(names)
	return names, err
}

// title is the first heading of a summary (its file name when it has none).
func (s *source) title(name string) (string, error) {
	doc, err := s.read(name)
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "#") {
			return strings.TrimSpace(strings.TrimLeft(l, "#")), nil
		}
	}
	return name, nil
}

// include returns a summary's body (its title line dropped, its headings demoted below the
// document's sections) and marks it shown.
func (s *source) include(name string) (token string, err error) {
	var body string
	doc, err := s.read(name)
	if err != nil {
		return "", err
	}
	s.included[name] = true
	s.bodies = append(s.bodies, "")
	defer func() { s.bodies[len(s.bodies)-1] = body }()
	lines := strings.Split(strings.TrimRight(doc, "\n"), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "# ") {
		lines = lines[1:]
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "###" + l
		}
	}
	body = strings.TrimSpace(strings.Join(lines, "\n"))
	return fmt.Sprintf("%s%d\x00", placeholder, len(s.bodies)-1), nil
}

// placeholder marks where an included summary goes: the template's prose is reflowed first, and
// the summary, as its command wrote it, put in afterwards.
const placeholder = "\x00include "

// expand puts the included summaries in place of their placeholders.
func (s *source) expand(text string) string {
	for i, b := range s.bodies {
		text = strings.ReplaceAll(text, fmt.Sprintf("%s%d\x00", placeholder, i), b)
	}
	return text
}

// cell is one cell of a summary's tables: the column named col, in the row whose leading cells
// are keys ("mackey-glass", "dw").
func (s *source) cell(name, col string, keys ...string) (string, error) {
	doc, err := s.read(name)
	if err != nil {
		return "", err
	}
	v, err := lookup(parseTables(doc), col, keys)
	if err != nil {
		return "", fmt.Errorf("data/results/%s: %w", name, err)
	}
	return v, nil
}

// chosen is the profile a `dw compare` summary says validation chooses under criterion
// ("val-loss" or "val-at-test"): its line "Validation (val-at-test) chooses `P`: ...". Prose that
// says which profile validation keeps reads it here, so it cannot outlive the runs it describes.
func (s *source) chosen(name, criterion string) (string, error) {
	p, _, err := s.choice(name, criterion)
	return p, err
}

// choiceScores is the per-profile scores behind that choice, as the summary prints them
// ("`a` 0.3168, `b` 0.3039"), so prose can show how close a choice was instead of judging it.
func (s *source) choiceScores(name, criterion string) (string, error) {
	_, scores, err := s.choice(name, criterion)
	return scores, err
}

// choice parses the line "Validation (criterion) chooses `P`: <what> over seeds [..]: <scores>."
// into P and <scores>.
func (s *source) choice(name, criterion string) (profile, scores string, err error) {
	doc, err := s.read(name)
	if err != nil {
		return "", "", err
	}
	prefix := "Validation (" + criterion + ") chooses `"
	for _, l := range strings.Split(doc, "\n") {
		rest, ok := strings.CutPrefix(l, prefix)
		if !ok {
			continue
		}
		p, rest, ok := strings.Cut(rest, "`")
		i := strings.LastIndex(rest, ": ")
		if !ok || p == "" || i < 0 {
			return "", "", fmt.Errorf("data/results/%s: malformed choice line %q", name, l)
		}
		return p, strings.TrimSuffix(strings.TrimSpace(rest[i+2:]), "."), nil
	}
	return "", "", fmt.Errorf("data/results/%s: no line starting %q", name, prefix)
}

// runField reads a field of the runs of a sweep's JSON (data/results/<profile>-<label>.json)
// whose name starts with prefix, in the file's order, each printed with format, joined by ", ".
func (s *source) runField(name, prefix, field, format string) (string, error) {
	doc, err := s.read(name)
	if err != nil {
		return "", err
	}
	var runs []map[string]any
	if err := json.Unmarshal([]byte(doc), &runs); err != nil {
		return "", fmt.Errorf("data/results/%s: %w", name, err)
	}
	var out []string
	for _, r := range runs {
		if run, _ := r["run"].(string); !strings.HasPrefix(run, prefix) {
			continue
		}
		v, ok := r[field]
		if !ok {
			return "", fmt.Errorf("data/results/%s: run %v has no field %q", name, r["run"], field)
		}
		out = append(out, fmt.Sprintf(format, v))
	}
	if len(out) == 0 {
		return "", fmt.Errorf("data/results/%s: no run starts with %q", name, prefix)
	}
	return strings.Join(out, ", "), nil
}

// mean is the part of "1.0882 ± 0.0372" before the ±; sd the part after it.
func mean(s string) string { m, _, _ := strings.Cut(s, " ± "); return m }

func sd(s string) string { _, d, _ := strings.Cut(s, " ± "); return d }

// ratio is the number of a "vs best baseline" cell without the baseline named beside it
// ("0.540 (ridge-ar 0.6722)" → "0.540"), so that prose can name the baseline once, outside the
// parentheses. The prose names it, so the cell must name the same one: a different baseline (the
// results changed under the prose) or a cell of another shape is an error.
func ratio(baseline, s string) (string, error) {
	r, rest, _ := strings.Cut(s, " (")
	name, _, _ := strings.Cut(rest, " ")
	if _, err := strconv.ParseFloat(r, 64); err != nil || !strings.HasSuffix(rest, ")") {
		return "", fmt.Errorf("ratio: %q is not a \"vs best baseline\" cell", s)
	}
	if name != baseline {
		return "", fmt.Errorf("ratio: the best baseline in %q is %s, not %s as the prose says", s, name, baseline)
	}
	return r, nil
}

// round prints a number cell with d decimals ("+0.66804" → "+0.668"), keeping its sign.
func round(d int, s string) (string, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return "", fmt.Errorf("round: %q is not a number", s)
	}
	out := strconv.FormatFloat(v, 'f', d, 64)
	if strings.HasPrefix(s, "+") {
		out = "+" + out
	}
	if strings.HasSuffix(s, "%") {
		out += "%"
	}
	return out, nil
}

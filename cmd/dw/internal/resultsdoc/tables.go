package resultsdoc

import (
	"fmt"
	"strings"
)

// table is one Markdown table of a summary file: its header and its rows, cells trimmed.
type table struct {
	header []string
	rows   [][]string
}

// parseTables reads every pipe table of a Markdown document (a header row followed by a
// |---| separator row).
func parseTables(doc string) []table {
	lines := strings.Split(doc, "\n")
	var out []table
	for i := 0; i+1 < len(lines); i++ {
		if !isRow(lines[i]) || !isSeparator(lines[i+1]) {
			continue
		}
		t := table{header: cells(lines[i])}
		for i += 2; i < len(lines) && isRow(lines[i]); i++ {
			t.rows = append(t.rows, cells(lines[i]))
		}
		out = append(out, t)
	}
	return out
}

func isRow(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "|") }

func isSeparator(l string) bool {
	l = strings.TrimSpace(l)
	return isRow(l) && strings.Trim(l, "|-: ") == ""
}

func cells(l string) []string {
	l = strings.TrimSpace(l)
	parts := strings.Split(strings.Trim(l, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// lookup returns the cell in column col of the row whose leading cells are keys, over every
// table that has the column. Two matching rows that disagree are an error: the template must
// name the row precisely enough.
func lookup(ts []table, col string, keys []string) (string, error) {
	found, n := "", 0
	for _, t := range ts {
		c := indexOf(t.header, col)
		if c < 0 {
			continue
		}
		for _, r := range t.rows {
			if len(r) <= c || len(r) < len(keys) || !prefixMatch(r, keys) {
				continue
			}
			if n > 0 && r[c] != found {
				return "", fmt.Errorf("column %q, row %q: two rows match (%q and %q)", col, keys, found, r[c])
			}
			found, n = r[c], n+1
		}
	}
	if n == 0 {
		return "", fmt.Errorf("no table has column %q with a row starting %q", col, keys)
	}
	return found, nil
}

// indexOf finds column x in a header: by its name, or by its name followed by a qualifier in
// parentheses ("paper" finds "paper (Mamba-128, paper profile)"), so that a summary re-saved with
// a more explicit header is still read.
func indexOf(header []string, x string) int {
	for i, v := range header {
		if v == x || strings.HasPrefix(v, x+" (") {
			return i
		}
	}
	return -1
}

func prefixMatch(row, keys []string) bool {
	for i, k := range keys {
		if row[i] != k {
			return false
		}
	}
	return true
}

package kernelext

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// proseNumber is a measured-looking number in Markdown: a decimal (0.9997, .348, 1e-3 is not one)
// or a percentage.
var proseNumber = regexp.MustCompile(`(?:^|[^\w.])([-+−]?\d*\.\d+%?|\d+(?:\.\d+)?%)`)

// proseSource names where a quoted number comes from: a committed result file, or the paper.
var proseSource = regexp.MustCompile(`data/results/|[Pp]aper|Table \d|Figure \d|eq\. `)

// unsourcedNumbers returns the numbers of a Markdown cell that sit in a paragraph naming no
// source. LaTeX ($…$, $$…$$) and code spans are not prose and are skipped.
func unsourcedNumbers(md string) []string {
	md = regexp.MustCompile(`(?s)\$\$.*?\$\$|\$[^$]*\$|`+"`[^`]*`").ReplaceAllString(md, "")
	// Headings and section references number the text, they do not measure anything.
	md = regexp.MustCompile(`(?m)^#+ .*$|(?:Section|§|[Ss]ections?) \d+(?:\.\d+)*`).ReplaceAllString(md, "")
	var out []string
	for _, para := range strings.Split(md, "\n\n") {
		if proseSource.MatchString(para) {
			continue
		}
		for _, m := range proseNumber.FindAllStringSubmatch(para, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

func TestUnsourcedNumbers(t *testing.T) {
	for _, tc := range []struct {
		md   string
		want int
	}{
		{"DW scores 0.9212 against 0.8487.", 2},
		{"DW scores 0.9212 (data/results/standard-mg.md).", 0},
		{"the paper reports 5.2% better", 0},
		{"gains in $[0, 1]$ with $\\beta = 0.99$ and `-lr 3e-4`", 0},
		{"a 16-step window, 3 seeds", 0},
		{"## 3.1 The gains\n\nas in Section 3.3 and § 4.2", 0},
		{"first paragraph 12.5%\n\nsecond cites data/results/x.md: 0.5", 1},
	} {
		if got := unsourcedNumbers(tc.md); len(got) != tc.want {
			t.Errorf("unsourcedNumbers(%q) = %q, want %d numbers", tc.md, got, tc.want)
		}
	}
}

// TestProseNumbersAreRenderedOrSourced fails when a Markdown cell of any notebook states a decimal
// number or a percentage in a paragraph that names no source: what a run measured is rendered by
// the cell that measured it (kernelext.ShowMarkdown), and anything quoted names the committed
// result or the paper it comes from, so the quick profile reads true too (issue 38).
func TestProseNumbersAreRenderedOrSourced(t *testing.T) {
	for _, path := range committedNotebooks(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
		t.Run(name, func(t *testing.T) {
			for i, c := range notebookCells(t, path) {
				if !c.Markdown {
					continue
				}
				if nums := unsourcedNumbers(c.Text); len(nums) > 0 {
					t.Errorf("%s, markdown cell %d states %q with no source: render it from the cell's run (kernelext.ShowMarkdown) or name the committed result it quotes", name, i, nums)
				}
			}
		})
	}
}

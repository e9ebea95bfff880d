package kernelext

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// Table is a titled grid of strings, rendered as HTML in notebooks and as
// aligned Markdown elsewhere (which reads well as plain text, and pastes into
// docs). Columns whose cells are all numbers are right-aligned.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
}

// ShowTable displays a table (see Table.Show).
func ShowTable(title string, header []string, rows [][]string) error {
	return (&Table{Title: title, Header: header, Rows: rows}).Show()
}

// Show displays the table in the notebook (text/html with a text/plain
// Markdown alternative), or prints its Markdown to Output.
func (t *Table) Show() error {
	if !InNotebook() {
		_, err := fmt.Fprintln(output(), t.Markdown())
		return err
	}
	err := publish(map[protocol.MIMEType]any{
		protocol.MIMETextHTML:  t.HTML(),
		protocol.MIMETextPlain: t.Markdown(),
	}, nil, "")
	if err != nil {
		return fmt.Errorf("kernelext: displaying table %q: %w", t.Title, err)
	}
	return flush()
}

// numCols is the width of the widest row (header included).
func (t *Table) numCols() int {
	n := len(t.Header)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	return n
}

// cell returns row[j], or "" for ragged rows.
func cell(row []string, j int) string {
	if j < len(row) {
		return row[j]
	}
	return ""
}

// rightAligned reports, per column, whether every non-empty cell is a number.
func (t *Table) rightAligned() []bool {
	n := t.numCols()
	right := make([]bool, n)
	for j := range n {
		seen := false
		right[j] = true
		for _, r := range t.Rows {
			c := strings.TrimSpace(cell(r, j))
			if c == "" {
				continue
			}
			seen = true
			if _, err := strconv.ParseFloat(strings.TrimSuffix(c, "%"), 64); err != nil {
				right[j] = false
				break
			}
		}
		right[j] = right[j] && seen
	}
	return right
}

// HTML renders the table as a self-contained HTML <table> (inline styles, so
// it looks the same in Jupyter, in the HTML export and on GitHub).
func (t *Table) HTML() string {
	var b strings.Builder
	right := t.rightAligned()
	align := func(j int) string {
		if right[j] {
			return "right"
		}
		return "left"
	}
	b.WriteString(`<table style="border-collapse:collapse;margin:4px 0">`)
	if t.Title != "" {
		fmt.Fprintf(&b, `<caption style="caption-side:top;text-align:left;font-weight:bold;padding:2px 0">%s</caption>`, html.EscapeString(t.Title))
	}
	if len(t.Header) > 0 {
		b.WriteString("<thead><tr>")
		for j := range t.numCols() {
			fmt.Fprintf(&b, `<th style="text-align:%s;padding:2px 8px;border-bottom:1px solid #888">%s</th>`, align(j), html.EscapeString(cell(t.Header, j)))
		}
		b.WriteString("</tr></thead>")
	}
	b.WriteString("<tbody>")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for j := range t.numCols() {
			fmt.Fprintf(&b, `<td style="text-align:%s;padding:2px 8px;font-variant-numeric:tabular-nums">%s</td>`, align(j), html.EscapeString(cell(r, j)))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

// Markdown renders the table as a GitHub-flavoured Markdown table with
// padded columns, preceded by the title in bold.
func (t *Table) Markdown() string {
	n := t.numCols()
	right := t.rightAligned()
	esc := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
	}
	header := make([]string, n)
	for j := range n {
		header[j] = esc(cell(t.Header, j))
	}
	rows := make([][]string, len(t.Rows))
	widths := make([]int, n)
	for j := range n {
		widths[j] = max(3, utf8.RuneCountInString(header[j]))
	}
	for i, r := range t.Rows {
		rows[i] = make([]string, n)
		for j := range n {
			rows[i][j] = esc(cell(r, j))
			widths[j] = max(widths[j], utf8.RuneCountInString(rows[i][j]))
		}
	}
	pad := func(s string, j int) string {
		fill := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(s))
		if right[j] {
			return fill + s
		}
		return s + fill
	}
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "**%s**\n\n", esc(t.Title))
	}
	line := func(cells []string) {
		b.WriteString("|")
		for j, c := range cells {
			b.WriteString(" " + pad(c, j) + " |")
		}
		b.WriteString("\n")
	}
	line(header)
	b.WriteString("|")
	for j := range n {
		if right[j] {
			b.WriteString(" " + strings.Repeat("-", widths[j]-1) + ": |")
		} else {
			b.WriteString(" :" + strings.Repeat("-", widths[j]-1) + " |")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		line(r)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// ShowMarkdown displays Markdown text (e.g. a table rendered by dwlib) in the notebook, or prints
// it to Output.
func ShowMarkdown(md string) error {
	if !InNotebook() {
		_, err := fmt.Fprintln(output(), md)
		return err
	}
	if err := publish(map[protocol.MIMEType]any{"text/markdown": md, protocol.MIMETextPlain: md}, nil, ""); err != nil {
		return fmt.Errorf("kernelext: displaying Markdown: %w", err)
	}
	return flush()
}

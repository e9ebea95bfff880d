package kernelext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui/protocol"
)

func TestTableMarkdown(t *testing.T) {
	tests := []struct {
		name  string
		table Table
		want  string
	}{
		{
			name:  "numbers right-aligned",
			table: Table{Title: "Results", Header: []string{"model", "loss"}, Rows: [][]string{{"dw", "0.12"}, {"baseline", "1.5"}}},
			want: "**Results**\n\n" +
				"| model    | loss |\n" +
				"| :------- | ---: |\n" +
				"| dw       | 0.12 |\n" +
				"| baseline |  1.5 |",
		},
		{
			name:  "escapes pipes, ragged rows, no title",
			table: Table{Header: []string{"a", "b", "3rd"}, Rows: [][]string{{"x|y"}, {"1", "2", "extra"}}},
			want: "| a    |   b | 3rd   |\n" +
				"| :--- | --: | :---- |\n" +
				"| x\\|y |     |       |\n" +
				"| 1    |   2 | extra |",
		},
		{
			name:  "percent and empty cells still numeric",
			table: Table{Header: []string{"acc"}, Rows: [][]string{{"95%"}, {""}, {"7"}}},
			want:  "| acc |\n| --: |\n| 95% |\n|     |\n|   7 |",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.table.Markdown(); got != tc.want {
				t.Errorf("Markdown() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestTableHTML(t *testing.T) {
	tab := Table{Title: "A & B", Header: []string{"name", "value"}, Rows: [][]string{{"<script>", "1e-3"}, {"x"}}}
	got := tab.HTML()
	for _, want := range []string{
		`<caption`, `A &amp; B</caption>`,
		`<th style="text-align:left;`, `>name</th>`,
		`<th style="text-align:right;`, `>value</th>`,
		`>&lt;script&gt;</td>`, `>1e-3</td>`,
		`<tr><td style="text-align:left;padding:2px 8px;font-variant-numeric:tabular-nums">x</td><td style="text-align:right;padding:2px 8px;font-variant-numeric:tabular-nums"></td></tr>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("HTML() lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<script>") {
		t.Errorf("HTML() does not escape cell content")
	}
	if n := strings.Count(got, "<tr>"); n != 3 {
		t.Errorf("HTML() has %d rows, want 3 (header + 2)", n)
	}
}

func TestShowTable(t *testing.T) {
	header, rows := []string{"k", "v"}, [][]string{{"a", "1"}}
	t.Run("text", func(t *testing.T) {
		out := &bytes.Buffer{}
		old := Output
		Output = out
		defer func() { Output = old }()
		if err := ShowTable("T", header, rows); err != nil {
			t.Fatal(err)
		}
		if want := "**T**\n\n| k   |   v |\n| :-- | --: |\n| a   |   1 |\n"; out.String() != want {
			t.Errorf("printed\n%q\nwant\n%q", out, want)
		}
	})
	t.Run("notebook", func(t *testing.T) {
		nb := notebookMode(t)
		if err := ShowTable("T", header, rows); err != nil {
			t.Fatal(err)
		}
		msgs := nb.messages()
		if len(msgs) != 1 {
			t.Fatalf("got %d messages, want 1", len(msgs))
		}
		html, _ := msgs[0].Data[protocol.MIMETextHTML].(string)
		plain, _ := msgs[0].Data[protocol.MIMETextPlain].(string)
		if !strings.HasPrefix(html, "<table") || !strings.Contains(plain, "| a   |   1 |") {
			t.Errorf("message = %+v, want text/html table and text/plain Markdown", msgs[0].Data)
		}
	})
}

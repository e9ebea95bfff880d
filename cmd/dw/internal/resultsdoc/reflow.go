package resultsdoc

import (
	"strings"
)

// width is the line length prose is filled to: a template's sentences carry numbers of varying
// length, so the generator, not the template's author, breaks the lines.
const width = 100

// reflow fills the prose paragraphs and "- " list items of a template's output to width, leaving
// tables, headings, comments, indented code and blank lines as they are.
func reflow(s string) string {
	var out []string
	var para []string // words of the paragraph being filled
	prefix, indent := "", ""
	flush := func() {
		if len(para) == 0 {
			return
		}
		line := prefix
		for i, w := range para {
			switch {
			case i == 0:
				line += w
			case len(line)+1+len(w) > width:
				out = append(out, line)
				line = indent + w
			default:
				line += " " + w
			}
		}
		out = append(out, line)
		para, prefix, indent = nil, "", ""
	}
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<!--") ||
			strings.HasPrefix(l, "    ") || strings.HasPrefix(t, placeholder):
			flush()
			out = append(out, l)
		case strings.HasPrefix(l, "- "):
			flush()
			prefix, indent = "- ", "  "
			para = strings.Fields(l[2:])
		default:
			para = append(para, strings.Fields(l)...)
		}
	}
	flush()
	return strings.Join(out, "\n")
}

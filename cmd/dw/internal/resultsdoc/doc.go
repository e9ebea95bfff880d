// Package resultsdoc writes docs/results.md and the README's "what you will see" block from the
// committed summaries in data/results, so that no number in them is typed by hand: the prose
// lives in templates (sections/*.tmpl, readme.tmpl) and every number is a template call that reads
// a cell of a committed Markdown table or a field of a committed JSON result.
//
// A result file no section quotes in full (a testbed or study added later) is not an error: it is
// listed, with its own tables, under "Other results", so the document is always complete and a new
// file needs no change here to appear. A number a template asks for and cannot find is an error
// naming the file, the column and the row, so a renamed or re-run summary cannot leave stale prose.
//
// dw results-doc runs it; TestCommittedDocsAreGenerated fails when the committed documents differ
// from what the committed results give.
package resultsdoc

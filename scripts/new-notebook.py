#!/usr/bin/python3
"""new-notebook.py: write a GoNB notebook for the gonb-dwgo kernel from a
"percent" text file (the jupytext convention, with Go comments):

    // %% [markdown]
    // # Title
    // Some *markdown*; the leading "// " is stripped.
    // %%
    %%
    fmt.Println("a code cell")

Usage: scripts/new-notebook.py [SOURCE|-] OUTPUT.ipynb
Without SOURCE (or with "-") the cells are read from stdin. The notebook gets
kernelspec gonb-dwgo and no outputs; run scripts/run-notebooks.sh to fill them.
Needs Debian's python3-nbformat (installed by scripts/setup.sh).
"""
import re
import sys

import nbformat

KERNELSPEC = {"name": "gonb-dwgo", "display_name": "Go (dwgo, GoNB)", "language": "go"}
SEPARATOR = re.compile(r"^// %%(\s*\[(markdown|md)\])?\s*$")


def parse(text):
    cells, kind, lines = [], None, []

    def flush():
        if kind is None:
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(re.sub(r"^// ?", "", l) for l in body.split("\n"))
            cells.append(nbformat.v4.new_markdown_cell(body))
        elif body.strip():
            cells.append(nbformat.v4.new_code_cell(body))

    for line in text.split("\n"):
        m = SEPARATOR.match(line)
        if m:
            flush()
            kind, lines = ("markdown" if m.group(1) else "code"), []
        else:
            lines.append(line)
    flush()
    return cells


def main(argv):
    if len(argv) not in (2, 3) or argv[-1] in ("-h", "--help"):
        print(__doc__)
        return 2
    src = argv[1] if len(argv) == 3 else "-"
    text = sys.stdin.read() if src == "-" else open(src, encoding="utf-8").read()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata["language_info"] = {"name": "go"}
    nb.cells = parse(text)
    if not nb.cells:
        print("new-notebook: no cells found (separate cells with '// %%' lines)", file=sys.stderr)
        return 1
    nbformat.validate(nb)
    nbformat.write(nb, argv[-1])
    print(f"new-notebook: wrote {argv[-1]} ({len(nb.cells)} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

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
       scripts/new-notebook.py --source NOTEBOOK.ipynb SOURCE
Without SOURCE (or with "-") the cells are read from stdin. The notebook gets
kernelspec gonb-dwgo and no outputs; run scripts/run-notebooks.sh to fill them.
With --source, the cells of an edited notebook are written back as its percent
source (notebooks/src/NAME.go.txt), so that the two agree again
(kernelext's TestNotebookSourcesMatchNotebooks checks that they do).
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


def to_percent(nb):
    """The percent source of a notebook's cells (the inverse of parse)."""
    out = []
    for cell in nb.cells:
        src = cell.source
        if cell.cell_type == "markdown":
            out.append("// %% [markdown]\n" + "\n".join("// " + l if l else "//" for l in src.split("\n")))
        else:
            out.append("// %%\n" + src)
    return "\n\n".join(out) + "\n"


def main(argv):
    if len(argv) == 4 and argv[1] == "--source":
        nb = nbformat.read(argv[2], as_version=4)
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write(to_percent(nb))
        print(f"new-notebook: wrote {argv[3]} ({len(nb.cells)} cells of {argv[2]})")
        return 0
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

#!/usr/bin/env bash
# run-notebooks.sh: execute notebooks headless with the gonb-dwgo kernel,
# save them (with outputs) in place and export HTML.
#
# Usage: scripts/run-notebooks.sh [--profile quick|standard|paper] [--timeout SECONDS]
#                                 [--out DIR] [--no-html] [notebook.ipynb ...]
#
#   --profile   run size, passed to the notebooks as $DW_PROFILE
#               (default: $DW_PROFILE, else quick).
#   --timeout   per-cell timeout in seconds (default: quick 1800, standard 7200,
#               paper 86400; -1 for none).
#   --out DIR   write executed notebooks, HTML, figures and logs to DIR (DIR/<name>.ipynb,
#               DIR/<name>.html, DIR/figures/, DIR/logs/) and leave notebooks/ and
#               figures/ untouched (CI, tests).
#   --no-html   skip the HTML export.
#   notebooks   default: every notebooks/*.ipynb, in name order.
#
# Without --out, each notebook is executed into a temporary file that replaces
# the original only if every cell succeeded (a failed run never clobbers the
# committed notebook); HTML goes to notebooks/html/<name>.html (PNG figures
# embedded as data: URIs) and logs (nbconvert + GoNB) to .tools/logs/.
# Figures are written by the notebooks themselves: to figures/ in place, to DIR/figures/ with
# --out (through $DW_FIGURES_DIR, which the kernel passes on).
# Exit status: 0 if all notebooks ran without a cell error, 1 otherwise.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The kernel builds every cell with Go 1.27.3 (scripts/kernel/launch.sh exports it as well).
export GOTOOLCHAIN=go1.27.3
KERNEL_NAME="gonb-dwgo"
HTML_DIR="$ROOT/notebooks/html"
LOG_DIR="$ROOT/.tools/logs"
PROFILE="${DW_PROFILE:-quick}"
TIMEOUT=""
OUT=""
HTML=1
NOTEBOOKS=()

usage() { sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
die() { echo "run-notebooks: ERROR: $*" >&2; exit 2; }
# elapsed prints the seconds since $1 (from date +%s%N) with one decimal.
elapsed() { local ms=$((($(date +%s%N) - $1) / 1000000)); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }

while (($#)); do
  case "$1" in
    --profile) PROFILE="${2:-}"; shift 2 ;;
    --profile=*) PROFILE="${1#*=}"; shift ;;
    --timeout) TIMEOUT="${2:-}"; shift 2 ;;
    --timeout=*) TIMEOUT="${1#*=}"; shift ;;
    --out) OUT="${2:-}"; [[ -n "$OUT" ]] || die "--out wants a directory"; shift 2 ;;
    --out=*) OUT="${1#*=}"; shift ;;
    --no-html) HTML=0; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option $1 (try --help)" ;;
    *) NOTEBOOKS+=("$1"); shift ;;
  esac
done

case "$PROFILE" in
  quick) : "${TIMEOUT:=1800}" ;;
  standard) : "${TIMEOUT:=7200}" ;;
  paper) : "${TIMEOUT:=86400}" ;;
  *) die "unknown profile \"$PROFILE\": want quick, standard or paper" ;;
esac
[[ "$TIMEOUT" =~ ^-?[0-9]+$ ]] || die "--timeout wants an integer, got \"$TIMEOUT\""

command -v jupyter >/dev/null 2>&1 || die "jupyter not found: run scripts/setup.sh"
# Read the list first: with pipefail, `jupyter ... | grep -q` fails at random when grep exits
# before jupyter has written everything (SIGPIPE).
specs="$(jupyter kernelspec list 2>/dev/null || true)"
grep -q "^ *$KERNEL_NAME " <<<"$specs" ||
  die "Jupyter kernel \"$KERNEL_NAME\" not installed: run scripts/setup.sh"

# The installed kernelspec is per user and points at the checkout that last ran setup.sh (a CI
# clone, say, since deleted). Where this checkout has its own GoNB, run its code whatever the spec
# points at: a private copy of the spec with this checkout's launcher, found first through
# $JUPYTER_PATH. The user's spec is untouched. Without a GoNB here, the installed launcher serves
# (it finds this checkout from the notebook's location).
if [[ -x "$ROOT/.tools/bin/gonb" ]]; then
  KERNEL_PATH="$(mktemp -d)"
  trap 'rm -rf "$KERNEL_PATH"' EXIT
  installed_spec="$(jupyter kernelspec list --json 2>/dev/null || true)"
  /usr/bin/python3 - "$KERNEL_NAME" "$ROOT" "$KERNEL_PATH" "$installed_spec" <<'PY' ||
import json, os, sys
name, root, out, installed = sys.argv[1:5]
spec_dir = json.loads(installed)["kernelspecs"][name]["resource_dir"]
with open(os.path.join(spec_dir, "kernel.json"), encoding="utf-8") as f:
    spec = json.load(f)
spec["argv"] = [os.path.join(root, "scripts", "kernel", "launch.sh")] + spec["argv"][1:]
spec.setdefault("metadata", {})["dwgo_root"] = root
os.makedirs(os.path.join(out, "kernels", name))
with open(os.path.join(out, "kernels", name, "kernel.json"), "w", encoding="utf-8") as f:
    json.dump(spec, f, indent=1)
PY
    die "cannot read the installed \"$KERNEL_NAME\" kernelspec: run scripts/setup.sh --force"
  export JUPYTER_PATH="$KERNEL_PATH${JUPYTER_PATH:+:$JUPYTER_PATH}"
fi

if ((${#NOTEBOOKS[@]} == 0)); then
  while IFS= read -r nb; do NOTEBOOKS+=("$nb"); done < <(find "$ROOT/notebooks" -maxdepth 1 -name '*.ipynb' | sort)
fi
((${#NOTEBOOKS[@]} > 0)) || die "no notebooks found in notebooks/"

# The kernel inherits this environment (scripts/kernel/launch.sh).
export DW_PROFILE="$PROFILE"
export DWGO_KERNEL_RAW_ERROR=1 # plain-text errors in logs and outputs

# cell_programs_ok NOTEBOOK LOG: GoNB (v0.11.1) reports a cell whose program
# exits non-zero (panic, log.Fatal, os.Exit(1)) as successful; it only writes
# the exit error ("exit status 2", "signal: killed") as the last stderr line.
# Find such cells in the executed notebook and fail like nbconvert does for
# compile errors.
cell_programs_ok() {
  /usr/bin/python3 - "$1" >>"$2" 2>&1 <<'PY'
import json, re, sys
nb = json.load(open(sys.argv[1], encoding="utf-8"))
exit_line = re.compile(r"^(exit status \d+|signal: [a-z ]+)$")
bad = 0
for i, cell in enumerate(nb["cells"]):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            bad += 1
            print(f"cell {i}: error output: {out.get('ename')}: {out.get('evalue')}")
        if out.get("output_type") == "stream" and out.get("name") == "stderr":
            text = "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
            lines = text.rstrip("\n").split("\n")
            if lines and exit_line.match(lines[-1].strip()):
                bad += 1
                src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                print(f"CellProgramError: cell {i} program failed ({lines[-1].strip()}):")
                print("------------------\n" + src + "\n------------------")
                print("\n".join(lines[-25:]))
sys.exit(1 if bad else 0)
PY
}

# HTML: prefer PNG over SVG. nbconvert sanitizes inline SVG with lxml's
# clean_html, which drops SVG attributes; the notebook keeps both.
PRIORITY="['text/html', 'application/pdf', 'text/latex', 'image/png', 'image/svg+xml', 'image/jpeg', 'text/markdown', 'text/plain']"

if [[ -n "$OUT" ]]; then
  mkdir -p "$OUT"
  OUT="$(cd "$OUT" && pwd)"
  HTML_DIR="$OUT"
  LOG_DIR="$OUT/logs"
  export DW_FIGURES_DIR="${DW_FIGURES_DIR:-$OUT/figures}"
fi
mkdir -p "$LOG_DIR"
((HTML)) && mkdir -p "$HTML_DIR"
echo "run-notebooks: profile=$PROFILE, per-cell timeout=${TIMEOUT}s, ${#NOTEBOOKS[@]} notebook(s)"

failed=()
summary=()
for nb in "${NOTEBOOKS[@]}"; do
  [[ -f "$nb" ]] || die "no such notebook: $nb"
  nb="$(cd "$(dirname "$nb")" && pwd)/$(basename "$nb")"
  name="$(basename "$nb" .ipynb)"
  log="$LOG_DIR/$name.log"
  tmp="$(mktemp -d)"
  echo "run-notebooks: $name: executing..."
  start=$(date +%s%N)
  if jupyter nbconvert --to notebook --execute \
    --ExecutePreprocessor.kernel_name="$KERNEL_NAME" \
    --ExecutePreprocessor.timeout="$TIMEOUT" \
    --ExecutePreprocessor.startup_timeout=300 \
    --ExecutePreprocessor.record_timing=False \
    --output-dir "$tmp" --output "$name" "$nb" >"$log" 2>&1 &&
    cell_programs_ok "$tmp/$name.ipynb" "$log"; then
    if [[ -n "$OUT" ]]; then
      executed="$OUT/$name.ipynb"
      cp "$tmp/$name.ipynb" "$executed"
    else
      executed="$nb"
      cat "$tmp/$name.ipynb" >"$nb" # keep the original file's mode and owner
    fi
    secs=$(elapsed "$start")
    status=OK
    if ((HTML)); then
      if ! jupyter nbconvert --to html --NbConvertBase.display_data_priority="$PRIORITY" \
        --output-dir "$HTML_DIR" --output "$name" "$executed" >>"$log" 2>&1; then
        status="OK (HTML export failed, see $log)"
        failed+=("$name")
      fi
    fi
  else
    secs=$(elapsed "$start")
    status="FAILED"
    failed+=("$name")
    if [[ -f "$tmp/$name.ipynb" ]]; then
      cp "$tmp/$name.ipynb" "$LOG_DIR/$name.failed.ipynb"
      echo "run-notebooks: executed copy with outputs kept in ${LOG_DIR#"$ROOT"/}/$name.failed.ipynb" >&2
    fi
    echo "run-notebooks: $name FAILED; last lines of $log:" >&2
    tail -n 40 "$log" | sed 's/^/    /' >&2
  fi
  rm -rf "$tmp"
  line="$(printf '%-32s %7ss  %s' "$name" "$secs" "$status")"
  echo "run-notebooks: $line"
  summary+=("$line")
done

echo "run-notebooks: summary (profile=$PROFILE)"
printf '  %s\n' "${summary[@]}"
echo "run-notebooks: executed notebooks in ${OUT:-notebooks (in place)}, HTML in ${HTML_DIR#"$ROOT"/}/, logs in ${LOG_DIR#"$ROOT"/}/"
if ((${#failed[@]})); then
  echo "run-notebooks: ${#failed[@]} notebook(s) failed: ${failed[*]}" >&2
  exit 1
fi

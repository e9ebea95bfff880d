#!/usr/bin/env bash
# check-html.sh: check that exported notebook HTML shows its figures, and take
# a headless-Chromium screenshot of each page for a human to look at.
#
# Usage: scripts/check-html.sh [--out DIR] [--size W,H] [--no-screenshot] [page.html|notebook.ipynb ...]
#
#   default inputs: notebooks/html/*.html
#   --out DIR       screenshots directory (default .tools/screenshots, git-ignored)
#   --size W,H      browser window, i.e. screenshot size (default 1280,3600)
#
# Checks, per page (the notebook is <name>.ipynb next to the page, else notebooks/<name>.ipynb):
#   - no cell in the notebook has an error output;
#   - every image output of the notebook has image/png, and every
#     image/svg+xml output is a well-formed <svg> document;
#   - the HTML holds at least as many <img src="data:image/png;base64,...">
#     as the notebook has PNG outputs, each a valid PNG.
# Chromium (Debian package "chromium") is installed if missing.
# Exit status: 0 if all pages pass, 1 otherwise.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/.tools/screenshots"
SIZE="1280,3600"
SHOT=1
INPUTS=()

die() { echo "check-html: ERROR: $*" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --out) OUT="${2:?}"; shift 2 ;;
    --size) SIZE="${2:?}"; shift 2 ;;
    --no-screenshot) SHOT=0; shift ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) INPUTS+=("$1"); shift ;;
  esac
done
[[ "$SIZE" =~ ^[0-9]+,[0-9]+$ ]] || die "--size wants W,H, got $SIZE"

if ((${#INPUTS[@]} == 0)); then
  while IFS= read -r f; do INPUTS+=("$f"); done < <(find "$ROOT/notebooks/html" -maxdepth 1 -name '*.html' 2>/dev/null | sort)
fi
((${#INPUTS[@]} > 0)) || die "no HTML pages found (run scripts/run-notebooks.sh first)"

CHROMIUM=""
if ((SHOT)); then
  if ! command -v chromium >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "chromium missing and apt-get unavailable; install chromium or use --no-screenshot"
    sudo=(); [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    echo "check-html: installing Debian package chromium..."
    "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null ||
      die "apt-get install chromium failed"
  fi
  CHROMIUM="$(command -v chromium)"
  mkdir -p "$OUT"
fi

failed=0
for input in "${INPUTS[@]}"; do
  name="$(basename "${input%.*}")"
  case "$input" in
    *.ipynb) html="$ROOT/notebooks/html/$name.html"; nb="$input" ;;
    *)
      html="$input"
      nb="$(dirname "$input")/$name.ipynb"
      [[ -f "$nb" ]] || nb="$ROOT/notebooks/$name.ipynb"
      ;;
  esac
  [[ -f "$html" ]] || { echo "check-html: $name: FAIL: no HTML at $html"; failed=1; continue; }

  if ! /usr/bin/python3 - "$html" "$nb" <<'PY'
import base64, json, os, re, sys
import xml.etree.ElementTree as ET

html_path, nb_path = sys.argv[1], sys.argv[2]
name = os.path.basename(html_path)
problems = []

page = open(html_path, encoding="utf-8").read()
imgs = re.findall(r'<img\s+src="data:image/png;base64,([A-Za-z0-9+/=\s]+)"', page)
bad_png = sum(1 for b in imgs if not base64.b64decode(b)[:8] == b"\x89PNG\r\n\x1a\n")
if bad_png:
    problems.append(f"{bad_png} embedded PNG(s) do not decode")

n_png = n_svg = n_err = 0
if os.path.exists(nb_path):
    nb = json.load(open(nb_path, encoding="utf-8"))
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                n_err += 1
            data = out.get("data", {})
            if "image/png" in data:
                n_png += 1
            if "image/svg+xml" in data:
                n_svg += 1
                svg = data["image/svg+xml"]
                svg = "".join(svg) if isinstance(svg, list) else svg
                try:
                    root = ET.fromstring(svg.encode())
                    if not root.tag.endswith("svg"):
                        problems.append(f"an image/svg+xml output has root <{root.tag}>")
                except ET.ParseError as e:
                    problems.append(f"an image/svg+xml output is not well-formed XML: {e}")
                if "image/png" not in data:
                    problems.append("an SVG output has no PNG fallback")
    if n_err:
        problems.append(f"{n_err} error output(s) in {os.path.basename(nb_path)}")
    if len(imgs) < n_png:
        problems.append(f"HTML embeds {len(imgs)} PNG image(s), notebook has {n_png}")
else:
    problems.append(f"no notebook {nb_path} to compare with")

status = "FAIL: " + "; ".join(problems) if problems else "OK"
print(f"check-html: {name}: {len(imgs)} embedded PNG <img>, notebook: {n_png} PNG / {n_svg} SVG outputs -> {status}")
sys.exit(1 if problems else 0)
PY
  then
    failed=1
  fi

  if ((SHOT)); then
    shot="$OUT/$name.png"
    profile_dir="$(mktemp -d)"
    rm -f "$shot"
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --hide-scrollbars --virtual-time-budget=5000 \
      --user-data-dir="$profile_dir" --window-size="$SIZE" --screenshot="$shot" \
      "file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")" >"$OUT/$name.chromium.log" 2>&1 || true
    rm -rf "$profile_dir"
    if [[ -s "$shot" ]] && (($(stat -c %s "$shot") > 10000)); then
      echo "check-html: $name: screenshot ${shot#"$ROOT"/} ($(stat -c %s "$shot") bytes)"
    else
      echo "check-html: $name: FAIL: no usable screenshot (see $OUT/$name.chromium.log)"
      failed=1
    fi
  fi
done
exit "$failed"

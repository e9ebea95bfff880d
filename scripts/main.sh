#!/usr/bin/env bash
# main.sh: the project's main job on a fresh Debian machine.
#
# Sets up Jupyter, GoNB and the project kernel (scripts/setup.sh, idempotent), then executes every
# notebook headless (profile from $DW_PROFILE, default quick) and checks the HTML exports in
# headless Chromium.
#
# Where the outputs go:
#   default          out/<profile>/: the executed notebooks, their HTML, figures/ and logs/;
#                    the committed notebooks/ and figures/ are never touched.
#   DW_IN_PLACE=1    regenerate the committed notebooks and figures in place (what a maintainer
#                    does after a standard-profile run: DW_PROFILE=standard DW_IN_PLACE=1 ...).
#   DW_MAIN_OUT=DIR  another output folder.
#   DW_SKIP_HTML_CHECK=1 skips the Chromium check (the test command uses it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export GOMLX_BACKEND="${GOMLX_BACKEND:-go}"
# Go 1.27.3, which GoMLX v0.28.16 needs (go.mod's toolchain line): the go command fetches it from the
# module proxy on first use (about 10 s), whatever Go 1.21+ is installed.
export GOTOOLCHAIN=go1.27.3
# GoMLX's pure-Go backend has SIMD matrix products on amd64 when built with GOEXPERIMENT=simd
# (about 1.2x a Mamba-24 and 1.6x a Mamba-128 training step here; docs/benchmarks.md). Opt out
# with GOEXPERIMENT= (empty) for a plain build.
if [[ "$(go env GOARCH)" == amd64 ]]; then export GOEXPERIMENT="${GOEXPERIMENT-simd}"; fi
profile="${DW_PROFILE:-quick}"
go mod download
bash scripts/setup.sh
if [[ "${DW_IN_PLACE:-0}" == 1 ]]; then
  bash scripts/run-notebooks.sh --profile "$profile"
  where="notebooks/ and figures/ (in place); HTML in notebooks/html/"
  pages=()
else
  out="${DW_MAIN_OUT:-$ROOT/out/$profile}"
  bash scripts/run-notebooks.sh --profile "$profile" --out "$out"
  where="$out (notebooks, HTML, figures/); the committed notebooks are untouched"
  pages=("$out"/*.html)
fi
if [[ "${DW_SKIP_HTML_CHECK:-0}" != 1 ]]; then
  bash scripts/check-html.sh "${pages[@]}"
fi
echo "main: notebooks executed ($profile profile) -> $where"

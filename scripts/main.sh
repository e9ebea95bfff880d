#!/usr/bin/env bash
# main.sh: the project's main job on a fresh Debian machine.
#
# Sets up Jupyter, GoNB and the project kernel (scripts/setup.sh, idempotent), then executes every
# notebook headless in place (profile from $DW_PROFILE, default quick), writing the executed
# notebooks with their outputs, an HTML export of each under notebooks/html/, and the figures under
# figures/ (SVG and PNG). Finally checks the HTML exports in headless Chromium.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export GOMLX_BACKEND="${GOMLX_BACKEND:-go}"
# GoMLX's pure-Go backend has SIMD matrix products on amd64 when built with GOEXPERIMENT=simd
# (about 1.2x a Mamba-24 and 1.6x a Mamba-128 training step here; README "Benchmarks"). Opt out
# with GOEXPERIMENT= (empty) for a plain build.
if [[ "$(go env GOARCH)" == amd64 ]]; then export GOEXPERIMENT="${GOEXPERIMENT-simd}"; fi
profile="${DW_PROFILE:-quick}"
go mod download
bash scripts/setup.sh
bash scripts/run-notebooks.sh --profile "$profile"
bash scripts/check-html.sh
echo "main: notebooks executed ($profile profile); HTML in notebooks/html/, figures in figures/"

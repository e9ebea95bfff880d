#!/usr/bin/env bash
# launch.sh: entry point of the Jupyter kernel "gonb-dwgo" (see scripts/setup.sh).
#
# Jupyter starts it as `launch.sh <connection_file>` with the notebook's
# directory as the working directory. It prepares the environment and then
# execs GoNB, so that every cell can `import "github.com/internal-dw/dwgo/..."`
# with no boilerplate in the notebook:
#
#   - DWGO_ROOT: the checkout the notebook lives in (found by walking up from
#     the working directory to the go.mod of module github.com/internal-dw/dwgo),
#     or else the checkout of this script.
#   - PATH: scripts/kernel/shim (a `go` wrapper, see shim/go) and .tools/bin
#     (goimports) come first. The shim completes the `go mod init gonb_*` that
#     GoNB runs for its per-kernel module with a `replace` of the project
#     module to DWGO_ROOT and a copy of the project's go.sum.
#   - DW_PROFILE defaults to "quick" (scripts/run-notebooks.sh sets it).
#   - DWGO_KERNEL_RAW_ERROR=1 makes GoNB report errors as plain text
#     (used for headless runs; HTML errors are nicer interactively).
set -euo pipefail

MODULE="github.com/internal-dw/dwgo"
SELF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# find_root walks up from $1 to the directory whose go.mod declares $MODULE.
find_root() {
  local d="$1"
  while [[ -n "$d" && "$d" != "/" ]]; do
    if [[ -f "$d/go.mod" ]] && grep -qE "^module[[:space:]]+\"?${MODULE//./\\.}\"?[[:space:]]*(//.*)?$" "$d/go.mod"; then
      echo "$d"
      return 0
    fi
    d="$(dirname "$d")"
  done
  return 1
}

ROOT="$(find_root "$PWD" || echo "$SELF_ROOT")"
GONB="$ROOT/.tools/bin/gonb"
[[ -x "$GONB" ]] || GONB="$SELF_ROOT/.tools/bin/gonb"
[[ -x "$GONB" ]] || { echo "gonb-dwgo: gonb not built; run scripts/setup.sh" >&2; exit 1; }

# The real go binary, resolved before the shim enters PATH.
if ! command -v go >/dev/null 2>&1 && [[ -n "${DWGO_GO_BIN_DIR:-}" ]]; then
  PATH="$DWGO_GO_BIN_DIR:$PATH"
fi
DWGO_REAL_GO="$(command -v go)" || { echo "gonb-dwgo: go not found on PATH" >&2; exit 1; }
# Cells build with Go 1.27.3, which GoMLX v0.28.16 needs: the go command fetches it from the module
# proxy on first use (about 10 s), whatever Go 1.21+ is installed.
export GOTOOLCHAIN=go1.27.3

SHIM="$ROOT/scripts/kernel/shim"
[[ -x "$SHIM/go" ]] || SHIM="$SELF_ROOT/scripts/kernel/shim"

export DWGO_ROOT="$ROOT" DWGO_REAL_GO
export PATH="$SHIM:$ROOT/.tools/bin:$SELF_ROOT/.tools/bin:$PATH"
export DW_PROFILE="${DW_PROFILE:-quick}"
# Cells build with GoMLX's SIMD matrix products on amd64 (see scripts/test.sh); GOEXPERIMENT= opts out.
if [[ "$("$DWGO_REAL_GO" env GOARCH)" == amd64 ]]; then export GOEXPERIMENT="${GOEXPERIMENT-simd}"; fi

args=(--kernel "$1" --logtostderr)
[[ "${DWGO_KERNEL_RAW_ERROR:-0}" == 1 ]] && args+=(--raw_error)
exec "$GONB" "${args[@]}"

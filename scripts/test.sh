#!/usr/bin/env bash
# test.sh: the project's whole test suite, as CI runs it (.ci/run calls this script).
#
#   1. gofmt and go vet over every package;
#   2. go test ./... (unit tests, float64 gradient checks, examples) on the pure-Go backend, after
#      scripts/slurm-setup.sh has installed and started a single-node Slurm for the dw sweep -slurm
#      end-to-end test (DW_SLURM=1; DW_SKIP_SLURM=1 skips both on machines without apt or root,
#      or with a Slurm of their own), then go test -race over the packages with concurrency;
#   3. the notebooks executed headless in the quick profile (DW_SKIP_NOTEBOOKS=1 skips this step
#      on machines without apt). Unless it is set, scripts/setup.sh installs Jupyter, GoNB and the
#      kernel before step 2, whose kernelext.TestRunNotebooksUsesThisCheckout runs a notebook.
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
start=$(date +%s)

# What this script starts or creates it stops and removes on every exit (success, failure, ^C):
# the Slurm daemons scripts/slurm-setup.sh started for it (listed in $slurm_started, one pid file a
# line; a Slurm that was already running is left alone) and the notebooks' temporary output folder
# (DW_KEEP_NOTEBOOK_OUT=1 keeps it, to look at a failure).
slurm_started=$(mktemp)
notebook_out=""
cleanup() {
  local pidfile pid sudo=()
  [[ $(id -u) != 0 ]] && command -v sudo >/dev/null && sudo=(sudo -n)
  # Reverse order of starting: slurmd, slurmctld, then munged, which they authenticate with.
  for pidfile in $(tac "$slurm_started" 2>/dev/null); do
    pid="$("${sudo[@]}" cat "$pidfile" 2>/dev/null || true)"
    if [[ -n $pid ]] && "${sudo[@]}" kill "$pid" 2>/dev/null; then
      echo "== stopped $(basename "$pidfile" .pid) (pid $pid), which scripts/slurm-setup.sh started for this run"
    fi
  done
  rm -f "$slurm_started"
  if [[ -n $notebook_out && "${DW_KEEP_NOTEBOOK_OUT:-0}" != 1 ]]; then
    rm -rf "$notebook_out"
  elif [[ -n $notebook_out ]]; then
    echo "== notebook output kept in $notebook_out (DW_KEEP_NOTEBOOK_OUT=1)"
  fi
}
trap cleanup EXIT

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [[ -n "$unformatted" ]]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet ./..."
go vet ./...
if [[ "${DW_SKIP_SLURM:-0}" != 1 ]]; then
  echo "== Slurm (single node, for TestSlurmSweepEndToEnd)"
  if ! DW_SLURM_STARTED="$slurm_started" bash scripts/slurm-setup.sh; then
    echo "!! scripts/slurm-setup.sh FAILED: Slurm could not be installed or started, so the test of" >&2
    echo "!! dw sweep -slurm cannot run (see above). Fix it, or set DW_SKIP_SLURM=1 to skip that test." >&2
    exit 1
  fi
  export DW_SLURM=1
else
  echo "== Slurm skipped (DW_SKIP_SLURM=1): TestSlurmSweepEndToEnd will skip"
fi
if [[ "${DW_SKIP_NOTEBOOKS:-0}" != 1 ]]; then
  # Jupyter, GoNB and the kernel first: kernelext.TestRunNotebooksUsesThisCheckout runs a notebook.
  echo "== set-up (scripts/setup.sh, idempotent)"
  bash scripts/setup.sh
fi
echo "== go test ./..."
go test -count=1 -timeout 20m ./...
# The race detector over the packages with concurrency: sweep jobs and run-directory locks
# (dwlib/experiment), the data and run caches, atomic writes. -race turns on checkptr, which
# GoMLX's pure-Go matrix product trips at once (compute .../matmul/nosimd_small.go, SIMD and plain
# builds, as issue 40 reports), so it is turned off; the race detector itself stays on. About 5 minutes on 2 cores.
echo "== go test -race (sweep jobs, locks, caches)"
go test -count=1 -race -gcflags=all=-d=checkptr=0 -timeout 20m \
  ./dwlib/experiment ./dwlib/data ./kernelext/runcache ./dwlib/internal/atomicfile

if [[ "${DW_SKIP_NOTEBOOKS:-0}" != 1 ]] && ls notebooks/*.ipynb >/dev/null 2>&1; then
  echo "== notebooks (quick profile, through the main job)"
  notebook_out=$(mktemp -d)
  before=$(git status --porcelain -- notebooks figures 2>/dev/null || true)
  DW_PROFILE=quick DW_MAIN_OUT="$notebook_out" DW_SKIP_HTML_CHECK=1 bash scripts/main.sh
  after=$(git status --porcelain -- notebooks figures 2>/dev/null || true)
  if [[ "$before" != "$after" ]]; then
    echo "the main job changed committed notebooks or figures:"; echo "$after"; exit 1
  fi
fi
echo "== all tests passed in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# gpu-check.sh: checks and times dw on an NVIDIA GPU through XLA/PJRT, in at most about 8 minutes.
#
#   1. finds JAX's CUDA PJRT plugin (python3: jax_plugins.xla_cuda13, else xla_cuda12) and the
#      CUDA libraries of the same wheel set (site-packages/nvidia), and sets what go-xla reads;
#   2. checks the quick profile on XLA against the pure-Go backend (Mackey–Glass, Full and DW,
#      seed 0): the printed test rel-L2 must agree to 2e-5;
#   3. trains paper-val64 Mackey–Glass (Mamba-128) Full and DW for 3 epochs each on the GPU with
#      the step engine, and reports compile seconds per graph, seconds per epoch (first and
#      steady), the GPU's peak memory and mean utilisation while training;
#   4. prints the table and writes it to data/results/gpu-<device>.md.
#
# Usage: scripts/gpu-check.sh [--dw PATH] [--epochs N] [--profile P] [--out FILE]
#   --dw PATH     the dw binary (default bin/dw; built with `go build -o bin/dw ./cmd/dw` if missing;
#                 on a GPU machine without Go, build it elsewhere and copy it)
#   --epochs N    paper-val64 epochs per method (default 3)
#   --profile P   the timed runs' profile (default paper-val64)
#   --out FILE    the table's file (default data/results/gpu-<device>.md)
# Environment: DW_PLUGIN=/path/xla_cuda_plugin.so skips the search; DW_GPU_CHECK_BACKEND=go runs
# the whole script on the pure-Go backend (with a stand-in nvidia-smi on PATH: a test of the script).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}"
DW="$ROOT/bin/dw"
EPOCHS=3
PROFILE=paper-val64
OUT=""
while (($#)); do
  case "$1" in
    --dw) DW="$2"; shift 2 ;;
    --epochs) EPOCHS="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --profile) PROFILE="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check: unknown argument $1 (try --help)" >&2; exit 2 ;;
  esac
done
say() { echo "gpu-check: $*" >&2; }
die() { echo "gpu-check: ERROR: $*" >&2; exit 1; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: this script needs an NVIDIA GPU"
if [[ ! -x "$DW" ]]; then
  command -v go >/dev/null || die "$DW is missing and go is not installed: build dw elsewhere (go build -o bin/dw ./cmd/dw) and pass --dw"
  say "building $DW"
  GOEXPERIMENT= go build -buildvcs=auto -o "$DW" ./cmd/dw # -buildvcs: results name their commit
fi

# ---------------------------------------------------------------- 1. the plugin and CUDA's libraries
plugin="${DW_PLUGIN:-}"
if [[ -n "${DW_GPU_CHECK_BACKEND:-}" ]]; then
  plugin=/dev/null
elif [[ -z "$plugin" ]]; then
  for mod in xla_cuda13 xla_cuda12; do
    if p=$(python3 -c "import os, jax_plugins.$mod as m; print(os.path.join(os.path.dirname(m.__file__), 'xla_cuda_plugin.so'))" 2>/dev/null) && [[ -f "$p" ]]; then
      plugin="$p"; break
    fi
  done
fi
[[ -n "$plugin" && -e "$plugin" ]] || die "JAX's CUDA PJRT plugin not found (pip install 'jax[cuda13]', or set DW_PLUGIN=/path/xla_cuda_plugin.so)"
# JAX's wheels keep the CUDA libraries in site-packages/nvidia, two levels above the plugin; dw
# (dwlib/backend) finds them there itself, sets XLA_FLAGS=--xla_gpu_cuda_data_dir and silences
# go-xla's check, which looks only one level up. The quick run below counts warning lines.
XLA="${DW_GPU_CHECK_BACKEND:-xla:$plugin}"
gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -1)
slug=$(echo "$gpu" | cut -d, -f1 | tr 'A-Z' 'a-z' | sed -E 's/nvidia//; s/[^a-z0-9]+/-/g; s/^-+|-+$//g')
OUT="${OUT:-$ROOT/data/results/gpu-$slug.md}"
say "GPU: $gpu; plugin $plugin"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# ---------------------------------------------------------------- 2. quick profile: XLA against Go
quick() { # backend dir
  GOMLX_BACKEND="$1" "$DW" train -profile quick -testbed mackey-glass -method full,dw -seed 0 -runs "$work/$2" -cache "$work/cache" 2>"$work/$2.log" |
    sed -nE 's/^quick\/mackey-glass\/([a-z]+)-K[0-9]+-s0: test rel-L2 ([0-9.]+).*/\1 \2/p'
}
say "quick profile on the Go backend, then on XLA"
go_scores=$(quick go quick-go)
t0=$(date +%s.%N)
xla_scores=$(quick "$XLA" quick-xla) || { tail -20 "$work/quick-xla.log" >&2; die "the quick profile failed on XLA"; }
quick_wall=$(echo "$(date +%s.%N) - $t0" | bc)
warnings=$(grep -ciE "warn|can't find" "$work/quick-xla.log" || true)
check=$(paste <(echo "$go_scores") <(echo "$xla_scores") | awk '{d=$2-$4; if (d<0) d=-d; printf "%s: Go %s, XLA %s (%s)\n", $1, $2, $4, (d<=2e-5 ? "agree" : "DIFFER"); if (d>2e-5) bad=1} END {exit bad}') || { echo "$check" >&2; die "XLA and Go disagree on the quick profile"; }
say "$check"

# ---------------------------------------------------------------- 3. paper-val64 (Mamba-128) Mackey–Glass on the GPU
nvidia-smi dmon -s um -d 1 >"$work/dmon.log" 2>/dev/null &
dmon=$!
rows=""
declare -A steady
for method in full dw; do
  say "$PROFILE Mackey–Glass $method, $EPOCHS epochs"
  log="$work/paper-$method.log"
  start=$(date +%s.%N)
  GOMLX_BACKEND="$XLA" "$DW" train -profile "$PROFILE" -testbed mackey-glass -method "$method" -seed 0 -engine steps \
    -stop-after "$EPOCHS" -runs "$work/paper" -cache "$work/cache" 2>&1 >/dev/null |
    while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >"$log" || true
  end=$(date +%s.%N)
  wall=$(echo "$end - $start" | bc)
  compile=$(sed -nE 's/^[0-9.]+ .*compiled [0-9]+ graphs \(steps engine\) in ([0-9.]+) s: (.*)/\1 s (\2)/p' "$log" | sed 's/  */ /g')
  # Epoch ends, as wall-clock stamps: the first epoch counts from the process start.
  mapfile -t ends < <(sed -nE 's/^([0-9.]+) .*: epoch [0-9]+\/[0-9]+ train .*/\1/p' "$log")
  ((${#ends[@]} >= 1)) || { tail -20 "$log" >&2; die "$PROFILE $method finished no epoch"; }
  first=$(echo "${ends[0]} - $start" | bc)
  if ((${#ends[@]} >= 2)); then
    steady[$method]=$(echo "scale=2; (${ends[-1]} - ${ends[0]}) / (${#ends[@]} - 1)" | bc)
  else
    steady[$method]=NA
  fi
  rows+="| $method | ${compile:-?} | $(printf %.1f "$first") | ${steady[$method]} | ${#ends[@]} | $(printf %.0f "$wall") |"$'\n'
done
kill "$dmon" 2>/dev/null || true
# dmon columns (-s um): gpu sm mem enc dec jpg ofa fb bar1 ccpm; fb is MiB in use.
mem=$(awk '!/^#/ && NF>=8 {if ($8+0>m) m=$8+0} END {print m+0}' "$work/dmon.log")
sm=$(awk '!/^#/ && NF>=8 && $2 ~ /^[0-9]+$/ {s+=$2; n++} END {if (n) printf "%.0f", s/n; else print "NA"}' "$work/dmon.log")
ratio=NA
if [[ "${steady[full]}" != NA && "${steady[dw]}" != NA ]]; then ratio=$(echo "scale=2; ${steady[dw]} / ${steady[full]}" | bc); fi

# ---------------------------------------------------------------- 4. the table
mkdir -p "$(dirname "$OUT")"
{
  echo "# dw on $(echo "$gpu" | cut -d, -f1)"
  echo
  echo "Measured $(date -u +%Y-%m-%d) by \`scripts/gpu-check.sh\` (GPU: $gpu; plugin \`$(basename "$(dirname "$plugin")")\`;"
  echo "dw $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), step engine)."
  echo
  echo "Quick profile, XLA against the pure-Go backend (test rel-L2, Mackey–Glass, seed 0; $(printf %.0f "$quick_wall") s on XLA, $warnings warning lines):"
  echo
  echo "$check" | sed 's/^/- /'
  echo
  echo "$PROFILE Mackey–Glass, $EPOCHS epochs per method (the step engine):"
  echo
  echo "| method | compile (all graphs; per graph) | epoch 1, s (with compile) | steady s/epoch | epochs | process wall, s |"
  echo "|---|---|---|---|---|---|"
  printf '%s' "$rows"
  echo
  echo "DW/Full steady: $ratio. GPU while training: peak memory $mem MiB, mean SM utilisation $sm% (nvidia-smi dmon, 1 s samples, both runs)."
} >"$OUT"
cat "$OUT"
say "wrote $OUT"

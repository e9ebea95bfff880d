#!/usr/bin/env bash
# reproduce.sh: the reproduction's long runs (issue 9), in priority order, resumable, archived.
#
# Each stage is one `dw sweep ... -resume -archive-each -save` (its table and baselines into
# data/results/), or for a training-horizon stage one `dw ksweep ... -train -archive-each -save`
# (its K* table into data/results/ksweep-<profile>-<testbed>.md). -archive-each copies each run's
# result.json (and a ksweep's score at H) into data/results/runs/, committed, the moment the run
# finishes; a `dw archive` of the stage's grid follows. A run already archived is read back,
# not trained, so the script picks up where any earlier machine left off, and a stage interrupted
# (Ctrl-C, -stop-after, a wall-time limit) archives the runs it finished, exits with dw's status
# and continues from its last epoch checkpoints on the same machine when started again.
#
# Usage: scripts/reproduce.sh [--list | --status] [--jobs N] [STAGE ...]
#   --list     print the stages and their commands, run nothing
#   --status   print each stage's runs finished (archived or here), part-way and not started,
#              from `dw sweep -plan`; run nothing (a training-horizon stage's runs also need
#              their score at H, which -archive-each and dw archive keep with the result)
#   --jobs N   runs trained at once (default 2; the machine's cores / 1 process each)
#   STAGE      run only these stages (default: all, in order)
# Environment: GOMLX_BACKEND as for dw (e.g. a PJRT plugin on a GPU machine); DW_BIN, a dw binary
# to use instead of building bin/dw.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Go 1.27.3, which GoMLX v0.28.16 needs (go.mod's toolchain line): the go command fetches it from the
# module proxy on first use (about 10 s), whatever Go 1.21+ is installed.
export GOTOOLCHAIN=go1.27.3

# name | profile | dw grid flags | label of the saved table, or "ksweep -H H": a training-horizon
# sweep (one testbed; every checkpoint scored at h = 1..H, which needs the checkpoint, on the
# machine that trained it; `dw archive` keeps the score with the result, so a later machine reads
# it back and trains only the runs still missing, matched Full/DW pairs first)
STAGES=(
  "mg128|paper-val64|-testbeds mackey-glass -methods full,dw -seeds 0,1,2|mg"
  "boundary128|paper-val64|-testbeds driven-mg -methods full,dw -seeds 0,1,2|driven-mg"
  "narma-dmg|paper-cpu|-testbeds narma5,driven-mg -methods full,dw -seeds 0,1,2|narma-dmg"
  "mg|paper-cpu|-testbeds mackey-glass -methods full,dw -seeds 0,1,2|mg"
  "controls|paper-cpu|-testbeds mackey-glass -methods static,clip,jreg,tbptt -seeds 0|mg-controls"
  "regime-a1|paper-cpu-a1|-testbeds mackey-glass -methods full,dw -seeds 0,1,2|mg"
  "regime-a1-lr1e-3|paper-cpu-a1-lr1e-3|-testbeds mackey-glass -methods full,dw -seeds 0,1,2|mg"
  "regime-long|paper-cpu-a1-long|-testbeds mackey-glass -methods full,dw -seeds 0,1,2|mg"
  "regime-long-nd|paper-cpu-a1-long|-testbeds narma5,driven-mg -methods full,dw -seeds 0,1,2|narma-dmg"
  "step-3e-4|paper-cpu-a1-long-lr3e-4|-testbeds mackey-glass -methods full -seeds 0|mg"
  "step-1e-4|paper-cpu-a1-long-lr1e-4|-testbeds mackey-glass -methods full -seeds 0|mg"
  "long-controls|paper-cpu-a1-long|-testbeds mackey-glass -methods tbptt,static -seeds 0,1,2|mg-controls"
  "ett|paper-cpu|-testbeds ettm1,ettm2 -methods full,dw -seeds 0|ett"
  "known-snr|paper-cpu|-testbeds known-snr -methods full,dw,static,clip,jreg,tbptt -seeds 0,1,2|known-snr"
  "narma-dmg-controls|paper-cpu|-testbeds narma5,driven-mg -methods full,dw,clip,jreg,static,tbptt -seeds 0,1,2|narma-dmg-controls"
  "across|paper-cpu|-testbeds mackey-glass,narma5,driven-mg,known-snr,ettm1,ettm2 -methods full,dw,static,clip,jreg,tbptt -seeds 0,1,2|across"
  "ksweep-mg|paper-cpu|-testbeds mackey-glass -methods full,dw -seeds 0,1,2 -K 8,16,24,32,48|ksweep -H 48"
  "ksweep-mg-long|paper-cpu-a1-long|-testbeds mackey-glass -methods full,dw -seeds 0,1,2 -K 8,16,24,32,48|ksweep -H 48"
  "ksweep-ettm1|paper-cpu|-testbeds ettm1 -methods full,dw -seeds 0,1,2 -K 16,32,48,64,96|ksweep -H 96"
  "ksweep-ettm2|paper-cpu|-testbeds ettm2 -methods full,dw -seeds 0,1,2 -K 16,32,48,64,96|ksweep -H 96"
  "ksweep-ettm1-standard|standard|-testbeds ettm1 -methods full,dw -seeds 0,1,2 -K 16,32,48,64,96|ksweep -H 96"
  "ksweep-ettm2-standard|standard|-testbeds ettm2 -methods full,dw -seeds 0,1,2 -K 16,32,48,64,96|ksweep -H 96"
)

jobs=2
list=0
status_only=0
want=()
while (($#)); do
  case "$1" in
    --list) list=1; shift ;;
    --status) status_only=1; shift ;;
    --jobs) jobs="${2:?--jobs wants a number}"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "reproduce: unknown option $1 (try --help)" >&2; exit 2 ;;
    *) want+=("$1"); shift ;;
  esac
done

names=()
for s in "${STAGES[@]}"; do names+=("${s%%|*}"); done
for w in "${want[@]+"${want[@]}"}"; do
  [[ " ${names[*]} " == *" $w "* ]] || { echo "reproduce: unknown stage $w; stages: ${names[*]}" >&2; exit 2; }
done

dw="${DW_BIN:-}"
if [[ -z "$dw" && "$list" == 0 ]]; then
  mkdir -p bin
  # A plain build, as every archived result was made with (SIMD kernels round differently, so a
  # run resumed under the other build would mix two): environment.md, "SIMD builds".
  GOEXPERIMENT= go build -buildvcs=auto -o bin/dw ./cmd/dw # -buildvcs: results name their commit
  dw="$ROOT/bin/dw"
fi

for s in "${STAGES[@]}"; do
  IFS='|' read -r name profile grid label <<<"$s"
  if ((${#want[@]})) && [[ " ${want[*]} " != *" $name "* ]]; then continue; fi
  if [[ "$label" == ksweep* ]]; then
    # shellcheck disable=SC2086 # grid and the label's -H are lists of flags
    sweep=(ksweep -profile "$profile" $grid ${label#ksweep} -train -jobs "$jobs" -resume -archive-each -save)
  else
    # shellcheck disable=SC2086
    sweep=(sweep -profile "$profile" $grid -jobs "$jobs" -resume -archive-each -save -label "$label")
  fi
  # shellcheck disable=SC2086
  archive=(archive -profile "$profile" $grid)
  if [[ "$list" == 1 ]]; then
    echo "$name: dw ${sweep[*]} && dw ${archive[*]}"
    continue
  fi
  if [[ "$status_only" == 1 ]]; then
    # shellcheck disable=SC2086
    plan=$("$dw" sweep -plan -profile "$profile" $grid) || exit $?
    echo "$name ($profile): ${plan##*$'\n'}"
    continue
  fi
  echo "reproduce: stage $name ($(date -u +%H:%M:%S))"
  status=0
  "$dw" "${sweep[@]}" || status=$?
  if ((status == 0)); then
    "$dw" "${archive[@]}"
    continue
  fi
  # Interrupted (Ctrl-C: 130, a wall-time SIGTERM, -stop-after: 75) or failed: archive the runs
  # that did finish, so that no other machine trains them again, and stop with dw's status. The
  # unfinished ones make dw archive name them and fail; that is expected here.
  echo "reproduce: stage $name stopped (dw exit status $status); archiving its finished runs" >&2
  "$dw" "${archive[@]}" 2>/dev/null || true
  echo "reproduce: run the same command again to continue from the checkpoints" >&2
  exit "$status"
done

#!/usr/bin/env bash
# slurm-setup.sh: a single-node Slurm on this machine, so that `dw sweep -slurm` job arrays can be
# submitted and tested here (scripts/test.sh runs it before the Slurm end-to-end test).
#
#   1. installs Debian's Slurm and MUNGE (slurm-wlm, munge) when sbatch or munged is missing;
#   2. writes /etc/slurm/slurm.conf for this host: one node (CPUs and memory as `slurmd -C` finds
#      them), one default partition, select/cons_tres over CPUs and memory, no accounting, no cgroups;
#   3. creates the MUNGE key if it is missing;
#   4. starts munged, slurmctld and slurmd directly (CI machines and containers have no systemd as
#      PID 1, so `systemctl start` is not an option);
#   5. waits (at most $DW_SLURM_WAIT seconds, default 60) until sinfo shows the node idle.
#
# Idempotent: when the node already answers as idle (or busy with jobs) it only prints sinfo; a
# daemon that died is started again. It never replaces a slurm.conf it did not write (a cluster's
# own). Any failure exits non-zero with "slurm-setup: FAILED: ..." and the tail of the daemons' logs.
# Needs root or sudo. With DW_SLURM_STARTED=FILE it appends to FILE the pid file of each daemon it
# started (none when Slurm was already up), in the order started, so that its caller
# (scripts/test.sh) can stop exactly those and leave a Slurm it found running alone.
set -euo pipefail

log() { echo "slurm-setup: $*" >&2; }
SLURM_LOG=/var/log/slurm
die() {
  echo "slurm-setup: FAILED: $*" >&2
  for f in "$SLURM_LOG"/slurmctld.log "$SLURM_LOG"/slurmd.log /var/log/munge/munged.log; do
    [[ -r $f ]] && { echo "--- tail of $f" >&2; tail -n 20 "$f" >&2; }
  done
  exit 1
}

SUDO=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null || die "needs root or sudo"
  SUDO=(sudo)
fi
as_root() { "${SUDO[@]}" "$@"; }

WAIT="${DW_SLURM_WAIT:-60}"
CONF=/etc/slurm/slurm.conf
HOST="$(hostname -s)"

# node_ready: the node is up and can take jobs (idle, or mixed/allocated with jobs already running).
node_ready() {
  command -v sinfo >/dev/null || return 1
  sinfo -h -N -n "$HOST" -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated|completing)$'
}

if node_ready; then
  log "Slurm is already up on $HOST"
  sinfo
  exit 0
fi

# 1. Packages.
if ! command -v sbatch >/dev/null || ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  log "installing slurm-wlm and munge from Debian"
  export DEBIAN_FRONTEND=noninteractive
  if ! as_root apt-get install -y --no-install-recommends slurm-wlm munge; then
    as_root apt-get update || die "apt-get update"
    as_root apt-get install -y --no-install-recommends slurm-wlm munge || die "apt-get install slurm-wlm munge"
  fi
fi
for cmd in sbatch sinfo squeue scontrol slurmctld slurmd munged; do
  command -v "$cmd" >/dev/null || die "$cmd is not installed"
done

# 2. slurm.conf. The node line comes from slurmd -C (what slurmd will detect, so the node never
# drains for "low CPUs" or "low RealMemory"); NodeAddr and the controller's address are 127.0.0.1,
# so nothing depends on name resolution. CR_CPU_Memory hands out single CPUs (not whole cores) and
# counts --mem; DefMemPerCPU keeps a task that asks for no memory from taking the whole node.
# proctrack/linuxproc and task/none need no cgroup hierarchy, which containers often do not grant.
# SlurmUser=root: the daemons run as root, so the spool directories need no service user.
node_line="$(slurmd -C 2>/dev/null | grep '^NodeName=' | head -n 1 | sed -E 's/ UpTime=.*//')"
[[ -n $node_line ]] || die "slurmd -C did not describe this node"
node_line="$(sed -E "s/^NodeName=[^ ]+/NodeName=$HOST NodeAddr=127.0.0.1/" <<<"$node_line")"
cpus="$(grep -oE 'CPUs=[0-9]+' <<<"$node_line" | cut -d= -f2)"
mem="$(grep -oE 'RealMemory=[0-9]+' <<<"$node_line" | cut -d= -f2)"
[[ -n $cpus && -n $mem ]] || die "could not read CPUs and RealMemory from: $node_line"
as_root mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$SLURM_LOG"
conf="$(cat <<EOF
# Written by scripts/slurm-setup.sh: a single-node Slurm for dw sweep -slurm.
ClusterName=dw
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=$(( mem / cpus ))
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$SLURM_LOG/slurmctld.log
SlurmdLogFile=$SLURM_LOG/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=60
MinJobAge=300
$node_line State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
)"
if [[ -f $CONF ]] && ! grep -q '^# Written by scripts/slurm-setup.sh' "$CONF"; then
  # A machine of a real cluster: its configuration is not ours to replace.
  die "$CONF exists and was not written by this script; not replacing it (DW_SKIP_SLURM=1 makes scripts/test.sh skip the Slurm test)"
fi
if [[ ! -f $CONF ]] || [[ "$(cat "$CONF")" != "$conf" ]]; then
  log "writing $CONF ($cpus CPUs, $mem MB)"
  as_root tee "$CONF" >/dev/null <<<"$conf"
fi

# 3. The MUNGE key (the package may have made one; a fresh random key otherwise).
if [[ ! -s /etc/munge/munge.key ]]; then
  log "creating /etc/munge/munge.key"
  as_root mkdir -p /etc/munge
  as_root dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
munge_user=root
id munge >/dev/null 2>&1 && munge_user=munge
as_root mkdir -p /run/munge /var/log/munge /var/lib/munge
as_root chown "$munge_user" /etc/munge/munge.key /run/munge /var/log/munge /var/lib/munge
as_root chmod 0400 /etc/munge/munge.key
as_root chmod 0755 /run/munge

# 4. The daemons, each started only when it is not running. munged runs as the munge user when
# there is one (it refuses a key readable by others, hence the chmod above); --force lets it
# replace a stale socket left by a killed munged.
# running PIDFILE: the daemon that wrote it is alive (pid files, not pgrep: minimal images lack procps).
running() { local pid; pid="$(cat "$1" 2>/dev/null)" && [[ -n $pid ]] && as_root kill -0 "$pid" 2>/dev/null; }
# started PIDFILE: records a daemon this script started (DW_SLURM_STARTED, see the top).
started() { if [[ -n ${DW_SLURM_STARTED:-} ]]; then echo "$1" >>"$DW_SLURM_STARTED"; fi; }
if ! running /run/munge/munged.pid; then
  log "starting munged"
  if [[ $munge_user == root ]]; then as_root munged --force; else as_root runuser -u munge -- munged --force; fi
  started /run/munge/munged.pid
fi
for _ in $(seq 20); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.5; done
munge -n | unmunge >/dev/null || die "munged does not answer (munge -n | unmunge)"
if ! running /run/slurmctld.pid; then
  log "starting slurmctld"
  as_root slurmctld || die "slurmctld did not start"
  started /run/slurmctld.pid
fi
if ! running /run/slurmd.pid; then
  log "starting slurmd"
  as_root slurmd || die "slurmd did not start"
  started /run/slurmd.pid
fi

# 5. Wait for the node. A node left down or drained by an earlier start is returned to service.
deadline=$(( $(date +%s) + WAIT ))
until node_ready; do
  state="$(sinfo -h -N -n "$HOST" -o '%T' 2>/dev/null || true)"
  case "$state" in
    down*|drain*|drained*) as_root scontrol update NodeName="$HOST" State=RESUME >/dev/null 2>&1 || true ;;
  esac
  (( $(date +%s) < deadline )) || die "node $HOST not idle after ${WAIT}s (state: ${state:-no answer from slurmctld})"
  sleep 1
done
log "Slurm is up on $HOST"
sinfo

#!/usr/bin/env bash
# setup.sh: idempotent set-up of the notebook toolchain for the dwgo project.
#
# What it does (each step is skipped when already done):
#   1. Debian Jupyter packages (jupyter-notebook, jupyter-nbconvert,
#      python3-ipykernel, jupyter-client), only if missing.
#   2. gonb and goimports, built from the pinned tools module in tools/
#      (tools/go.mod "tool" directives) into <repo>/.tools/bin (git-ignored).
#   3. The Jupyter kernel "gonb-dwgo" (user kernelspec), whose launcher
#      (scripts/kernel/launch.sh) makes the project importable from any cell.
#
# A second run changes nothing and prints "setup: already complete".
#
# Usage: scripts/setup.sh [--force]
#   --force   rebuild the tools and reinstall the kernelspec even if up to date.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KERNEL_NAME="gonb-dwgo"
KERNEL_DISPLAY_NAME="Go (dwgo, GoNB)"
TOOLS_BIN="$ROOT/.tools/bin"
APT_PACKAGES=(jupyter-notebook jupyter-nbconvert python3-ipykernel jupyter-client)
FORCE=0
# Go 1.27.3, which GoMLX v0.28.16 needs (go.mod's toolchain line): the go command fetches it from the
# module proxy on first use (about 10 s), whatever Go 1.21+ is installed.
export GOTOOLCHAIN=go1.27.3

for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

CHANGED=0
START=$(date +%s)
say() { echo "setup: $*"; }
die() { echo "setup: ERROR: $*" >&2; exit 1; }

# ---------------------------------------------------------------- 1. Debian packages
pkg_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

step_apt() {
  command -v dpkg-query >/dev/null 2>&1 ||
    die "dpkg-query not found: this script expects a Debian/Ubuntu machine. Install by hand: ${APT_PACKAGES[*]}"
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  if ((${#missing[@]} == 0)); then
    say "ok: Debian Jupyter packages present (${APT_PACKAGES[*]})"
    return
  fi
  command -v apt-get >/dev/null 2>&1 ||
    die "apt-get is not available, cannot install missing packages: ${missing[*]}. Install them by other means and re-run."
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "not root and no sudo: cannot apt-get install ${missing[*]}"
    sudo=(sudo)
  fi
  say "installing Debian packages: ${missing[*]} (about a minute)"
  "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
  for p in "${missing[@]}"; do pkg_installed "$p" || die "package $p still not installed after apt-get"; done
  CHANGED=1
}

# ---------------------------------------------------------------- 2. gonb + goimports
find_go() {
  if command -v go >/dev/null 2>&1; then command -v go
  elif [[ -x /usr/local/go/bin/go ]]; then echo /usr/local/go/bin/go
  else die "go not found on PATH nor at /usr/local/go/bin/go"
  fi
}

step_tools() {
  local go_bin stamp_file want have=""
  go_bin="$(find_go)"
  stamp_file="$TOOLS_BIN/.stamp"
  # The stamp pins what the binaries were built from: the tools module and the Go version.
  want="$(cat "$ROOT/tools/go.mod" "$ROOT/tools/go.sum" | sha256sum | cut -d' ' -f1) $("$go_bin" env GOVERSION)"
  [[ -f "$stamp_file" ]] && have="$(cat "$stamp_file")"
  if ((FORCE == 0)) && [[ "$have" == "$want" && -x "$TOOLS_BIN/gonb" && -x "$TOOLS_BIN/goimports" ]]; then
    say "ok: gonb and goimports up to date in ${TOOLS_BIN#"$ROOT"/}"
    return
  fi
  say "building gonb and goimports from tools/go.mod into ${TOOLS_BIN#"$ROOT"/}"
  mkdir -p "$TOOLS_BIN"
  (cd "$ROOT/tools" && GOBIN="$TOOLS_BIN" GOFLAGS="${GOFLAGS:-} -mod=readonly" "$go_bin" install tool) ||
    die "go install of the tools module failed (see above)"
  "$TOOLS_BIN/gonb" --version >/dev/null 2>&1 || die "built gonb does not run"
  echo "$want" >"$stamp_file"
  CHANGED=1
}

# ---------------------------------------------------------------- 3. kernelspec
kernel_json() {
  local go_dir
  go_dir="$(dirname "$(find_go)")"
  cat <<JSON
{
  "argv": ["$ROOT/scripts/kernel/launch.sh", "{connection_file}"],
  "display_name": "$KERNEL_DISPLAY_NAME",
  "language": "go",
  "interrupt_mode": "message",
  "env": {"DWGO_GO_BIN_DIR": "$go_dir"},
  "metadata": {"dwgo_root": "$ROOT"}
}
JSON
}

step_kernel() {
  command -v jupyter >/dev/null 2>&1 || die "jupyter not on PATH after package installation"
  local installed_dir want tmp logo
  installed_dir="$(jupyter kernelspec list --json 2>/dev/null |
    /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['kernelspecs'].get('$KERNEL_NAME',{}).get('resource_dir',''))")"
  want="$(kernel_json)"
  if ((FORCE == 0)) && [[ -n "$installed_dir" && -f "$installed_dir/kernel.json" ]] &&
    [[ "$(cat "$installed_dir/kernel.json")" == "$want" ]]; then
    say "ok: Jupyter kernel \"$KERNEL_NAME\" installed ($installed_dir)"
    return
  fi
  tmp="$(mktemp -d)"
  mkdir -p "$tmp/$KERNEL_NAME"
  echo "$want" >"$tmp/$KERNEL_NAME/kernel.json"
  logo="$(cd "$ROOT/tools" && "$(find_go)" list -m -f '{{.Dir}}' github.com/janpfeifer/gonb 2>/dev/null)/internal/kernel/Go_gopher_favicon.svg"
  [[ -f "$logo" ]] && cp "$logo" "$tmp/$KERNEL_NAME/logo-svg.svg"
  jupyter kernelspec install --user --replace --name "$KERNEL_NAME" "$tmp/$KERNEL_NAME" >/dev/null 2>&1 ||
    { rm -rf "$tmp"; die "jupyter kernelspec install failed"; }
  rm -rf "$tmp"
  if [[ -n "$installed_dir" ]]; then
    say "updated Jupyter kernel \"$KERNEL_NAME\" (points to $ROOT)"
  else
    say "installed Jupyter kernel \"$KERNEL_NAME\""
  fi
  CHANGED=1
}

step_apt
step_tools
step_kernel

if ((CHANGED == 0)); then
  say "already complete (nothing to do; use --force to redo)"
else
  say "done in $(($(date +%s) - START))s. Kernel \"$KERNEL_NAME\"; run notebooks with scripts/run-notebooks.sh"
fi

#!/usr/bin/env bash
# Installs what the build needs on Debian bookworm. Safe to re-run: it only asks apt for packages
# that are missing, and only refreshes the package lists when it has something to install.
#
# Usage: scripts/setup.sh [--with-moto] [--with-chromium]
#   --with-moto (or KP_WITH_MOTO=1) also installs the `moto[server]` AWS emulator for python3,
#   which the AWS integration tests start on 127.0.0.1.
#   --with-chromium (or KP_WITH_CHROMIUM=1) also installs Debian's chromium, which the test of
#   `karpenter sim --report` uses to render the page headless.
set -euo pipefail

# The toolchain and libraries of CMakeLists.txt, plus clang-14 (libFuzzer), the format/lint tools,
# the LP solver and ccache (scripts/test.sh compiles through it when present, so a re-run or a
# fresh clone on the same machine reuses objects). Keep in step with README.md ("Quick start").
readonly APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache
  libgtest-dev libgmock-dev libbenchmark-dev librapidcheck-dev
  nlohmann-json3-dev libsimdjson-dev libyaml-cpp-dev libfmt-dev libcli11-dev libabsl-dev
  clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14
  coinor-libclp-dev libjemalloc-dev
  libcurl4-openssl-dev libssl-dev libpugixml-dev
)
readonly MOTO_SPEC="${KP_MOTO_SPEC:-moto[server]==5.2.1}"

apt_lists_fresh=0

log() { printf '==> %s\n' "$*"; }

die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}

# Runs a command as root, through sudo only when we are not root already.
as_root() {
  if [[ "$(id -u)" -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root to run '$*' and sudo is not installed"
  fi
}

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" == "installed" ]]
}

apt_install() {
  if [[ "${apt_lists_fresh}" -eq 0 ]]; then
    log "refreshing apt package lists"
    as_root apt-get update
    apt_lists_fresh=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

install_build_packages() {
  local missing=() pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    is_installed "${pkg}" || missing+=("${pkg}")
  done
  if [[ "${#missing[@]}" -eq 0 ]]; then
    log "build packages already present (${#APT_PACKAGES[@]} apt packages)"
    return
  fi
  log "installing ${missing[*]}"
  apt_install "${missing[@]}"
}

# Installs moto into whichever python3 is first on PATH, so that `python3 -m moto.server` and
# `moto_server` work for the integration tests.
install_moto() {
  if command -v python3 >/dev/null 2>&1 && python3 -c 'import moto' >/dev/null 2>&1; then
    log "moto already present ($(python3 -c 'import moto; print(moto.__version__)'))"
    return
  fi
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    log "installing python3-pip"
    apt_install python3 python3-pip
  fi
  local pip_args=(install --quiet "${MOTO_SPEC}")
  # Debian's own python3 refuses pip installs (PEP 668) unless told that is what we want.
  if python3 -c 'import os, sys, sysconfig
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)'; then
    pip_args+=(--break-system-packages)
  fi
  log "installing ${MOTO_SPEC} with pip"
  if [[ "$(id -u)" -eq 0 ]]; then
    python3 -m pip "${pip_args[@]}"
  else
    python3 -m pip "${pip_args[@]}" --user
  fi
  python3 -c 'import moto' || die "moto still cannot be imported after pip install"
}

install_chromium() {
  if is_installed chromium; then
    log "chromium already present"
    return
  fi
  log "installing chromium (headless rendering test of the sim report)"
  apt_install chromium
}

main() {
  local with_moto="${KP_WITH_MOTO:-0}" with_chromium="${KP_WITH_CHROMIUM:-0}" arg
  for arg in "$@"; do
    case "${arg}" in
      --with-moto) with_moto=1 ;;
      --with-chromium) with_chromium=1 ;;
      -h | --help)
        sed -n '2,9s/^# \{0,1\}//p' "$0"
        return 0
        ;;
      *) die "unknown argument '${arg}' (try --help)" ;;
    esac
  done

  command -v dpkg-query >/dev/null 2>&1 || die "this script expects Debian (bookworm): no dpkg-query"
  install_build_packages
  if [[ "${with_moto}" == "1" ]]; then
    install_moto
  fi
  if [[ "${with_chromium}" == "1" ]]; then
    install_chromium
  fi
}

main "$@"

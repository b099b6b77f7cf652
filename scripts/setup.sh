#!/usr/bin/env bash
# Installs what the build needs on Debian bookworm. Safe to re-run: it only asks apt for packages
# that are missing, and only refreshes the package lists when it has something to install.
#
# Usage: scripts/setup.sh [--with-moto] [--with-chromium] [--with-go]
#   --with-moto (or KP_WITH_MOTO=1) also installs the `moto[server]` AWS emulator for python3,
#   which the AWS integration tests start on 127.0.0.1.
#   --with-chromium (or KP_WITH_CHROMIUM=1) also installs Debian's chromium, which the test of
#   `karpenter sim --report` uses to render the page headless.
#   --with-go (or KP_WITH_GO=1) also installs a Go toolchain when the go on PATH is missing or
#   older than 1.26, for building the test control plane (scripts/controlplane.sh), and the
#   tools that start it (curl, openssl, python3).
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
  libcurl4-openssl-dev libssl-dev libpugixml-dev libcpp-httplib-dev
)
readonly MOTO_SPEC="${KP_MOTO_SPEC:-moto[server]==5.2.1}"
# The oldest Go that builds test/controlplane (kwok v0.8.0's go.mod asks for go 1.26.0), and the
# toolchain installed when the machine has none that new: the Go module proxy serves toolchains as
# the module golang.org/toolchain, and go1.27.3 is the version this workplace approves.
readonly GO_MIN_MINOR=26
readonly GO_TOOLCHAIN="${KP_GO_TOOLCHAIN:-go1.27.3}"
# Where the toolchain goes, and where `go` and `gofmt` are linked (a folder already on PATH).
readonly GO_INSTALL_DIR="${KP_GO_INSTALL_DIR:-/usr/local/lib/karpenter-cpp-go}"
readonly GO_LINK_DIR="${KP_GO_LINK_DIR:-/usr/local/bin}"

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

# What scripts/controlplane.sh runs besides its own binaries: curl (health checks), openssl (the
# cluster's certificates) and python3 (free ports; the smoke test reads JSON with it); and umoci
# and skopeo, which scripts/image.sh builds the container image with in the same test stage.
install_controlplane_tools() {
  local missing=() pkg
  for pkg in curl openssl python3 umoci skopeo; do
    is_installed "${pkg}" || command -v "${pkg}" >/dev/null 2>&1 || missing+=("${pkg}")
  done
  if [[ "${#missing[@]}" -eq 0 ]]; then
    return
  fi
  log "installing ${missing[*]} (test control plane)"
  apt_install "${missing[@]}"
}

# The minor version of the go command on PATH ("26" for go1.26.8), or nothing when there is none
# or its version cannot be read. GOTOOLCHAIN=local: the go command's own version, not one it
# would switch to.
go_minor() {
  local version
  version="$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null)" || return 0
  if [[ "${version}" =~ ^go1\.([0-9]+) ]]; then
    printf '%s\n' "${BASH_REMATCH[1]}"
  fi
}

# Installs GO_TOOLCHAIN when no go on PATH is GO_MIN_MINOR or newer. The download goes through an
# existing go command (any version, Debian's 1.19 included: `go mod download` of the toolchain
# module, checked against the checksum database like every module), into a scratch module cache;
# the toolchain is then copied out of it to GO_INSTALL_DIR and linked into GO_LINK_DIR.
install_go() {
  local minor
  minor="$(go_minor)"
  if [[ -n "${minor}" ]] && ((minor >= GO_MIN_MINOR)); then
    log "go already present ($(GOTOOLCHAIN=local go env GOVERSION) at $(command -v go))"
    return
  fi
  log "no go 1.${GO_MIN_MINOR} or newer on PATH (found: ${minor:+1.}${minor:-none}); installing ${GO_TOOLCHAIN}"
  if ! command -v go >/dev/null 2>&1; then
    log "installing Debian's golang-go to download the toolchain with"
    apt_install golang-go
  fi
  local arch module scratch dir
  arch="$(dpkg --print-architecture)"
  module="golang.org/toolchain@v0.0.1-${GO_TOOLCHAIN}.linux-${arch}"
  scratch="$(mktemp -d)"
  # shellcheck disable=SC2064  # expand now: the scratch folder is fixed
  trap "chmod -R u+w '${scratch}' 2>/dev/null; rm -rf '${scratch}'" EXIT
  dir="$(cd "${scratch}" && GOMODCACHE="${scratch}/mod" GOPATH="${scratch}/gopath" \
    GOTOOLCHAIN=local GOFLAGS='' go mod download -json "${module}" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -n "${dir}" && -f "${dir}/bin/go" ]] || die "could not download ${module}"
  as_root mkdir -p "${GO_INSTALL_DIR}" "${GO_LINK_DIR}"
  as_root rm -rf "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}"
  as_root cp -a "${dir}" "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}"
  # A module zip keeps no file modes: the programs in bin/ and pkg/tool/ are made executable again,
  # as the go command does when it switches to a downloaded toolchain.
  as_root chmod -R u+w "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}"
  as_root find "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}/bin" "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}/pkg/tool" \
    -type f -exec chmod a+x {} +
  as_root ln -sfn "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}/bin/go" "${GO_LINK_DIR}/go"
  as_root ln -sfn "${GO_INSTALL_DIR}/${GO_TOOLCHAIN}/bin/gofmt" "${GO_LINK_DIR}/gofmt"
  chmod -R u+w "${scratch}"
  rm -rf "${scratch}"
  trap - EXIT
  hash -r
  minor="$(go_minor)"
  if [[ -z "${minor}" ]] || ((minor < GO_MIN_MINOR)); then
    die "installed ${GO_TOOLCHAIN} into ${GO_INSTALL_DIR}, but the go first on PATH is $(command -v go) (put ${GO_LINK_DIR} first)"
  fi
  log "installed $(GOTOOLCHAIN=local go env GOVERSION) at ${GO_LINK_DIR}/go"
}

main() {
  local with_moto="${KP_WITH_MOTO:-0}" with_chromium="${KP_WITH_CHROMIUM:-0}" arg
  local with_go="${KP_WITH_GO:-0}"
  for arg in "$@"; do
    case "${arg}" in
      --with-moto) with_moto=1 ;;
      --with-chromium) with_chromium=1 ;;
      --with-go) with_go=1 ;;
      -h | --help)
        sed -n '2,12s/^# \{0,1\}//p' "$0"
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
  if [[ "${with_go}" == "1" ]]; then
    install_controlplane_tools
    install_go
  fi
}

main "$@"

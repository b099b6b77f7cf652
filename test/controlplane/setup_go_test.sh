#!/usr/bin/env bash
# Tests `scripts/setup.sh --with-go` without the network: a fake `go` first on PATH reports the
# version under test and answers `go mod download -json` with a fake toolchain module, so what is
# checked is setup's own logic: keep a new enough Go, replace an old one with the pinned toolchain
# module, copy it out of the (read-only) module cache and link it onto PATH.
# Not covered: a machine with no go at all, where setup installs Debian's golang-go first.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-setup-go-test.XXXXXX")"
readonly WORK
trap 'chmod -R u+w "${WORK}" 2>/dev/null; rm -rf "${WORK}"' EXIT
PASSED=0

fail() {
  printf '  FAILED: %s\n' "$*" >&2
  exit 1
}

pass() {
  PASSED=$((PASSED + 1))
  printf '  ok: %s\n' "$*"
}

# A fake go reporting FAKE_GO_VERSION; `mod download -json MODULE` records MODULE and lays out a
# read-only toolchain whose own go reports go1.27.3, with no execute bits, as the module cache
# does.
make_fake_go() {
  local dir="$1"
  mkdir -p "${dir}"
  cat >"${dir}/go" <<'FAKE'
#!/usr/bin/env bash
set -euo pipefail
if [[ "$1 $2" == "env GOVERSION" ]]; then
  printf '%s\n' "${FAKE_GO_VERSION}"
  exit 0
fi
if [[ "$1 $2 $3" == "mod download -json" ]]; then
  printf '%s\n' "$4" >>"${FAKE_GO_LOG}"
  toolchain="${GOMODCACHE}/golang.org/toolchain@fake"
  mkdir -p "${toolchain}/bin"
  printf '#!/usr/bin/env bash\n[[ "$1 $2" == "env GOVERSION" ]] && echo go1.27.3\n' \
    >"${toolchain}/bin/go"
  printf '#!/bin/sh\n' >"${toolchain}/bin/gofmt"
  mkdir -p "${toolchain}/pkg/tool/linux_amd64"
  printf '#!/bin/sh\n' >"${toolchain}/pkg/tool/linux_amd64/compile"
  # Module zips keep no modes: nothing is executable, and the module cache is read-only.
  chmod -R a-wx "${toolchain}"
  find "${toolchain}" -type d -exec chmod a+x {} +
  printf '{\n\t"Path": "golang.org/toolchain",\n\t"Dir": "%s",\n\t"Sum": "h1:fake"\n}\n' \
    "${toolchain}"
  exit 0
fi
echo "fake go: unexpected arguments: $*" >&2
exit 2
FAKE
  chmod +x "${dir}/go"
}

# Runs setup.sh --with-go with only the fake go (and the system's tools) on PATH.
run_setup() {
  local case_dir="$1" version="$2"
  mkdir -p "${case_dir}/link"
  PATH="${case_dir}/link:${WORK}/fake:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin" \
    FAKE_GO_VERSION="${version}" FAKE_GO_LOG="${case_dir}/downloads" \
    KP_GO_INSTALL_DIR="${case_dir}/install" KP_GO_LINK_DIR="${case_dir}/link" \
    "${ROOT}/scripts/setup.sh" --with-go
}

main() {
  make_fake_go "${WORK}/fake"
  [[ "$(dpkg --print-architecture)" == "amd64" ]] || echo "(architecture: $(dpkg --print-architecture))"

  echo "--> a go 1.26 on PATH is kept"
  run_setup "${WORK}/new" go1.26.8 >"${WORK}/new.out" 2>&1 || fail "$(cat "${WORK}/new.out")"
  grep -q 'go already present (go1.26.8' "${WORK}/new.out" || fail "$(cat "${WORK}/new.out")"
  [[ ! -e "${WORK}/new/downloads" && ! -e "${WORK}/new/install" ]] ||
    fail "setup downloaded a toolchain although go1.26.8 was present"
  pass "go1.26.8 kept, nothing downloaded"

  local old
  for old in go1.19.8 go1.24.4; do
    echo "--> ${old} on PATH is too old: the pinned toolchain is installed and linked"
    run_setup "${WORK}/${old}" "${old}" >"${WORK}/${old}.out" 2>&1 ||
      fail "$(cat "${WORK}/${old}.out")"
    [[ "$(cat "${WORK}/${old}/downloads")" == \
      "golang.org/toolchain@v0.0.1-go1.27.3.linux-$(dpkg --print-architecture)" ]] ||
      fail "downloaded: $(cat "${WORK}/${old}/downloads" 2>/dev/null)"
    pass "asked the module proxy for golang.org/toolchain go1.27.3 once"
    [[ "$(readlink "${WORK}/${old}/link/go")" == "${WORK}/${old}/install/go1.27.3/bin/go" ]] ||
      fail "go is not linked to the installed toolchain: $(ls -l "${WORK}/${old}/link")"
    [[ "$("${WORK}/${old}/link/go" env GOVERSION)" == go1.27.3 ]] ||
      fail "the linked go does not run"
    [[ -w "${WORK}/${old}/install/go1.27.3/bin" &&
      -x "${WORK}/${old}/install/go1.27.3/pkg/tool/linux_amd64/compile" ]] ||
      fail "the installed toolchain kept the module cache's modes (read-only, not executable)"
    grep -q 'installed go1.27.3' "${WORK}/${old}.out" || fail "$(cat "${WORK}/${old}.out")"
    pass "${old} replaced: go1.27.3 installed, linked and first on PATH"
  done
  printf 'setup-go: %d passed, 0 failed\n' "${PASSED}"
}

main "$@"

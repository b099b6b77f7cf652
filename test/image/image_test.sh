#!/usr/bin/env bash
# Tests scripts/image.sh, run by scripts/test.sh's control-plane stage:
#   1. builds the image from a karpenter binary into a scratch folder, twice: the layer is the
#      same both times;
#   2. its config (skopeo inspect --config): user 65532:65532, entrypoint /karpenter with command
#      controller (what charts/karpenter runs), the OCI labels, os/architecture;
#   3. its root filesystem (umoci unpack --rootless): the binary, every shared library it loads,
#      the CA bundle, passwd/group naming 65532, and no shell;
#   4. runs the binary from that root filesystem alone (chroot, with a /proc of its own, as user
#      65532 when run as root): `controller --help` lists upstream's settings, an unknown flag
#      exits 1 with one line, and `validate` accepts the article's manifests.
# Skips (exit 0) when umoci or skopeo is missing. Environment: KP_KARPENTER (default
# build/asan/cmd/karpenter/karpenter), KP_IMAGE_TEST_KEEP=1 keeps the work folder.
set -euo pipefail
# shellcheck source=../lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly KARPENTER="${KP_KARPENTER:-${ROOT}/build/asan/cmd/karpenter/karpenter}"
readonly TAG="test"
WORK=""



cleanup() {
  if [[ -z "${WORK}" ]]; then return; fi
  if [[ "${KP_IMAGE_TEST_KEEP:-0}" == "1" ]]; then
    echo "kept ${WORK}"
  else
    rm -rf "${WORK}"
  fi
}
trap cleanup EXIT

layer_of() {
  skopeo inspect --config "oci:$1:${TAG}" | python3 -c \
    'import json, sys; print(json.load(sys.stdin)["rootfs"]["diff_ids"][0])'
}

check_build() {
  printf '\n--> build the image twice\n'
  [[ -x "${KARPENTER}" ]] || fail "no karpenter binary at ${KARPENTER} (build the asan preset)"
  local run
  for run in a b; do
    SOURCE_DATE_EPOCH=1700000000 "${ROOT}/scripts/image.sh" --binary "${KARPENTER}" \
      --out "${WORK}/${run}" --tag "${TAG}" >"${WORK}/build-${run}.log" 2>&1 ||
      fail "scripts/image.sh failed: $(tail -5 "${WORK}/build-${run}.log")"
  done
  [[ -s "${WORK}/a/karpenter-cpp-controller.tar" ]] || fail "no OCI archive written"
  pass "an OCI layout and an OCI archive, without a container daemon"
  [[ "$(layer_of "${WORK}/a/oci")" == "$(layer_of "${WORK}/b/oci")" ]] ||
    fail "two builds of the same inputs gave different layers"
  pass "the same inputs give the same layer"
}

check_config() {
  printf '\n--> the image config\n'
  skopeo inspect --config "oci:${WORK}/a/oci:${TAG}" >"${WORK}/config.json"
  local problems
  problems="$(python3 - "${WORK}/config.json" "${ROOT}" <<'PY'
import json, re, sys
image = json.load(open(sys.argv[1]))
config = image["config"]
want = {"User": "65532:65532", "Entrypoint": ["/karpenter"], "Cmd": ["controller"]}
for key, value in want.items():
    if config.get(key) != value:
        print(f"config.{key} is {config.get(key)!r}, want {value!r}")
if image.get("os") != "linux" or not image.get("architecture"):
    print(f"os/architecture {image.get('os')}/{image.get('architecture')}")
if image.get("created") != "2023-11-14T22:13:20Z":
    print(f"created {image.get('created')}, want SOURCE_DATE_EPOCH's time")
version = re.search(r"project\(karpenter_cpp VERSION ([0-9.]+)",
                    open(sys.argv[2] + "/CMakeLists.txt").read()).group(1)
labels = config.get("Labels") or {}
for key, value in {"org.opencontainers.image.title": "karpenter-cpp",
                   "org.opencontainers.image.version": version}.items():
    if labels.get(key) != value:
        print(f"label {key} is {labels.get(key)!r}, want {value!r}")
if not re.fullmatch(r"[0-9a-f]{40}|unknown", labels.get("org.opencontainers.image.revision", "")):
    print(f"label org.opencontainers.image.revision is {labels.get('org.opencontainers.image.revision')!r}")
PY
)"
  [[ -z "${problems}" ]] || fail "${problems}"
  pass "user 65532:65532, entrypoint /karpenter controller, OCI labels, created at SOURCE_DATE_EPOCH"
  local template="${ROOT}/charts/karpenter/templates/deployment.yaml"
  if ! grep -q 'command: \["/karpenter"\]' "${template}" ||
    ! grep -q 'args: \["controller"\]' "${template}"; then
    fail "charts/karpenter does not run the image's /karpenter controller"
  fi
  pass "charts/karpenter runs what the image holds"
}

check_root_filesystem() {
  printf '\n--> the root filesystem\n'
  umoci unpack --rootless --image "${WORK}/a/oci:${TAG}" "${WORK}/bundle" >/dev/null
  ROOTFS="${WORK}/bundle/rootfs"
  [[ -x "${ROOTFS}/karpenter" ]] || fail "no /karpenter"
  local lib missing=()
  while read -r lib; do
    [[ -e "${ROOTFS}${lib}" ]] || missing+=("${lib}")
  done < <(ldd "${KARPENTER}" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
  [[ "${#missing[@]}" -eq 0 ]] || fail "libraries the binary loads are missing: ${missing[*]}"
  pass "/karpenter and every shared library it loads"
  grep -q 'BEGIN CERTIFICATE' "${ROOTFS}/etc/ssl/certs/ca-certificates.crt" ||
    fail "no CA certificates"
  grep -q '^nonroot:x:65532:65532:' "${ROOTFS}/etc/passwd" || fail "/etc/passwd lacks 65532"
  grep -q '^nonroot:x:65532:' "${ROOTFS}/etc/group" || fail "/etc/group lacks 65532"
  pass "CA certificates; passwd and group name user 65532"
  [[ ! -e "${ROOTFS}/bin/sh" && ! -e "${ROOTFS}/usr/bin/sh" ]] || fail "the image has a shell"
  pass "no shell"
}

# Runs ARGS from the unpacked root filesystem alone: a mount namespace with its own /proc (the
# sanitizers of an asan binary read their options there) and a chroot, as user 65532 when this
# test runs as root, else as root of a user namespace.
in_image() {
  mkdir -p "${ROOTFS}/proc"
  if [[ "${EUID}" -eq 0 ]]; then
    unshare --mount --pid --fork --mount-proc="${ROOTFS}/proc" \
      chroot --userspec=65532:65532 "${ROOTFS}" "$@"
  else
    unshare --map-root-user --mount --pid --fork --mount-proc="${ROOTFS}/proc" \
      chroot "${ROOTFS}" "$@"
  fi
}

check_runs() {
  printf '\n--> run the binary from the image\n'
  local out rc=0
  out="$(in_image /karpenter controller --help 2>&1)" || rc=$?
  [[ "${rc}" -eq 0 ]] || fail "controller --help exited ${rc}: ${out}"
  grep -q -- '--cluster-name (CLUSTER_NAME)' <<<"${out}" || fail "controller --help: ${out}"
  pass "controller --help lists upstream's settings"
  rc=0
  out="$(in_image /karpenter controller --cluster-name=x --no-such-flag 2>&1)" || rc=$?
  [[ "${rc}" -eq 1 && "$(grep -c . <<<"${out}")" -eq 1 ]] ||
    fail "an unknown flag gave exit ${rc}: ${out}"
  pass "an unknown flag: exit 1, one line"
  mkdir -p "${ROOTFS}/tmp/article"
  cp "${ROOT}"/examples/article/*.yaml "${ROOTFS}/tmp/article/"
  local files=() file
  for file in "${ROOTFS}"/tmp/article/*.yaml; do files+=(-f "/tmp/article/${file##*/}"); done
  rc=0
  out="$(in_image /karpenter validate "${files[@]}" 2>&1)" || rc=$?
  [[ "${rc}" -eq 0 ]] || fail "validate of the article's manifests exited ${rc}: ${out}"
  pass "validate accepts the article's manifests (${out})"
}

main() {
  if ! command -v umoci >/dev/null 2>&1 || ! command -v skopeo >/dev/null 2>&1; then
    echo "image_test: skipped (umoci and skopeo are not installed)"
    exit 0
  fi
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-image-test.XXXXXX")"
  check_build
  check_config
  check_root_filesystem
  check_runs
  printf '\nimage_test: %d passed, 0 failed\n' "${PASSED}"
}

main "$@"

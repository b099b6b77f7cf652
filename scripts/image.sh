#!/usr/bin/env bash
# Builds the controller's container image without a container daemon: a distroless-like root
# filesystem (the karpenter binary, exactly the shared libraries it loads, CA certificates, and
# passwd/group entries for the non-root user 65532, no shell) made into a one-layer OCI image by
# umoci in rootless mode, and written as an OCI archive by skopeo.
#
#   scripts/image.sh [--binary PATH] [--out DIR] [--tag TAG]
#
#   --binary   the karpenter to ship (default build/release/cmd/karpenter/karpenter)
#   --out      where the OCI layout (DIR/oci) and archive (DIR/karpenter-cpp-controller.tar) go
#              (default build/image)
#   --tag      the image's tag (default the project's version, as the chart's appVersion)
#
# The image runs `/karpenter controller` as 65532:65532, which is what charts/karpenter sets.
# Push it with skopeo, e.g. `skopeo copy oci-archive:build/image/karpenter-cpp-controller.tar
# docker://REGISTRY/karpenter-cpp/controller:TAG`. File times and the creation time are
# SOURCE_DATE_EPOCH (default: the last commit's time), so the same inputs give the same layer
# and config.
# Needs umoci and skopeo (Debian packages of those names).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly USER_ID=65532
readonly CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

die() {
  printf 'image: FAILED: %s\n' "$*" >&2
  exit 1
}

project_version() {
  sed -n 's/^project(karpenter_cpp VERSION \([0-9.]*\).*/\1/p' "${ROOT}/CMakeLists.txt"
}

# Every shared object the dynamic loader maps for BINARY (and the loader itself), as host paths.
shared_objects() {
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u
}

# The root filesystem in STAGE: files only, owned by whoever runs this (umoci --rootless records
# them as root's).
stage_root() {
  local binary="$1" stage="$2" lib
  mkdir -p "${stage}/etc/ssl/certs" "${stage}/tmp"
  chmod 1777 "${stage}/tmp"
  install -m 0755 "${binary}" "${stage}/karpenter"
  strip --strip-debug "${stage}/karpenter"
  for lib in $(shared_objects "${binary}"); do
    mkdir -p "${stage}$(dirname "${lib}")"
    cp -L "${lib}" "${stage}${lib}"
  done
  [[ -s "${CA_BUNDLE}" ]] || die "no ${CA_BUNDLE} (Debian's ca-certificates package)"
  cp -L "${CA_BUNDLE}" "${stage}${CA_BUNDLE}"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%s:%s:nonroot:/home/nonroot:/sbin/nologin\n' \
    "${USER_ID}" "${USER_ID}" >"${stage}/etc/passwd"
  printf 'root:x:0:\nnonroot:x:%s:\n' "${USER_ID}" >"${stage}/etc/group"
  # glibc resolves names through these (files, then DNS: the pod's /etc/hosts and resolv.conf are
  # mounted by the kubelet).
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"${stage}/etc/nsswitch.conf"
}

main() {
  local binary="${ROOT}/build/release/cmd/karpenter/karpenter" out="${ROOT}/build/image" tag=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --binary) binary="$2" ;;
      --out) out="$2" ;;
      --tag) tag="$2" ;;
      *) die "unknown argument $1 (usage: scripts/image.sh [--binary PATH] [--out DIR] [--tag TAG])" ;;
    esac
    shift 2 || die "$1 needs a value"
  done
  if ! command -v umoci >/dev/null 2>&1 || ! command -v skopeo >/dev/null 2>&1; then
    die "umoci and skopeo are needed (apt-get install umoci skopeo)"
  fi
  [[ -x "${binary}" ]] || die "no karpenter binary at ${binary} (build it, or pass --binary)"
  local version
  version="$(project_version)"
  [[ -n "${version}" ]] || die "cannot read the project version from CMakeLists.txt"
  tag="${tag:-${version}}"
  local revision epoch
  revision="$(git -C "${ROOT}" rev-parse HEAD 2>/dev/null || echo unknown)"
  epoch="${SOURCE_DATE_EPOCH:-$(git -C "${ROOT}" log -1 --format=%ct 2>/dev/null || echo 0)}"
  local created
  created="$(date -u -d "@${epoch}" +%Y-%m-%dT%H:%M:%SZ)"

  local stage="${out}/rootfs" layout="${out}/oci"
  rm -rf "${stage}" "${layout}"
  mkdir -p "${out}"
  stage_root "${binary}" "${stage}"
  find "${stage}" -exec touch -h -d "@${epoch}" {} +

  umoci init --layout "${layout}"
  umoci new --image "${layout}:${tag}"
  umoci insert --rootless --image "${layout}:${tag}" --history.created "${created}" \
    --history.created_by "scripts/image.sh" "${stage}" /
  umoci config --image "${layout}:${tag}" --created "${created}" --history.created "${created}" \
    --os linux --architecture "$(go_architecture)" \
    --config.user "${USER_ID}:${USER_ID}" --config.entrypoint /karpenter --config.cmd controller \
    --config.workingdir / --config.env "SSL_CERT_FILE=${CA_BUNDLE}" \
    --config.label "org.opencontainers.image.title=karpenter-cpp" \
    --config.label "org.opencontainers.image.version=${version}" \
    --config.label "org.opencontainers.image.revision=${revision}" \
    --config.label "org.opencontainers.image.description=Karpenter C++ controller"
  umoci gc --layout "${layout}"
  rm -f "${out}/karpenter-cpp-controller.tar"
  skopeo copy --quiet "oci:${layout}:${tag}" "oci-archive:${out}/karpenter-cpp-controller.tar:${tag}"
  rm -rf "${stage}"
  printf '%s\n' "${layout}:${tag}" "${out}/karpenter-cpp-controller.tar"
}

# The OCI architecture name of this machine (amd64, arm64).
go_architecture() {
  case "$(uname -m)" in
    x86_64) echo amd64 ;;
    aarch64) echo arm64 ;;
    *) uname -m ;;
  esac
}

main "$@"

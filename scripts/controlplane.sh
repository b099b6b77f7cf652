#!/usr/bin/env bash
# A real Kubernetes control plane on 127.0.0.1 for tests: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler and kwok, built from the pinned Go modules under
# test/controlplane/ (test infrastructure; nothing of the product is Go).
#
#   scripts/controlplane.sh build       builds the binaries (and a kubectl of the same version)
#                                       once per pin set, prints their folder
#   scripts/controlplane.sh start DIR   builds if needed, starts everything with its state in DIR,
#                                       writes DIR/kubeconfig (admin) and DIR/env (sourceable)
#   scripts/controlplane.sh stop DIR    stops what `start DIR` started; a no-op when stopped
#   scripts/controlplane.sh restart-apiserver DIR
#                                       stops kube-apiserver alone (SIGTERM) and starts it again
#                                       with the same flags, port and etcd; waits until it is ready
#                                       (fault tests: clients must ride through the restart)
#
# Nodes: kwok manages only the Nodes annotated `kwok.x-k8s.io/node=fake` (see
# docs/controlplane.md): it makes them Ready, renews their Leases, and runs the pods bound to them.
#
# Environment:
#   KP_CACHE_DIR=~/.cache/karpenter-cpp   binaries go to $KP_CACHE_DIR/controlplane/<key>/bin,
#                                         where <key> hashes the pins and the build flags
#   KP_CONTROLPLANE_TIMEOUT=120           seconds `start` waits for the control plane to be ready
#   KP_APISERVER_EXTRA_ARGS=""            more kube-apiserver flags, split on spaces (feature
#                                         gates, fault tests)
#   KP_SCHEDULER_EXTRA_ARGS=""            more kube-scheduler flags, split on spaces (benchmarks:
#                                         "--kube-api-qps=5000 --kube-api-burst=10000" lifts its
#                                         client's 50 requests/s, as kwokctl --disable-qps-limits)
#   GOCACHE, GOMODCACHE                   the go command's own defaults unless set
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly MODULES="${ROOT}/test/controlplane"
readonly KUBE_VERSION="v1.33.13"
readonly CACHE_ROOT="${KP_CACHE_DIR:-${HOME}/.cache/karpenter-cpp}/controlplane"
readonly START_TIMEOUT="${KP_CONTROLPLANE_TIMEOUT:-120}"
# What `build` makes: the five processes `start` runs, and a kubectl of the same version (the
# machine may have none, and kubectl supports one minor version of skew only).
readonly BINARIES=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok kubectl)
# kwok manages only the Nodes carrying this annotation (its --manage-nodes-with-annotation-selector).
readonly KWOK_NODE_SELECTOR="kwok.x-k8s.io/node=fake"
# kwok's plain binary has no stages of its own (kwokctl writes them out): `build` copies these from
# the pinned kwok module, so the stages always match the binary. node-initialize makes a managed
# Node Ready, node-heartbeat-with-lease keeps its conditions and Lease fresh, pod-ready runs the
# pods bound to it, pod-complete finishes Jobs' pods and pod-delete removes deleted pods (there is
# no kubelet to do it).
readonly KWOK_STAGES=(node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease
  pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete)

log() { printf 'controlplane: %s\n' "$*" >&2; }

die() {
  printf 'controlplane: FAILED: %s\n' "$*" >&2
  exit 1
}

# The version stamp kubectl and the clients read from /version: without it the binaries report
# v0.0.0-master and kubectl's version-skew check refuses them.
version_ldflags() {
  local minor="${KUBE_VERSION#v1.}"
  minor="${minor%%.*}"
  local pkg flags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X ${pkg}.gitVersion=${KUBE_VERSION} -X ${pkg}.gitMajor=1 -X ${pkg}.gitMinor=${minor}"
    flags+=" -X ${pkg}.gitTreeState=clean"
  done
  printf '%s' "${flags}"
}

readonly GO_BUILD_FLAGS=(-mod=readonly -trimpath)

require_go() {
  command -v go >/dev/null 2>&1 ||
    die "no go command on PATH (run: scripts/setup.sh --with-go)"
}

# The cache key: every pin (go.mod and go.sum of each wrapper module), what is built, the build
# flags and the Go version, so that changing any of them builds into a new folder and never reuses
# stale binaries.
cache_key() {
  {
    local module
    for module in etcd kubernetes kwok; do
      cat "${MODULES}/${module}/go.mod" "${MODULES}/${module}/go.sum"
    done
    printf '%s\n' "${BINARIES[*]}" "${KWOK_STAGES[*]}" "${GO_BUILD_FLAGS[*]}" \
      "$(version_ldflags)" "CGO_ENABLED=0"
    go env GOVERSION GOOS GOARCH
  } | sha256sum | cut -c1-16
}

bin_dir() {
  printf '%s/%s/bin' "${CACHE_ROOT}" "$(cache_key)"
}

have_binaries() {
  local dir="$1" name
  for name in "${BINARIES[@]}"; do
    [[ -x "${dir}/${name}" ]] || return 1
  done
  [[ -s "${dir}/kwok-stages.yaml" ]]
}

# Concatenates KWOK_STAGES from the pinned kwok module (in the module cache) into one file.
write_kwok_stages() {
  local out="$1" dir stage
  dir="$(cd "${MODULES}/kwok" && go list -mod=readonly -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
  for stage in "${KWOK_STAGES[@]}"; do
    printf -- '---\n'
    cat "${dir}/kustomize/stage/${stage}.yaml"
  done >"${out}"
}

# go build in one wrapper module, niced: the machine's two cores are shared with C++ builds. OUT
# is a file for one package, or a folder ending in / for several.
go_build() {
  local module="$1" out="$2"
  shift 2
  (
    cd "${MODULES}/${module}"
    CGO_ENABLED=0 nice -n 10 go build "${GO_BUILD_FLAGS[@]}" -ldflags "$(version_ldflags)" \
      -o "${out}" "$@"
  )
}

cmd_build() {
  require_go
  local dir
  dir="$(bin_dir)"
  if have_binaries "${dir}"; then
    printf '%s\n' "${dir}"
    return
  fi
  mkdir -p "${CACHE_ROOT}"
  # One build at a time per cache folder; a second caller waits, then finds the binaries.
  exec 9>"${CACHE_ROOT}/.build.lock"
  flock 9
  if have_binaries "${dir}"; then
    exec 9>&-
    printf '%s\n' "${dir}"
    return
  fi
  local staging="${dir}.partial.$$"
  rm -rf "${staging}"
  mkdir -p "${staging}"
  # shellcheck disable=SC2064  # expand now: the staging folder is fixed for this build
  trap "rm -rf '${staging}'" EXIT
  local started="${SECONDS}"
  log "building ${BINARIES[*]} into ${dir} (Kubernetes ${KUBE_VERSION}; a cold build takes minutes)"
  go_build etcd "${staging}/etcd" go.etcd.io/etcd/server/v3
  go_build kubernetes "${staging}/" k8s.io/kubernetes/cmd/kube-apiserver \
    k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler \
    k8s.io/kubernetes/cmd/kubectl
  go_build kwok "${staging}/kwok" sigs.k8s.io/kwok/cmd/kwok
  write_kwok_stages "${staging}/kwok-stages.yaml"
  have_binaries "${staging}" || die "the build did not produce every binary in ${staging}"
  rm -rf "${dir}"
  mv "${staging}" "${dir}"
  trap - EXIT
  exec 9>&-
  log "built in $((SECONDS - started))s"
  printf '%s\n' "${dir}"
}

# --- start / stop -------------------------------------------------------------------------------

# N free TCP ports on 127.0.0.1, held open together while they are chosen so they differ.
free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
held = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    held.append(s)
print(" ".join(str(s.getsockname()[1]) for s in held))
PY
}

# Signs a certificate with the test CA: PKI NAME CN ORG SAN EXTENDED_KEY_USAGE (ORG and SAN may
# be empty).
issue_cert() {
  local pki="$1" name="$2" cn="$3" org="$4" san="$5" usage="$6"
  local subject="/CN=${cn}"
  [[ -z "${org}" ]] || subject="/O=${org}${subject}"
  openssl ecparam -name prime256v1 -genkey -noout -out "${pki}/${name}.key" 2>/dev/null
  openssl req -new -key "${pki}/${name}.key" -subj "${subject}" -out "${pki}/${name}.csr" \
    2>/dev/null
  {
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=${usage}"
    [[ -z "${san}" ]] || echo "subjectAltName=${san}"
  } >"${pki}/${name}.ext"
  openssl x509 -req -in "${pki}/${name}.csr" -CA "${pki}/ca.crt" -CAkey "${pki}/ca.key" \
    -CAcreateserial -days 365 -sha256 -extfile "${pki}/${name}.ext" \
    -out "${pki}/${name}.crt" 2>/dev/null
  rm -f "${pki}/${name}.csr" "${pki}/${name}.ext"
}

# The CA, the API server's serving certificate, the admin's client certificate (group
# system:masters), a static admin token and the service-account signing key pair.
make_pki() {
  local pki="$1"
  mkdir -p "${pki}"
  chmod 700 "${pki}"
  openssl ecparam -name prime256v1 -genkey -noout -out "${pki}/ca.key" 2>/dev/null
  openssl req -x509 -new -key "${pki}/ca.key" -subj "/CN=karpenter-cpp-test-ca" -days 365 \
    -sha256 -out "${pki}/ca.crt" 2>/dev/null
  local names="DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
  issue_cert "${pki}" apiserver kube-apiserver "" "IP:127.0.0.1,${names}" serverAuth
  issue_cert "${pki}" admin kp-admin system:masters "" clientAuth
  openssl ecparam -name prime256v1 -genkey -noout -out "${pki}/sa.key" 2>/dev/null
  openssl ec -in "${pki}/sa.key" -pubout -out "${pki}/sa.pub" 2>/dev/null
  openssl rand -hex 24 >"${pki}/admin.token"
  printf '%s,kp-admin-token,kp-admin-token,"system:masters"\n' "$(cat "${pki}/admin.token")" \
    >"${pki}/tokens.csv"
}

b64() { base64 -w0 <"$1"; }

# The admin kubeconfig: context `admin` (client certificate, the default) and `admin-token`
# (bearer token), both in group system:masters, with every file's contents embedded.
write_kubeconfig() {
  local dir="$1" url="$2" pki="$1/pki"
  (
    umask 077
    cat >"${dir}/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: karpenter-cpp-test
  cluster:
    server: ${url}
    certificate-authority-data: $(b64 "${pki}/ca.crt")
users:
- name: admin
  user:
    client-certificate-data: $(b64 "${pki}/admin.crt")
    client-key-data: $(b64 "${pki}/admin.key")
- name: admin-token
  user:
    token: $(cat "${pki}/admin.token")
contexts:
- name: admin
  context: {cluster: karpenter-cpp-test, user: admin, namespace: default}
- name: admin-token
  context: {cluster: karpenter-cpp-test, user: admin-token, namespace: default}
current-context: admin
KUBECONFIG
  )
}

# Starts one component in the background, logging to DIR/logs/NAME.log, and records its PID and
# binary in DIR/pids.
launch() {
  local dir="$1" name="$2" exe
  shift 2
  exe="$(readlink -f "$1")"
  "$@" >"${dir}/logs/${name}.log" 2>&1 </dev/null &
  local pid=$! tries=0
  printf '%s %s %s\n' "${name}" "${pid}" "${exe}" >>"${dir}/pids"
  # The forked shell becomes the binary a moment later: wait for that, so that live_pid does not
  # take the moment before for an exit.
  while [[ "$(readlink "/proc/${pid}/exe" 2>/dev/null)" != "${exe}" ]] && ((tries < 50)); do
    kill -0 "${pid}" 2>/dev/null || break
    sleep 0.1
    tries=$((tries + 1))
  done
}

# PID of a component from DIR/pids, only while that PID still runs the binary we started: a PID
# reused by an unrelated process after ours exited is never signalled.
live_pid() {
  local dir="$1" want="$2" name pid exe
  [[ -f "${dir}/pids" ]] || return 1
  while read -r name pid exe; do
    [[ "${name}" == "${want}" ]] || continue
    local running
    running="$(readlink "/proc/${pid}/exe" 2>/dev/null)" || return 1
    [[ "${running% (deleted)}" == "${exe}" ]] || return 1
    [[ "$(ps -o stat= -p "${pid}" 2>/dev/null)" != Z* ]] || return 1
    printf '%s\n' "${pid}"
    return 0
  done <"${dir}/pids"
  return 1
}

# True while PID is a live process. One `ps` answers both questions: a process that exits between
# a `kill -0` and a `ps` leaves `ps` empty, which is not running either (nor is a zombie).
pid_running() {
  local stat
  stat="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
  [[ -n "${stat}" && "${stat}" != Z* ]]
}

cmd_stop() {
  local dir="$1"
  [[ -f "${dir}/pids" ]] || return 0
  local names=() name pid exe
  while read -r name pid exe; do
    names+=("${name}")
  done <"${dir}/pids"
  # Reverse start order: clients first, etcd last.
  local i pids=()
  for ((i = ${#names[@]} - 1; i >= 0; i--)); do
    if pid="$(live_pid "${dir}" "${names[i]}")"; then
      kill -TERM "${pid}" 2>/dev/null || true
      pids+=("${pid}")
    fi
  done
  local deadline=$((SECONDS + 15))
  for pid in "${pids[@]}"; do
    while pid_running "${pid}"; do
      if ((SECONDS >= deadline)); then
        kill -KILL "${pid}" 2>/dev/null || true
        # SIGKILL is not instant either: give the kernel a moment to take it away.
        local killed_by=$((SECONDS + 5))
        while pid_running "${pid}" && ((SECONDS < killed_by)); do sleep 0.1; done
        break
      fi
      sleep 0.2
    done
  done
  rm -f "${dir}/pids"
  [[ ${#pids[@]} -eq 0 ]] || log "stopped ${#pids[@]} process(es) of ${dir}"
}

# Prints the first component that is no longer running, if any.
dead_component() {
  local dir="$1" name pid exe
  while read -r name pid exe; do
    if ! live_pid "${dir}" "${name}" >/dev/null; then
      printf '%s\n' "${name}"
      return 0
    fi
  done <"${dir}/pids"
  return 1
}

fail_start() {
  local dir="$1" component="$2" why="$3"
  printf 'controlplane: %s %s; last lines of %s:\n' "${component}" "${why}" \
    "${dir}/logs/${component}.log" >&2
  tail -n 40 "${dir}/logs/${component}.log" >&2 || true
  die "the control plane in ${dir} did not start (${component} ${why})"
}

# Waits until the command after DEADLINE succeeds; fails naming the component that exited, or
# COMPONENT when the deadline passes first.
wait_for() {
  local dir="$1" component="$2" deadline="$3"
  shift 3
  local dead
  until "$@" >/dev/null 2>&1; do
    if dead="$(dead_component "${dir}")"; then
      fail_start "${dir}" "${dead}" "exited"
    fi
    if ((SECONDS >= deadline)); then
      fail_start "${dir}" "${component}" "was not ready within ${START_TIMEOUT}s"
    fi
    sleep 0.5
  done
}

etcd_healthy() { curl -fsS --max-time 2 "http://127.0.0.1:$1/health"; }
https_healthy() { curl -kfsS --max-time 2 "https://127.0.0.1:$1/healthz"; }
http_ready() { curl -fsS --max-time 2 "http://127.0.0.1:$1/readyz"; }
apiserver_ready() { "${KUBECTL}" --kubeconfig "$1/kubeconfig" get --raw /readyz; }
default_sa_exists() { "${KUBECTL}" --kubeconfig "$1/kubeconfig" -n default get serviceaccount default; }

write_env() {
  local dir="$1" url="$2" bin="$3" name pid
  {
    printf 'export KUBECONFIG=%q\n' "${dir}/kubeconfig"
    printf 'export KP_CONTROLPLANE_DIR=%q\n' "${dir}"
    printf 'export KP_APISERVER_URL=%q\n' "${url}"
    printf 'export KP_CONTROLPLANE_BIN=%q\n' "${bin}"
    printf 'export KP_KUBECTL=%q\n' "${bin}/kubectl"
    printf 'export KP_ADMIN_TOKEN=%q\n' "$(cat "${dir}/pki/admin.token")"
    printf 'export KP_KWOK_NODE_ANNOTATION=%q\n' "${KWOK_NODE_SELECTOR}"
    while read -r name pid _; do
      name="${name//-/_}"
      printf 'export KP_%s_PID=%q\n' "${name^^}" "${pid}"
    done <"${dir}/pids"
  } >"${dir}/env"
}

launch_etcd() {
  local dir="$1" bin="$2" port="$3" peer_port="$4"
  launch "${dir}" etcd "${bin}/etcd" --name=default --data-dir="${dir}/etcd" \
    --listen-client-urls="http://127.0.0.1:${port}" \
    --advertise-client-urls="http://127.0.0.1:${port}" \
    --listen-peer-urls="http://127.0.0.1:${peer_port}" \
    --initial-advertise-peer-urls="http://127.0.0.1:${peer_port}" \
    --initial-cluster="default=http://127.0.0.1:${peer_port}" \
    --unsafe-no-fsync=true --log-level=warn
}

launch_apiserver() {
  local dir="$1" bin="$2" port="$3" etcd_port="$4" pki="$1/pki" extra=()
  read -r -a extra <<<"${KP_APISERVER_EXTRA_ARGS:-}"
  launch "${dir}" kube-apiserver "${bin}/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:${etcd_port}" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="${port}" \
    --cert-dir="${dir}/state" \
    --tls-cert-file="${pki}/apiserver.crt" --tls-private-key-file="${pki}/apiserver.key" \
    --client-ca-file="${pki}/ca.crt" --token-auth-file="${pki}/tokens.csv" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="${pki}/sa.pub" \
    --service-account-signing-key-file="${pki}/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 --allow-privileged=true --profiling=false \
    ${extra[@]+"${extra[@]}"}
}

# kube-controller-manager, kube-scheduler and kwok, all as the admin: PORTS are the controller
# manager's, the scheduler's and kwok's.
launch_clients() {
  local dir="$1" bin="$2" kcm_port="$3" sched_port="$4" kwok_port="$5" pki="$1/pki"
  local kubeconfig="${dir}/kubeconfig" scheduler_extra=()
  read -r -a scheduler_extra <<<"${KP_SCHEDULER_EXTRA_ARGS:-}"
  local delegated=(--kubeconfig="${kubeconfig}" --authentication-kubeconfig="${kubeconfig}"
    --authorization-kubeconfig="${kubeconfig}" --bind-address=127.0.0.1 --leader-elect=false
    --profiling=false)
  # The service-account controllers (default accounts, tokens) need the signing key and root CA;
  # the disruption controller (PodDisruptionBudget status, needed by evictions) runs by default.
  launch "${dir}" kube-controller-manager "${bin}/kube-controller-manager" "${delegated[@]}" \
    --secure-port="${kcm_port}" --cert-dir="${dir}/state" \
    --use-service-account-credentials=false \
    --service-account-private-key-file="${pki}/sa.key" --root-ca-file="${pki}/ca.crt" \
    --cluster-signing-cert-file="${pki}/ca.crt" --cluster-signing-key-file="${pki}/ca.key"
  launch "${dir}" kube-scheduler "${bin}/kube-scheduler" "${delegated[@]}" \
    --secure-port="${sched_port}" ${scheduler_extra[@]+"${scheduler_extra[@]}"}
  launch "${dir}" kwok "${bin}/kwok" --kubeconfig="${kubeconfig}" \
    --config="${bin}/kwok-stages.yaml" \
    --manage-all-nodes=false --manage-nodes-with-annotation-selector="${KWOK_NODE_SELECTOR}" \
    --node-lease-duration-seconds=40 --server-address="127.0.0.1:${kwok_port}"
}

cmd_start() {
  local dir="$1"
  command -v openssl >/dev/null || die "openssl is needed to make the certificates"
  command -v curl >/dev/null || die "curl is needed on PATH"
  mkdir -p "${dir}"
  dir="$(cd "${dir}" && pwd)"
  local bin
  bin="$(cmd_build)"
  KUBECTL="${bin}/kubectl"
  # Starting again in the same folder replaces what ran there: each start is a fresh, empty cluster.
  cmd_stop "${dir}"
  rm -rf "${dir}/etcd" "${dir}/pki" "${dir}/logs" "${dir}/state" "${dir}/env" "${dir}/kubeconfig"
  mkdir -p "${dir}/logs" "${dir}/state"
  : >"${dir}/pids"
  # From here on, a failure or an interrupt stops whatever was started.
  # shellcheck disable=SC2064  # expand now: the folder is fixed for this start
  trap "cmd_stop '${dir}'" EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  local started="${SECONDS}" deadline=$((SECONDS + START_TIMEOUT))

  local etcd_port etcd_peer_port api_port kcm_port sched_port kwok_port
  read -r etcd_port etcd_peer_port api_port kcm_port sched_port kwok_port <<<"$(free_ports 6)"
  make_pki "${dir}/pki"
  local url="https://127.0.0.1:${api_port}"
  write_kubeconfig "${dir}" "${url}"

  launch_etcd "${dir}" "${bin}" "${etcd_port}" "${etcd_peer_port}"
  wait_for "${dir}" etcd "${deadline}" etcd_healthy "${etcd_port}"
  launch_apiserver "${dir}" "${bin}" "${api_port}" "${etcd_port}"
  wait_for "${dir}" kube-apiserver "${deadline}" apiserver_ready "${dir}"
  launch_clients "${dir}" "${bin}" "${kcm_port}" "${sched_port}" "${kwok_port}"
  wait_for "${dir}" kube-controller-manager "${deadline}" https_healthy "${kcm_port}"
  wait_for "${dir}" kube-scheduler "${deadline}" https_healthy "${sched_port}"
  wait_for "${dir}" kwok "${deadline}" http_ready "${kwok_port}"
  wait_for "${dir}" kube-controller-manager "${deadline}" default_sa_exists "${dir}"

  write_env "${dir}" "${url}" "${bin}"
  trap - EXIT INT TERM
  log "ready in $((SECONDS - started))s at ${url} (source ${dir}/env for KUBECONFIG and the PIDs)"
}

# The kube-apiserver of DIR, stopped and started again with the command line it ran: same
# port, certificates and etcd, so that clients and their watches just reconnect. Its log goes on
# in the same file.
cmd_restart_apiserver() {
  local dir="$1" pid
  pid="$(live_pid "${dir}" kube-apiserver)" || die "no kube-apiserver of ${dir} is running"
  local argv=()
  mapfile -d '' argv <"/proc/${pid}/cmdline"
  KUBECTL="$(dirname "${argv[0]}")/kubectl"
  local started="${SECONDS}"
  kill -TERM "${pid}"
  # Its graceful shutdown waits up to a minute for open watches to end; 2 s of it closes the
  # listener and the short requests, as a rolled API server replica would.
  local deadline=$((SECONDS + 2))
  while pid_running "${pid}" && ((SECONDS < deadline)); do sleep 0.1; done
  kill -KILL "${pid}" 2>/dev/null || true
  while pid_running "${pid}"; do sleep 0.1; done
  mv "${dir}/logs/kube-apiserver.log" "${dir}/logs/kube-apiserver.before-restart.log"
  # The pids line of the old process goes; launch appends the new one.
  awk '$1 != "kube-apiserver"' "${dir}/pids" >"${dir}/pids.new"
  mv "${dir}/pids.new" "${dir}/pids"
  launch "${dir}" kube-apiserver "${argv[@]}"
  wait_for "${dir}" kube-apiserver $((SECONDS + START_TIMEOUT)) apiserver_ready "${dir}"
  pid="$(live_pid "${dir}" kube-apiserver)"
  sed -i "s/^export KP_KUBE_APISERVER_PID=.*/export KP_KUBE_APISERVER_PID=${pid}/" "${dir}/env"
  log "kube-apiserver of ${dir} restarted in $((SECONDS - started))s (pid ${pid})"
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

main() {
  [[ $# -ge 1 ]] || usage
  local command="$1"
  shift
  case "${command}" in
    build) [[ $# -eq 0 ]] || usage; cmd_build ;;
    start) [[ $# -eq 1 ]] || usage; cmd_start "$1" ;;
    stop) [[ $# -eq 1 ]] || usage; cmd_stop "$1" ;;
    restart-apiserver) [[ $# -eq 1 ]] || usage; cmd_restart_apiserver "$1" ;;
    *) usage ;;
  esac
}

main "$@"

#!/usr/bin/env bash
# Smoke test of the test control plane (scripts/controlplane.sh), run by scripts/test.sh:
#   1. a start whose kube-apiserver cannot run fails, prints its log and leaves no process behind;
#   2. start; the API server reports the stamped version and the default service account exists;
#   3. a kwok-managed Node becomes Ready and runs a 3-pod Deployment that kube-scheduler binds;
#   4. `kubectl drain` with a PodDisruptionBudget (minAvailable 2) evicts one pod and no more
#      while the evicted pod cannot reschedule, then finishes once a second Node takes the pods;
#   5. stop (twice) leaves no process of the control plane running.
# Exits non-zero on the first failed check. Timeouts here bound waits; nothing asserts a timing.
set -euo pipefail
# shellcheck source=../lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly CP="${ROOT}/scripts/controlplane.sh"
readonly KUBE_VERSION="v1.33.13"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-controlplane-smoke.XXXXXX")"
readonly WORK
readonly DIR="${WORK}/cluster"
readonly ANNOTATION_KEY="kwok.x-k8s.io/node"
KUBECTL=""  # the kubectl `build` made, from DIR/env

cleanup() {
  "${CP}" stop "${DIR}" >/dev/null 2>&1 || true
  "${CP}" stop "${WORK}/broken" >/dev/null 2>&1 || true
  rm -rf "${WORK}"
}
trap cleanup EXIT



on_failure() {
  if [[ -d "${DIR}/logs" ]]; then
    printf '  (control plane logs in %s/logs; kept: the work folder is not removed)\n' "${DIR}" >&2
    trap '"${CP}" stop "${DIR}" >/dev/null 2>&1 || true' EXIT
  fi
}

k() { "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" "$@"; }

# Processes whose command line names FOLDER (every component is started with its state there).
processes_of() {
  local folder="$1"
  ps -eo pid=,stat=,args= | awk -v d="${folder}/" 'index($0, d) && $2 !~ /^Z/' |
    grep -v -e 'awk -v d=' -e 'ps -eo' || true
}

# Polls COMMAND until it prints EXPECTED, for at most SECONDS.

check_failed_start_cleans_up() {
  step "a start whose kube-apiserver exits fails and stops etcd"
  local out rc=0
  out="$(KP_APISERVER_EXTRA_ARGS="--no-such-flag-for-the-smoke-test" KP_CONTROLPLANE_TIMEOUT=60 \
    "${CP}" start "${WORK}/broken" 2>&1)" || rc=$?
  [[ "${rc}" -ne 0 ]] || fail "start succeeded with an invalid kube-apiserver flag"
  pass "start exited ${rc}"
  grep -q 'kube-apiserver exited' <<<"${out}" || fail "start did not name kube-apiserver: ${out}"
  grep -q 'no-such-flag-for-the-smoke-test' <<<"${out}" ||
    fail "start did not print the tail of kube-apiserver's log: ${out}"
  pass "start named the failing component and printed its log"
  [[ -z "$(processes_of "${WORK}/broken")" ]] ||
    fail "processes left after a failed start: $(processes_of "${WORK}/broken")"
  pass "no process left behind"
}

check_started() {
  step "start"
  "${CP}" start "${DIR}"
  [[ -s "${DIR}/kubeconfig" && -s "${DIR}/env" ]] || fail "start wrote no kubeconfig or env"
  # shellcheck disable=SC1091  # written by start
  KUBECTL="$(source "${DIR}/env" && printf '%s' "${KP_KUBECTL}")"
  # shellcheck disable=SC1091
  (source "${DIR}/env" && "${KP_KUBECTL}" get --raw /readyz >/dev/null) ||
    fail "DIR/env does not point kubectl at a ready API server"
  pass "DIR/env's KUBECONFIG reaches a ready API server"
  local version
  version="$(k version -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')"
  [[ "${version}" == "${KUBE_VERSION}" ]] || fail "server version ${version}, want ${KUBE_VERSION}"
  pass "server version ${version}"
  k -n default get serviceaccount default >/dev/null || fail "no default service account"
  k --context admin-token auth can-i '*' '*' --all-namespaces | grep -qx yes ||
    fail "the admin-token context cannot do everything"
  pass "default service account exists; the token context is an admin"
}

apply_node() {
  local name="$1"
  k apply -f - <<YAML
apiVersion: v1
kind: Node
metadata:
  name: ${name}
  annotations:
    ${ANNOTATION_KEY}: fake
  labels:
    kubernetes.io/hostname: ${name}
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    type: kwok
spec: {}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
YAML
}

lease_renewed() {
  k -n kube-node-lease get lease "$1" -o jsonpath='{.spec.renewTime}'
}

node_ready() {
  k get node "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}'
}

# "<running on NODE> <not running>" for the pods of the web Deployment.
pods_on() {
  k get pods -l app=web -o json | python3 -c '
import json, sys
pods = [p for p in json.load(sys.stdin)["items"] if not p["metadata"].get("deletionTimestamp")]
on = sum(1 for p in pods
         if p["status"].get("phase") == "Running" and p["spec"].get("nodeName") == sys.argv[1])
print(on, len(pods) - on)' "$1"
}

check_pods_run_on_kwok_node() {
  step "a kwok Node runs a Deployment of 3 pods guarded by a PDB (minAvailable 2)"
  apply_node kwok-a
  wait_until 60 True node_ready kwok-a || fail "Node kwok-a never became Ready"
  pass "kwok made Node kwok-a Ready"
  local renewed
  renewed="$(lease_renewed kwok-a)"
  [[ -n "${renewed}" ]] || fail "kwok-a has no Lease"
  # kwok renews every quarter of the 40 s lease: wait for one renewal.
  local deadline=$((SECONDS + 45))
  while [[ "$(lease_renewed kwok-a)" == "${renewed}" ]]; do
    ((SECONDS < deadline)) || fail "kwok-a's Lease was not renewed after ${renewed}"
    sleep 1
  done
  pass "kwok renews kwok-a's Lease (heartbeat)"
  k apply -f - <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 0
      containers:
      - name: web
        image: registry.invalid/web:1
        resources: {requests: {cpu: 100m, memory: 64Mi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
YAML
  wait_until 90 "3 0" pods_on kwok-a || fail "the 3 pods did not run on kwok-a"
  pass "kube-scheduler bound 3 pods to kwok-a and kwok runs them"
  wait_until 60 1 k get pdb web -o jsonpath='{.status.disruptionsAllowed}' ||
    fail "the PDB never allowed exactly one disruption"
  pass "the PDB allows 1 disruption"
}

check_drain_honours_pdb() {
  step "drain kwok-a while the pods cannot go anywhere: the PDB stops it after one eviction"
  local out rc=0
  out="$(k drain kwok-a --ignore-daemonsets --delete-emptydir-data --timeout=25s 2>&1)" || rc=$?
  [[ "${rc}" -ne 0 ]] || fail "drain evicted every pod although the PDB allows one: ${out}"
  pass "drain gave up (exit ${rc})"
  grep -q 'disruption budget' <<<"${out}" ||
    fail "drain was never refused by the disruption budget: ${out}"
  pass "evictions past the budget were refused"
  # One eviction was allowed; its replacement is Pending (the only Node is cordoned).
  [[ "$(pods_on kwok-a)" == "2 1" ]] ||
    fail "want 2 pods running on kwok-a and 1 pending, got $(pods_on kwok-a)"
  pass "2 pods still run on kwok-a, the evicted one's replacement is pending"
  [[ "$(k get node kwok-a -o jsonpath='{.spec.unschedulable}')" == "true" ]] ||
    fail "drain did not cordon kwok-a"

  step "a second kwok Node takes the pods: the drain finishes within the budget"
  apply_node kwok-b
  wait_until 60 True node_ready kwok-b || fail "Node kwok-b never became Ready"
  k drain kwok-a --ignore-daemonsets --delete-emptydir-data --timeout=120s >/dev/null 2>&1 ||
    fail "the second drain did not finish"
  wait_until 60 "3 0" pods_on kwok-b || fail "the pods did not all move to kwok-b"
  pass "all 3 pods run on kwok-b and kwok-a is drained"
}

check_stopped() {
  step "stop"
  local pids
  pids="$(sed -n 's/^export KP_.*_PID=//p' "${DIR}/env" | tr '\n' ' ')"
  "${CP}" stop "${DIR}"
  "${CP}" stop "${DIR}" || fail "a second stop failed"
  pass "stop is idempotent"
  local pid
  for pid in ${pids}; do
    # One `ps` decides: a zombie (not yet reaped by its new parent) is not running, and neither is
    # a process reaped between two checks (CI once failed on exactly that race, with `ps` empty).
    local seen
    seen="$(ps -o stat=,pid=,args= -p "${pid}" 2>/dev/null)" || true
    if [[ -n "${seen}" && "${seen}" != Z* ]]; then
      fail "process ${pid} is still running after stop: ${seen}"
    fi
  done
  [[ -z "$(processes_of "${DIR}")" ]] || fail "processes left after stop: $(processes_of "${DIR}")"
  pass "no process of the control plane is left (${pids% })"
}

main() {
  check_failed_start_cleans_up
  check_started
  check_pods_run_on_kwok_node
  check_drain_honours_pdb
  check_stopped
  printf '\nsmoke: %d passed, 0 failed\n' "${PASSED}"
}

main "$@"

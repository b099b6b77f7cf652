#!/usr/bin/env bash
# Benchmark (not a test: it reports figures and asserts no timing) of `karpenter controller` under
# a burst of pending pods, issue #25: on the test control plane (scripts/controlplane.sh) with moto
# as AWS, the article's EC2NodeClass and NodePool (examples/article/, verbatim), and KP_PODS
# (1,000) pods of the article's workload-sample shape (500m / 512Mi, zone spread ScheduleAnyway)
# created at once. It waits until every pod is Running and prints:
#   - pod pending → Running p50 / p95 / max, time from the first creation to the last Running;
#   - the controller's peak RSS (VmHWM) and CPU seconds (utime + stime) over the burst, from /proc;
#   - Nodes launched and NodeClaims created, against `karpenter plan` on the burst's snapshot
#     (the cluster's Nodes, NodePools and EC2NodeClasses just before, the pods as created);
#   - CreateFleet calls (moto keeps every fleet) and when the controller's phases happened.
# The goals it is read against (issue #25): all Running within 30 s of creation, peak RSS
# ≤ 100 MB, CPU ≤ 20 s, nodes ≤ plan's; upstream's KWOK gate is 1,000 pods in 2 min, < 260 MB.
#
#   bench/controller_burst.sh      (needs the release build: cmake --preset release &&
#                                   cmake --build build/release --target karpenter)
# Environment: KP_KARPENTER (default build/release/cmd/karpenter/karpenter), KP_PODS (1000),
# KP_BURST_TIMEOUT (300 s for all to run), KP_E2E_KEEP=1 keeps the work folder, KP_CONTROLLER_ENV
# (controller settings, e.g. "LOG_LEVEL=debug"). Not run by scripts/test.sh. docs/benchmarks.md
# has the figures measured so far.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly HERE="${ROOT}/test/controlplane"
# shellcheck source=../test/lib/checks.sh
source "${ROOT}/test/lib/checks.sh"
# shellcheck source=../test/controlplane/e2e_lib.sh
source "${HERE}/e2e_lib.sh"

readonly CP="${ROOT}/scripts/controlplane.sh"
KARPENTER="$(realpath "${KP_KARPENTER:-${ROOT}/build/release/cmd/karpenter/karpenter}")"
readonly KARPENTER
readonly PODS="${KP_PODS:-1000}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-bench-burst.XXXXXX")"
readonly WORK
readonly DIR="${WORK}/cluster"
trap cleanup EXIT

on_failure() {
  printf '  (logs kept in %s)\n' "${WORK}" >&2
  tail -n 20 "${WORK}/controller.log" >&2 || true
  trap 'KP_E2E_KEEP=1 cleanup >/dev/null' EXIT
}

# "CPU_TICKS VMHWM_KB" of the controller process.
controller_usage() {
  printf '%s %s\n' "$(awk '{print $14 + $15}' "/proc/${CONTROLLER_PID}/stat")" \
    "$(awk '/^VmHWM:/ {print $2}' "/proc/${CONTROLLER_PID}/status")"
}

apply_article_nodepool() {
  step "the article's EC2NodeClass and NodePool (verbatim); both Ready"
  k apply -f "${ROOT}/examples/article/ec2nodeclass.yaml" >/dev/null
  k apply -f "${ROOT}/examples/article/nodepool.yaml" >/dev/null
  wait_until 60 True k get ec2nodeclass default \
    -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' ||
    fail "the EC2NodeClass never became Ready"
  wait_until 60 True k get nodepool default \
    -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' ||
    fail "the NodePool never became Ready"
  pass "EC2NodeClass and NodePool Ready"
}

# The controller's CPU ticks, sampled once a second, must stop rising before the burst, so that
# start-up work (catalog, AMIs, the NodeClass) is not charged to it.
wait_controller_idle() {
  local before after tries=0
  before="$(controller_usage | awk '{print $1}')"
  while ((tries < 30)); do
    sleep 2
    after="$(controller_usage | awk '{print $1}')"
    ((after - before <= 2)) && return 0
    before="${after}"
    tries=$((tries + 1))
  done
  fail "the controller never went idle before the burst"
}

# Seconds after START (epoch seconds) of the controller log line MESSAGE: first and last.
log_span() {
  python3 - "${WORK}/controller.log" "$1" "$2" <<'PY'
import datetime, json, sys
start, message = float(sys.argv[2]), sys.argv[3]
times = []
for line in open(sys.argv[1]):
    try:
        entry = json.loads(line)
    except ValueError:
        continue
    if entry.get("message") == message:
        stamp = entry["time"].replace("Z", "+00:00")
        times.append(datetime.datetime.fromisoformat(stamp).timestamp() - start)
print(f"{len(times)} at +{min(times):.1f}..+{max(times):.1f} s" if times else "0")
PY
}

figure() { printf '  %-44s %s\n' "$1" "$2"; }

# Seconds after START of the creationTimestamps of the KIND objects (1 s resolution).
created_span() {
  k get "$2" -o json | python3 -c '
import datetime, json, sys
start = float(sys.argv[1])
times = [datetime.datetime.fromisoformat(item["metadata"]["creationTimestamp"].replace("Z", "+00:00"))
         .timestamp() - start for item in json.load(sys.stdin)["items"]]
print(f"{len(times)} at +{min(times):.0f}..+{max(times):.0f} s" if times else "0")' "$1"
}

main() {
  if ! python3 -c 'import moto, boto3' 2>/dev/null; then
    echo "controller_burst: needs python3 with moto and boto3" >&2
    exit 1
  fi
  [[ -x "${KARPENTER}" ]] || fail "no karpenter binary at ${KARPENTER} (build the release preset)"
  start_control_plane
  step "karpenter controller ($(realpath --relative-to="${ROOT}" "${KARPENTER}")) and the node agent"
  # shellcheck disable=SC2086  # KP_CONTROLLER_ENV is split into settings on purpose
  launch_controller controller "${DIR}/kubeconfig" "${AWS_URL}" ${KP_CONTROLLER_ENV:-}
  CONTROLLER_PID="${LAUNCHED_PID}"
  start_node_agent
  pass "controller pid ${CONTROLLER_PID}, metrics on ${METRICS_PORT}"
  apply_article_nodepool
  k get nodes,nodepools,ec2nodeclasses -o json >"${WORK}/snapshot-cluster.json"
  wait_controller_idle
  local ticks_before hwm_idle
  read -r ticks_before hwm_idle < <(controller_usage)

  step "${PODS} pods of workload-sample's shape created at once; waiting for all Running"
  local started all_ran=1
  started="$(date +%s.%N)"
  python3 "${ROOT}/bench/controller_burst.py" burst --cluster "${DIR}" --count "${PODS}" \
    --out "${WORK}" --timeout "${KP_BURST_TIMEOUT:-300}" | tee "${WORK}/burst.txt" || all_ran=0
  local ticks_after hwm_after
  read -r ticks_after hwm_after < <(controller_usage)
  local load
  load="$(cut -d' ' -f1-3 /proc/loadavg)"

  step "figures"
  local plan_nodes nodes claims fleets created_metric
  plan_nodes="$("${KARPENTER}" plan -f "${WORK}/snapshot-cluster.json" -f "${WORK}/pods.json" \
    -o json 2>"${WORK}/plan.err" | python3 -c 'import json, sys
print(json.load(sys.stdin)["summary"]["newNodeClaims"])')" || fail "plan: $(cat "${WORK}/plan.err")"
  nodes="$(k get nodes -l karpenter.sh/nodepool=default -o name | wc -l)"
  claims="$(k get nodeclaims -o name | wc -l)"
  fleets="$(aws fleets | wc -l)"
  created_metric="$(curl -sf "http://127.0.0.1:${METRICS_PORT}/metrics" |
    awk '/^karpenter_nodeclaims_created_total/ {n += $NF} END {print n + 0}')"
  figure "pods Running" "$(awk '$2 == "running" {print $3}' "${WORK}/burst.txt") of ${PODS} (created in $(awk '$2 == "create_seconds" {print $3}' "${WORK}/burst.txt") s)"
  figure "pending → Running p50 / p95 / max (s)" "$(awk '
    $2 == "pending_to_running_p50" {a = $3} $2 == "pending_to_running_p95" {b = $3}
    $2 == "pending_to_running_max" {c = $3} END {print a " / " b " / " c}' "${WORK}/burst.txt")"
  figure "first creation → all Running (s)" \
    "$(awk '$2 == "all_running_seconds" {print $3}' "${WORK}/burst.txt")"
  local line
  while read -r line; do
    figure "  ${line%% p50*}" "p50${line#* p50}"
  done < <(sed -n 's/^burst: phase //p' "${WORK}/burst.txt")
  figure "controller peak RSS (MB): idle / burst" "$(awk -v i="${hwm_idle}" -v b="${hwm_after}" \
    'BEGIN {printf "%.1f / %.1f", i / 1024, b / 1024}')"
  figure "controller CPU over the burst (s)" "$(awk -v t="$((ticks_after - ticks_before))" \
    -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz}')"
  figure "Nodes launched / karpenter plan's" "${nodes} / ${plan_nodes}"
  figure "NodeClaims (API / created metric)" "${claims} / ${created_metric}"
  figure "CreateFleet calls (moto)" "${fleets}"
  figure "controller's EC2 calls: DescribeSubnets / CreateFleet" "$(curl -sf \
    "http://127.0.0.1:${METRICS_PORT}/metrics" | awk '/^aws_sdk_go_request_total/ {
      if (index($0, "action=\"DescribeSubnets\"")) s += $NF
      if (index($0, "action=\"CreateFleet\"")) f += $NF
    } END {print s + 0 " / " f + 0}')"
  figure "instance types" "$(k get nodes -l karpenter.sh/nodepool=default \
    -o jsonpath='{range .items[*]}{.metadata.labels.node\.kubernetes\.io/instance-type}{"\n"}{end}' |
    sort | uniq -c | awk '{printf "%s%s×%s", sep, $1, $2; sep = " "}')"
  figure "NodeClaims created (API, 1 s steps)" "$(created_span "${started}" nodeclaims)"
  figure "log 'launched nodeclaim'" "$(log_span "${started}" "launched nodeclaim")"
  figure "log 'registered nodeclaim'" "$(log_span "${started}" "registered nodeclaim")"
  figure "log 'initialized nodeclaim'" "$(log_span "${started}" "initialized nodeclaim")"
  figure "Nodes created by node_agent.py (1 s steps)" "$(created_span "${started}" nodes)"
  figure "load average (1/5/15 min)" "${load}"
  ((all_ran)) || fail "not every pod ran within ${KP_BURST_TIMEOUT:-300} s (figures above)"
}

main "$@"

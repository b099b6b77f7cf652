#!/usr/bin/env bash
# End-to-end test of `karpenter controller`: the migration article's Phases 2 to 4
# (../shared/reference/migration-article.txt) on the test control plane (scripts/controlplane.sh),
# driven by the real kubectl, with moto as the AWS account. Run by scripts/test.sh; alone:
#   KP_KARPENTER=build/asan/cmd/karpenter/karpenter test/controlplane/e2e_article.sh
# KP_E2E_KEEP=1 keeps its work folder (logs, events.txt) after a successful run too.
#
# Who plays what:
#   - kube-apiserver, kube-scheduler, kube-controller-manager: real (v1.33.13);
#   - AWS: moto_server, seeded by moto_eks.py (VPC, subnets and security group tagged
#     karpenter.sh/discovery=production-eks, the instance profile, the interruption queue, the
#     EKS AMI SSM parameters);
#   - the kubelet of each instance Karpenter launches: node_agent.py registers its Node, kwok
#     makes it Ready and runs the pods kube-scheduler binds to it;
#   - the legacy managed node group: two kwok Nodes labelled eks.amazonaws.com/nodegroup.
# Instances, NodeClaims and the removal of Nodes come from the controller's decisions only.
#
# The article's manifests are examples/article/*.yaml, applied as they are except for this
# deviation, made with sed below (`role: KarpenterNodeRole-production` stays: moto_eks.py creates
# the role, and the controller its instance profile):
#   - NodePool `consolidateAfter: 1m` becomes 5s, to keep the test's wall time short.
# Everything else is verbatim, `alias: al2023@latest` included (moto_eks.py provides the SSM
# parameters moto refuses to store) and the discovery tags of the cluster `production-eks`.
#
# Exits non-zero on the first failed check. Timeouts bound waits; nothing asserts a timing.
set -euo pipefail
# shellcheck source=../lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"
# shellcheck source=e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly HERE="${ROOT}/test/controlplane"
readonly CP="${ROOT}/scripts/controlplane.sh"
KARPENTER="$(realpath "${KP_KARPENTER:-${ROOT}/build/asan/cmd/karpenter/karpenter}")"
readonly KARPENTER
readonly LEGACY="eks.amazonaws.com/nodegroup=legacy-workload-group"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-e2e-article.XXXXXX")"
readonly WORK
readonly DIR="${WORK}/cluster"
trap cleanup EXIT

on_failure() {
  printf '  (logs kept in %s: controller.log, agent.log, moto.log, events.txt, cluster/logs/)\n' \
    "${WORK}" >&2
  if [[ -n "${KUBECTL}" ]]; then
    k get nodeclaims,nodes -o wide >&2 || true
    k get pods -A -o wide >&2 || true
  fi
  tail -n 20 "${WORK}/controller.log" >&2 || true
  trap 'KP_E2E_KEEP=1 cleanup >/dev/null' EXIT
}

# Phase 1 as the article leaves the cluster: a managed node group of two nodes running a legacy
# workload guarded by a PodDisruptionBudget, and Cluster Autoscaler.
create_legacy_node_group() {
  step "Phase 1: a legacy managed node group (2 kwok Nodes) runs legacy-app; Cluster Autoscaler runs"
  local name zone
  for name in legacy-a legacy-b; do
    zone="us-east-1a"
    [[ "${name}" == legacy-b ]] && zone="us-east-1b"
    k apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata:
  name: ${name}
  annotations: {kwok.x-k8s.io/node: fake}
  labels:
    kubernetes.io/hostname: ${name}
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    node.kubernetes.io/instance-type: m5.large
    topology.kubernetes.io/zone: ${zone}
    topology.kubernetes.io/region: us-east-1
    eks.amazonaws.com/nodegroup: legacy-workload-group
    eks.amazonaws.com/capacityType: ON_DEMAND
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "29"}
  allocatable: {cpu: 1930m, memory: 7Gi, pods: "29"}
YAML
  done
  # Each legacy-app pod fills most of a legacy node, so workload-sample cannot fit there.
  k apply -f - >/dev/null <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: legacy-app, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: legacy-app}}
  template:
    metadata: {labels: {app: legacy-app}}
    spec:
      terminationGracePeriodSeconds: 0
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,
         labelSelector: {matchLabels: {app: legacy-app}}}
      containers:
      - name: app
        image: registry.invalid/legacy:1
        resources: {requests: {cpu: 1500m, memory: 1Gi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: legacy-app, namespace: default}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: legacy-app}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cluster-autoscaler, namespace: kube-system}
spec:
  replicas: 1
  selector: {matchLabels: {app: cluster-autoscaler}}
  template:
    metadata: {labels: {app: cluster-autoscaler}}
    spec:
      terminationGracePeriodSeconds: 0
      nodeSelector: {eks.amazonaws.com/nodegroup: legacy-workload-group}
      containers:
      - name: cluster-autoscaler
        image: registry.invalid/cluster-autoscaler:1
        resources: {requests: {cpu: 10m, memory: 64Mi}}
YAML
  wait_until 90 "2" legacy_pods_running || fail "legacy-app did not run on the legacy nodes"
  wait_until 60 1 k get pdb legacy-app -o jsonpath='{.status.disruptionsAllowed}' ||
    fail "the legacy-app PDB never allowed a disruption"
  pass "legacy-app runs on both legacy nodes; its PDB (minAvailable 1) allows 1 disruption"
}

legacy_pods_running() {
  k get pods -l app=legacy-app --field-selector=status.phase=Running \
    -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c '^legacy-'
}

start_controller() {
  step "karpenter controller starts, holds the leader Lease and is ready"
  launch_controller controller "${DIR}/kubeconfig" "${AWS_URL}"
  CONTROLLER_PID="${LAUNCHED_PID}"
  local holder="" deadline=$((SECONDS + 30))
  while [[ -z "${holder}" ]] && ((SECONDS < deadline)); do
    holder="$(k -n karpenter get lease karpenter-leader-election \
      -o jsonpath='{.spec.holderIdentity}' 2>/dev/null || true)"
    sleep 1
  done
  [[ -n "${holder}" ]] || fail "nobody holds the Lease karpenter/karpenter-leader-election"
  local renewed
  renewed="$(k -n karpenter get lease karpenter-leader-election -o jsonpath='{.spec.renewTime}')"
  wait_until 30 changed lease_renewed_since "${renewed}" ||
    fail "the Lease was not renewed after ${renewed}"
  pass "the controller holds the Lease as ${holder} and renews it"
  wait_until 30 200 curl -s -o /dev/null -w '%{http_code}' \
    "http://127.0.0.1:${HEALTH_PORT}/readyz" || fail "/readyz never answered 200"
  pass "/readyz answers 200 on port ${HEALTH_PORT}"
  start_node_agent
}

apply_nodepool_and_nodeclass() {
  step "Phase 2: kubectl apply the EC2NodeClass and the NodePool; both become Ready"
  cp "${ROOT}/examples/article/ec2nodeclass.yaml" "${WORK}/karpenter-nodeclass.yaml"
  sed 's/^    consolidateAfter: 1m$/    consolidateAfter: 5s/' \
    "${ROOT}/examples/article/nodepool.yaml" >"${WORK}/karpenter-nodepool.yaml"
  # The deviation above, and nothing else.
  [[ "$(diff "${ROOT}/examples/article/nodepool.yaml" "${WORK}/karpenter-nodepool.yaml" |
    grep -c '^[<>]')" == 2 ]] || fail "the NodePool deviation did not apply"
  k apply -f "${WORK}/karpenter-nodeclass.yaml" >/dev/null
  k apply -f "${WORK}/karpenter-nodepool.yaml" >/dev/null
  wait_until 60 True k get ec2nodeclass default \
    -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' ||
    fail "the EC2NodeClass never became Ready"
  # The role's instance profile is the controller's own (upstream's <cluster>_<hash> naming).
  local profile
  profile="$(k get ec2nodeclass default -o jsonpath='{.status.instanceProfile}')"
  [[ "${profile}" == "${CLUSTER}_"* ]] ||
    fail "status.instanceProfile is '${profile}', not a profile made for the role"
  pass "the EC2NodeClass's role has its instance profile ${profile}"
  wait_until 60 True k get nodepool default \
    -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' ||
    fail "the NodePool never became Ready"
  local classes pools
  classes="$(k get ec2nodeclasses)"
  pools="$(k get nodepools)"
  printf '%s\n%s\n' "${classes}" "${pools}" | sed 's/^/    /'
  [[ "$(head -n 1 <<<"${classes}" | tr -s ' ')" == "NAME READY AGE" ]] ||
    fail "kubectl get ec2nodeclasses columns: $(head -n 1 <<<"${classes}")"
  [[ "$(awk 'NR == 2 {print $1, $2}' <<<"${classes}")" == "default True" ]] ||
    fail "kubectl get ec2nodeclasses: ${classes}"
  [[ "$(head -n 1 <<<"${pools}" | tr -s ' ')" == "NAME NODECLASS NODES READY AGE" ]] ||
    fail "kubectl get nodepools columns: $(head -n 1 <<<"${pools}")"
  [[ "$(awk 'NR == 2 {print $1, $2, $4}' <<<"${pools}")" == "default default True" ]] ||
    fail "kubectl get nodepools: ${pools}"
  pass "kubectl get ec2nodeclasses / nodepools show default Ready (upstream's columns)"
  # Both images carry the same creation date in moto: upstream's order then goes by image id.
  [[ "$(k get ec2nodeclass default -o jsonpath='{.status.amis[*].id}')" == \
    "ami-0e9271c829888680e ami-760aaa0f" ]] ||
    fail "al2023@latest resolved to $(k get ec2nodeclass default -o jsonpath='{.status.amis}')"
  [[ "$(k get ec2nodeclass default -o jsonpath='{.status.subnets[*].zone}' | tr ' ' '\n' |
    sort | tr '\n' ' ')" == "us-east-1a us-east-1b us-east-1c " ]] ||
    fail "subnets: $(k get ec2nodeclass default -o jsonpath='{.status.subnets}')"
  pass "al2023@latest resolved through the cluster version's SSM parameters to both architectures' AMIs; 3 subnets discovered"
}

deploy_workload() {
  step "Phase 3: workload-sample (10 replicas); Karpenter launches nodes and the pods run on them"
  # The article watches the nodes arrive.
  k get nodes -l karpenter.sh/nodepool=default -w >"${WORK}/nodes-watch" 2>&1 &
  local watch=$!
  k apply -f "${ROOT}/examples/article/workload-sample.yaml" >/dev/null
  wait_until 120 "10 0" pods_on_karpenter workload-sample ||
    fail "workload-sample did not all run on Karpenter nodes"
  kill "${watch}" 2>/dev/null || true
  wait "${watch}" 2>/dev/null || true
  local node
  for node in $(k get nodes -l karpenter.sh/nodepool=default -o name); do
    grep -q "^${node#node/} " "${WORK}/nodes-watch" ||
      fail "kubectl get nodes -l karpenter.sh/nodepool=default -w never showed ${node#node/}"
  done
  pass "kubectl get nodes -l karpenter.sh/nodepool=default -w saw every node arrive"
  wait_until 30 all nodeclaims_initialized || fail "NodeClaims not all initialized"
  k get nodes -l karpenter.sh/nodepool=default -L node.kubernetes.io/instance-type \
    -L karpenter.sh/capacity-type -L topology.kubernetes.io/zone | sed 's/^    //'
  pass "10/10 pods Running on $(k get nodes -l karpenter.sh/nodepool=default -o name | wc -l) \
Karpenter nodes; every NodeClaim Launched, Registered, Initialized"
  check_instances_owned
  pass "every NodeClaim's instance runs in moto with the 5 ownership tags"
  # The nodes join with the cluster's own service CIDR (cluster DNS), from DescribeCluster.
  python3 "${HERE}/e2e_aws.py" "${AWS_URL}" user-data >"${WORK}/user-data.txt" ||
    fail "cannot read the launch templates' user data"
  grep -q '^    cidr: 172.20.0.0/16$' "${WORK}/user-data.txt" ||
    fail "node user data lacks the cluster's service CIDR 172.20.0.0/16: $(head -c 600 "${WORK}/user-data.txt")"
  pass "node user data carries the service CIDR DescribeCluster answered"
  [[ -z "$(k get nodes -l karpenter.sh/nodepool=default \
    -o jsonpath='{.items[*].spec.taints[?(@.key=="karpenter.sh/unregistered")].key}')" ]] ||
    fail "a registered Node kept the karpenter.sh/unregistered taint"
  [[ "$(k get nodes -l karpenter.sh/nodepool=default,karpenter.sh/initialized=true -o name |
    wc -l)" == "$(k get nodes -l karpenter.sh/nodepool=default -o name | wc -l)" ]] ||
    fail "a Karpenter node lacks karpenter.sh/initialized=true"
  pass "registration removed the unregistered taint; every node is labelled initialized"
}

drain_legacy_node_group() {
  step "Phase 4: scale Cluster Autoscaler to 0, cordon and drain the legacy node group"
  k scale deployment cluster-autoscaler -n kube-system --replicas=0
  k cordon -l "${LEGACY}"
  [[ "$(k get nodes -l "${LEGACY}" -o jsonpath='{.items[*].spec.unschedulable}')" == "true true" ]] ||
    fail "cordon left a legacy node schedulable"
  pass "both legacy nodes cordoned"
  watch_pdb "${WORK}/pdb-violations" legacy-app 1 &
  local watcher=$!
  local rc=0
  # The article's command, bounded: a drain the PDB held forever would hang the test.
  timeout 180 "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" drain -l "${LEGACY}" \
    --ignore-daemonsets --delete-emptydir-data --force >"${WORK}/drain.log" 2>&1 || rc=$?
  kill "${watcher}" 2>/dev/null || true
  wait "${watcher}" 2>/dev/null || true
  [[ "${rc}" -eq 0 ]] || fail "kubectl drain exited ${rc}: $(tail -n 5 "${WORK}/drain.log")"
  pass "kubectl drain -l ${LEGACY} finished"
  [[ ! -s "${WORK}/pdb-violations" ]] ||
    fail "legacy-app went below its PDB: $(cat "${WORK}/pdb-violations")"
  pass "legacy-app never had fewer than 1 available pod (sampled every 0.5 s)"
  wait_until 90 "2 0" pods_on_karpenter legacy-app || fail "legacy-app did not land on Karpenter"
  [[ "$(k get pods -A --field-selector=spec.nodeName=legacy-a -o name | wc -l)" == 0 &&
    "$(k get pods -A --field-selector=spec.nodeName=legacy-b -o name | wc -l)" == 0 ]] ||
    fail "pods left on the legacy nodes"
  pass "every drained pod runs on Karpenter capacity; the legacy nodes are empty"
  wait_until 30 all nodeclaims_initialized || fail "NodeClaims not all initialized"
  check_instances_owned
  check_no_orphans
  pass "every instance in moto belongs to a NodeClaim and the reverse"
}

spot_interruption() {
  step "spot interruption: a warning for every Karpenter node in the queue; each is tainted, drained, replaced"
  local before ids
  before="$(claim_instances)"
  ids="$(awk '{print $2}' <<<"${before}" | tr '\n' ' ')"
  aws instances | awk '$2 == "running" && index($6, "karpenter.sh/nodeclaim=") {print $4, $5, $3}' |
    sort -u >"${WORK}/interrupted-offerings"
  # shellcheck disable=SC2086  # one argument per instance
  aws interrupt "${QUEUE}" ${ids}
  local name id tainted="" deadline=$((SECONDS + 60))
  while [[ "$(wc -w <<<"${tainted}")" -lt "$(wc -l <<<"${before}")" ]] && ((SECONDS < deadline)); do
    tainted="$(k get nodes -o jsonpath='{range .items[*]}{.spec.providerID}{" "}{.spec.taints[?(@.key=="karpenter.sh/disrupted")].effect}{"\n"}{end}' |
      awk '$2 == "NoSchedule" {n = split($1, p, "/"); print p[n]}' | sort -u | tr '\n' ' ') ${tainted}"
    tainted="$(tr ' ' '\n' <<<"${tainted}" | sed '/^$/d' | sort -u | tr '\n' ' ')"
    sleep 0.5
  done
  [[ "$(wc -w <<<"${tainted}")" -eq "$(wc -l <<<"${before}")" ]] ||
    fail "tainted karpenter.sh/disrupted:NoSchedule: [${tainted}] of [${ids}]"
  pass "all $(wc -l <<<"${before}") interrupted nodes tainted karpenter.sh/disrupted:NoSchedule"
  while read -r name id; do
    wait_until 120 "" k get nodeclaim "${name}" -o name --ignore-not-found ||
      fail "NodeClaim ${name} survived its interruption"
    wait_until 60 terminated instance_state "${id}" || fail "instance ${id} not terminated"
  done <<<"${before}"
  pass "the interrupted NodeClaims and Nodes are gone; their instances are terminated in moto"
  wait_until 120 "10 0" pods_on_karpenter workload-sample || fail "workload-sample not rescheduled"
  wait_until 120 "2 0" pods_on_karpenter legacy-app || fail "legacy-app not rescheduled"
  wait_until 60 all nodeclaims_initialized || fail "replacement NodeClaims not all initialized"
  local replacements
  replacements="$(comm -13 <(awk '{print $1}' <<<"${before}") <(claims) | tr '\n' ' ')"
  [[ -n "${replacements// /}" ]] || fail "no replacement NodeClaim was launched"
  pass "replacements ${replacements}run all 12 pods"
  # The interrupted spot offerings are unavailable for 3 minutes: no replacement uses one.
  local offering
  while read -r offering; do
    grep -qxF "${offering}" "${WORK}/interrupted-offerings" &&
      fail "a replacement launched into the interrupted offering ${offering}"
  done < <(aws instances | awk '$2 == "running" && index($6, "karpenter.sh/nodeclaim=") {print $4, $5, $3}')
  pass "no replacement uses an interrupted (type, zone, spot) offering"
  check_instances_owned
  check_no_orphans
}

consolidate_after_scale_down() {
  step "scale workload-sample to 0: a node is consolidated away within the budget (10%)"
  local before
  before="$(claim_instances)"
  k scale deployment workload-sample --replicas=0 >/dev/null
  local gone="" deadline=$((SECONDS + 150)) most=0 disrupting
  while [[ -z "${gone}" ]] && ((SECONDS < deadline)); do
    disrupting="$(k get nodes -l karpenter.sh/nodepool=default \
      -o jsonpath='{range .items[*]}{.spec.taints[?(@.key=="karpenter.sh/disrupted")].key}{"\n"}{end}' |
      grep -c disrupted || true)"
    ((disrupting > most)) && most="${disrupting}"
    gone="$(comm -23 <(awk '{print $1}' <<<"${before}") <(claims) | head -n 1)"
    sleep 1
  done
  [[ -n "${gone}" ]] || fail "no NodeClaim was consolidated away"
  local id
  id="$(awk -v n="${gone}" '$1 == n {print $2}' <<<"${before}")"
  wait_until 60 terminated instance_state "${id}" || fail "instance ${id} of ${gone} not terminated"
  ! k get nodes -o jsonpath='{range .items[*]}{.spec.providerID}{"\n"}{end}' |
    grep -qF "/${id}" || fail "the Node of ${gone} (${id}) is still there"
  pass "NodeClaim ${gone} consolidated away: Node gone, instance ${id} terminated"
  ((most <= 1)) || fail "${most} nodes were disrupted at once; the budget (10%) allows 1"
  pass "at most ${most} node disrupted at a time (budget nodes: 10%)"
  grep -q '"reason":"Empty"\|Disrupting Node: Empty\|Underutilized' \
    <(k get events -o json) || fail "no disruption event for the consolidation"
  pass "a DisruptionTerminating event names the consolidation"
  wait_until 60 "2 0" pods_on_karpenter legacy-app || fail "legacy-app not running after it"
  check_no_orphans
}

check_logs_and_metrics() {
  step "the controller's log lines (kubectl logs) and /metrics"
  python3 - "${WORK}/controller.log" <<'PY' || fail "the controller's log is not upstream's JSON lines"
import json, sys
lines = [line for line in open(sys.argv[1]) if line.strip()]
entries = [json.loads(line) for line in lines]
import re
for entry in entries:
    missing = {"level", "time", "logger", "message", "commit"} - entry.keys()
    assert not missing, f"{entry} lacks {missing}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", entry["time"]), entry
    assert entry["level"] in ("INFO", "ERROR"), f"LOG_LEVEL is info: {entry}"
messages = {entry["message"] for entry in entries}
# Upstream's info lines for what this test made happen (pkg/controllers/... log.Info calls).
want = {"starting manager", "starting controllers", "found provisionable pod(s)",
        "computed new nodeclaim(s) to fit pod(s)", "created nodeclaim", "launched nodeclaim",
        "registered nodeclaim", "initialized nodeclaim", "tainted node", "deleted node",
        "deleted nodeclaim", "disrupting node(s)", "initiating delete from interruption message"}
assert want <= messages, f"missing {sorted(want - messages)} in {sorted(messages)}"
assert any(m.startswith("discovered cluster endpoint https://") for m in messages), \
    f"the endpoint was not discovered through DescribeCluster: {sorted(messages)}"
launched = [e for e in entries if e["message"] == "launched nodeclaim"]
for entry in launched:
    assert entry["NodeClaim"]["name"].startswith("default-"), entry
    assert entry["provider-id"].startswith("aws:///us-east-1"), entry
    assert entry["instance-type"] and entry["zone"] and entry["capacity-type"], entry
created = [e for e in entries if e["message"] == "created nodeclaim"]
for entry in created:
    assert entry["NodePool"] == {"name": "default"}, entry
    assert "cpu" in entry["requests"] and entry["instance-types"], entry
for entry in (e for e in entries if e["message"] == "computed new nodeclaim(s) to fit pod(s)"):
    assert entry["nodeclaims"] >= 1 and entry["pods"] >= 1, entry
interrupted = [e for e in entries if e["message"] == "initiating delete from interruption message"]
assert all(e["messageKind"] == "spot_interrupted" and e["action"] == "CordonAndDrain"
           for e in interrupted), interrupted
registered = [e for e in entries if e["message"] == "registered nodeclaim"]
assert all(e["Node"]["name"].endswith(".ec2.internal") for e in registered), registered
assert any(e.get("reason") == "empty" or e.get("reason") == "underutilized"
           for e in entries if e["message"] == "disrupting node(s)"), "no consolidation line"
print(f"  {len(entries)} JSON lines, {len(launched)} launches; messages: {sorted(messages)}")
PY
  pass "every line is JSON (level, time, logger, message) and upstream's messages are there"
  curl -sf "http://127.0.0.1:${METRICS_PORT}/metrics" >"${WORK}/metrics" ||
    fail "GET /metrics failed on port ${METRICS_PORT}"
  local series
  for series in karpenter_nodeclaims_created_total karpenter_nodeclaims_terminated_total \
    karpenter_nodeclaims_disrupted_total karpenter_interruption_received_messages_total \
    karpenter_interruption_deleted_messages_total karpenter_pods_drained_total \
    karpenter_voluntary_disruption_decisions_total \
    karpenter_voluntary_disruption_decision_evaluation_duration_seconds_count \
    karpenter_cloudprovider_instance_type_offering_available \
    karpenter_cloudprovider_instance_type_cpu_cores \
    operator_nodeclaim_status_condition_count operator_nodepool_status_condition_count \
    operator_node_status_condition_count operator_ec2nodeclass_status_condition_count \
    client_go_request_total client_go_request_duration_seconds_count \
    aws_sdk_go_request_total aws_sdk_go_request_attempt_total \
    aws_sdk_go_request_duration_seconds_count; do
    # A sample line of the series (not its # HELP / # TYPE) whose value is not 0.
    awk -v s="${series}" '(index($0, s "{") == 1 || index($0, s " ") == 1) && $NF != 0 {ok = 1}
      END {exit !ok}' "${WORK}/metrics" || fail "/metrics has no non-zero ${series}"
  done
  pass "/metrics: created, terminated, disrupted NodeClaims, interruption messages, drained pods, decisions, offerings, status conditions, Kubernetes and AWS requests"
  python3 "${HERE}/dashboard_check.py" "${HERE}/dashboard_series.txt" "${WORK}/metrics" ||
    fail "a query of upstream's Grafana dashboards finds no series"
  pass "every query of upstream's capacity and performance dashboards resolves to our series"
  python3 "${HERE}/dashboard_check.py" "${HERE}/upstream_metrics.txt" "${WORK}/metrics" ||
    fail "a metric of upstream's reference list (ecosystem.md 1.2) is missing or lacks its labels"
  pass "every metric of upstream's reference list is in the scrape with upstream's labels"
  local actions action
  actions="$(python3 "${ROOT}/test/iam/iam_policy_check.py" recorded "${WORK}/aws-requests.jsonl" \
    "${ROOT}/docs/iam/controller-policy.json" "${CONTROLLER_ACCESS_KEY}" 2>&1)" ||
    fail "the controller called AWS beyond docs/iam/controller-policy.json: ${actions}"
  for action in ec2:CreateFleet ec2:TerminateInstances ec2:CreateLaunchTemplate \
    sqs:ReceiveMessage sqs:DeleteMessage iam:CreateInstanceProfile eks:DescribeCluster; do
    grep -qw "${action}" <<<"${actions}" || fail "moto recorded no ${action} of the controller"
  done
  pass "docs/iam/controller-policy.json grants every AWS call of the whole run (${actions})"
}

# Peak RSS and CPU time of the controller so far (a figure for the report, not a check).
report_controller_usage() {
  local pid="${CONTROLLER_PID}"  # the subshell exec'd the controller: same process
  [[ -r "/proc/${pid}/status" ]] || return 0
  local peak ticks
  peak="$(awk '/^VmHWM:/ {printf "%.0f", $2 / 1024}' "/proc/${pid}/status")"
  ticks="$(awk '{print $14 + $15}' "/proc/${pid}/stat")"
  printf '  controller (%s): peak RSS %s MB, CPU %s s\n' "$(basename "${KARPENTER}")" "${peak}" \
    "$(awk -v t="${ticks}" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", t / hz}')"
}

stop_controller() {
  step "SIGTERM: the controller exits 0 and releases the Lease"
  report_controller_usage
  kill -TERM "${CONTROLLER_PID}"
  local rc=0
  wait "${CONTROLLER_PID}" || rc=$?
  CONTROLLER_PID=""
  [[ "${rc}" -eq 0 ]] || fail "the controller exited ${rc}"
  [[ -z "$(k -n karpenter get lease karpenter-leader-election -o jsonpath='{.spec.holderIdentity}')" ]] ||
    fail "the Lease still has a holder"
  pass "exit 0, Lease released"
}

main() {
  if ! have_moto; then
    echo "e2e_article: skipped (python3 with moto and boto3 is needed)"
    return 0
  fi
  [[ -x "${KARPENTER}" ]] || { echo "no karpenter binary at ${KARPENTER}" >&2; exit 1; }
  start_control_plane
  create_legacy_node_group
  start_controller
  apply_nodepool_and_nodeclass
  deploy_workload
  drain_legacy_node_group
  spot_interruption
  consolidate_after_scale_down
  check_logs_and_metrics
  stop_controller
  printf '\ne2e_article: %d passed, 0 failed (%d s)\n' "${PASSED}" "${SECONDS}"
}

main "$@"

# What the end-to-end tests of `karpenter controller` share (sourced, not run; e2e_article.sh,
# e2e_faults.sh, bench/controller_burst.sh): the control plane with moto as AWS, starting
# controllers, and the checks on NodeClaims, instances and PodDisruptionBudgets. The sourcing
# script sets ROOT, HERE, CP, KARPENTER, WORK and DIR first; start_control_plane sets KUBECTL,
# AWS_URL and MOTO_PID. test/lib/checks.sh must be sourced too.
# shellcheck shell=bash
# shellcheck disable=SC2034  # the globals set here are the sourcing script's to read

# The article's cluster, interruption queue and node role (its EC2NodeClass names them).
readonly CLUSTER="production-eks"
readonly QUEUE="production-eks-interruption"
readonly NODE_ROLE="KarpenterNodeRole-production"

KUBECTL=""
AWS_URL=""
MOTO_PID=""

# SIGTERM, then SIGKILL after 15 s; a no-op for an empty or finished PID.
stop_pid() {
  local pid="$1"
  [[ -n "${pid}" ]] || return 0
  kill "${pid}" 2>/dev/null || return 0
  local deadline=$((SECONDS + 15))
  while kill -0 "${pid}" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  kill -9 "${pid}" 2>/dev/null || true
}

# The processes of one controller, its node agent, moto and the control plane; a script that
# starts more (e2e_faults.sh) defines its own stop_all after sourcing this file.
CONTROLLER_PID=""
AGENT_PID=""
stop_all() {
  stop_pid "${AGENT_PID}"
  stop_pid "${CONTROLLER_PID}"
  stop_pid "${MOTO_PID}"
  "${CP}" stop "${DIR}" >/dev/null 2>&1 || true
}

# The EXIT trap: the cluster's events into WORK/events.txt, everything stopped, WORK removed
# unless KP_E2E_KEEP=1 (an on_failure hook sets it).
cleanup() {
  if [[ -n "${KUBECTL}" ]]; then
    k get events -A --sort-by=.lastTimestamp >"${WORK}/events.txt" 2>&1 || true
  fi
  stop_all
  if [[ "${KP_E2E_KEEP:-0}" == 1 ]]; then
    echo "kept ${WORK} (KP_E2E_KEEP=1)"
  else
    rm -rf "${WORK}"
  fi
}

k() { "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" "$@"; }
aws() { python3 "${HERE}/e2e_aws.py" "${AWS_URL}" "$@"; }

have_moto() { python3 -c 'import moto, boto3' 2>/dev/null; }

# Starts a Python helper of test/controlplane that prints "... ready on PORT" (moto_eks.py, the
# proxies) with its output in LOG; sets STARTED_PID and STARTED_PORT.
STARTED_PID=""
STARTED_PORT=""
start_helper() {
  local log="$1"
  shift
  python3 "$@" >"${log}" 2>&1 &
  STARTED_PID=$!
  local deadline=$((SECONDS + 60))
  until grep -q ' ready on [0-9]' "${log}"; do
    if ((SECONDS >= deadline)) || ! kill -0 "${STARTED_PID}" 2>/dev/null; then
      fail "$1 did not start: $(tail -n 5 "${log}")"
    fi
    sleep 0.5
  done
  STARTED_PORT="$(sed -n 's/^.* ready on \([0-9]*\)$/\1/p' "${log}" | head -n 1)"
}

start_control_plane() {
  step "control plane, the project's CRDs, moto"
  "${CP}" start "${DIR}" >/dev/null
  # shellcheck disable=SC1091  # written by start
  KUBECTL="$(source "${DIR}/env" && printf '%s' "${KP_KUBECTL}")"
  k apply -f "${ROOT}/charts/karpenter/crds/" >/dev/null
  k wait --for=condition=Established --timeout=60s crd/nodepools.karpenter.sh \
    crd/nodeclaims.karpenter.sh crd/ec2nodeclasses.karpenter.k8s.aws >/dev/null
  k create namespace karpenter >/dev/null
  pass "control plane up, CRDs established"
  # Only the cluster's version: the controller must ask the API server which AMIs to use.
  # moto records every request it answers (WORK/aws-requests.jsonl): the controller's, signed
  # with its own access key, are checked against the IAM policy.
  MOTO_ENABLE_RECORDING=True MOTO_RECORDER_FILEPATH="${WORK}/aws-requests.jsonl" \
    start_helper "${WORK}/moto.log" "${HERE}/moto_eks.py" --cluster "${CLUSTER}" \
    --node-role "${NODE_ROLE}" --queue "${QUEUE}" --kubernetes-version "$(k version -o json |
      python3 -c 'import json, sys; v = json.load(sys.stdin)["serverVersion"]
print(v["major"] + "." + v["minor"].rstrip("+"))')"
  MOTO_PID="${STARTED_PID}"
  AWS_URL="http://127.0.0.1:${STARTED_PORT}"
  pass "moto at ${AWS_URL} with the cluster's VPC, subnets, security group and queue"
}

# launch_controller NAME KUBECONFIG AWS_ENDPOINT [VAR=VALUE...]: starts `karpenter controller`
# in WORK with its log in WORK/NAME.log (stderr NAME.err) and waits for "starting manager"; sets
# LAUNCHED_PID, METRICS_PORT and HEALTH_PORT. No CLUSTER_ENDPOINT, as the article's Helm install
# leaves it: the controller asks EKS DescribeCluster (moto_eks.py made the cluster) for it and
# for the service CIDR.
LAUNCHED_PID=""
# The controllers' AWS access key: moto takes any, and it tells their requests from the fixtures'.
readonly CONTROLLER_ACCESS_KEY="karpenter-controller"
METRICS_PORT=""
HEALTH_PORT=""
launch_controller() {
  local name="$1" kubeconfig="$2" endpoint="$3"
  shift 3
  (
    cd "${WORK}" || exit 1
    exec env CLUSTER_NAME="${CLUSTER}" \
      KUBECONFIG="${kubeconfig}" AWS_REGION=us-east-1 AWS_ENDPOINT_URL="${endpoint}" \
      AWS_ACCESS_KEY_ID="${CONTROLLER_ACCESS_KEY}" AWS_SECRET_ACCESS_KEY=testing \
      INTERRUPTION_QUEUE="${QUEUE}" LEADER_ELECTION_NAMESPACE=karpenter METRICS_PORT=0 HEALTH_PROBE_PORT=0 "$@" \
      "${KARPENTER}" controller >"${WORK}/${name}.log" 2>"${WORK}/${name}.err"
  ) &
  LAUNCHED_PID=$!  # the subshell exec's the controller: the same process
  local deadline=$((SECONDS + 60))
  until grep -q '"message":"starting manager"' "${WORK}/${name}.log" 2>/dev/null; do
    if ((SECONDS >= deadline)) || ! kill -0 "${LAUNCHED_PID}" 2>/dev/null; then
      fail "the controller ${name} did not start: $(cat "${WORK}/${name}.err")"
    fi
    sleep 0.5
  done
  read -r METRICS_PORT HEALTH_PORT < <(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if entry.get("message") == "starting manager":
        print(entry["metrics-port"], entry["health-probe-port"])
        break' "${WORK}/${name}.log")
}

lease_holder() {
  k -n karpenter get lease karpenter-leader-election -o jsonpath='{.spec.holderIdentity}'
}

lease_renewed_since() {
  local now
  now="$(k -n karpenter get lease karpenter-leader-election -o jsonpath='{.spec.renewTime}')"
  [[ "${now}" != "$1" ]] && echo changed
}

start_node_agent() {
  python3 "${HERE}/node_agent.py" --kubectl "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" \
    --aws-endpoint "${AWS_URL}" >"${WORK}/agent.log" 2>&1 &
  AGENT_PID=$!
}

# "<Running on Karpenter Nodes> <other>" for the pods labelled app=APP.
pods_on_karpenter() {
  local app="$1"
  k get pods -l "app=${app}" -o json >"${WORK}/pods.json"
  k get nodes -l karpenter.sh/nodepool=default -o name >"${WORK}/karpenter-nodes"
  python3 - "${WORK}/pods.json" "${WORK}/karpenter-nodes" <<'PY'
import json, sys
pods = [p for p in json.load(open(sys.argv[1]))["items"] if not p["metadata"].get("deletionTimestamp")]
nodes = {line.strip().removeprefix("node/") for line in open(sys.argv[2])}
on = sum(1 for p in pods if p["status"].get("phase") == "Running" and p["spec"].get("nodeName") in nodes)
print(on, len(pods) - on)
PY
}

claims() { k get nodeclaims -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | sort; }

# provider ID -> instance id for every NodeClaim: "NAME INSTANCE-ID".
claim_instances() {
  k get nodeclaims -o jsonpath='{range .items[*]}{.metadata.name} {.status.providerID}{"\n"}{end}' |
    awk '{n = split($2, p, "/"); print $1, p[n]}' | sort
}

instance_state() { aws instances | awk -v id="$1" '$1 == id {print $2}'; }

# Every NodeClaim's instance runs in moto with Karpenter's ownership tags.
check_instances_owned() {
  local name id line
  aws instances >"${WORK}/instances"
  while read -r name id; do
    line="$(awk -v id="${id}" '$1 == id' "${WORK}/instances")"
    [[ -n "${line}" ]] || fail "NodeClaim ${name}: instance ${id} is not in moto"
    [[ "$(awk '{print $2}' <<<"${line}")" == running ]] || fail "instance ${id}: ${line}"
    for tag in "kubernetes.io/cluster/${CLUSTER}=owned" "karpenter.sh/nodepool=default" \
      "karpenter.sh/nodeclaim=${name}" "karpenter.k8s.aws/ec2nodeclass=default" \
      "eks:eks-cluster-name=${CLUSTER}"; do
      [[ ",$(awk '{print $6}' <<<"${line}")," == *",${tag},"* ]] ||
        fail "instance ${id} of ${name} lacks the tag ${tag}: ${line}"
    done
  done < <(claim_instances)
}

# The cluster's running instances (ids, sorted).
running_instances() {
  aws instances | awk -v c="kubernetes.io/cluster/${CLUSTER}=owned" \
    '$2 == "running" && index("," $6 ",", "," c ",") {print $1}' | sort
}

# Every running instance of the cluster belongs to a NodeClaim, and every NodeClaim to one.
check_no_orphans() {
  local running claimed
  running="$(running_instances)"
  claimed="$(claim_instances | awk '{print $2}' | sort)"
  [[ "${running}" == "${claimed}" ]] ||
    fail "running instances [${running//$'\n'/ }] != NodeClaims' [${claimed//$'\n'/ }]"
}

# NodeClaims all Launched, Registered and Initialized; their Nodes carry the pool's label,
# karpenter.sh/initialized and no unregistered taint.
nodeclaims_initialized() {
  k get nodeclaims -o json | python3 -c '
import json, sys
claims = json.load(sys.stdin)["items"]
def true(claim, kind):
    return any(c["type"] == kind and c["status"] == "True"
               for c in claim.get("status", {}).get("conditions", []))
done = [c for c in claims if all(true(c, k) for k in ("Launched", "Registered", "Initialized"))]
print("all" if claims and len(done) == len(claims) else f"{len(done)}/{len(claims)}")'
}

# watch_pdb FILE DEPLOYMENT MIN, until killed: a line in FILE for every sample (0.5 s apart)
# where DEPLOYMENT has fewer than MIN available pods (its PDB's minAvailable). A negative MIN is
# relative to the replicas wanted at that moment (-1: a PDB's maxUnavailable 1).
watch_pdb() {
  local file="$1" deployment="$2" min="$3"
  : >"${file}"
  while true; do
    local ready wanted floor="${min}"
    read -r wanted ready < <(k get deployment "${deployment}" \
      -o jsonpath='{.spec.replicas} {.status.availableReplicas}' 2>/dev/null || echo err err)
    ((min >= 0)) || floor=$((${wanted/err/0} + min))
    [[ "${ready}" == err || "${ready:-0}" -ge "${floor}" ]] ||
      echo "$(date +%T) available=${ready:-0} of ${wanted}, fewer than ${floor}" >>"${file}"
    sleep 0.5
  done
}

# The set-up the controller's tests and benchmarks on the test control plane share (sourced, not
# run): the control plane with the project's CRDs, moto as the AWS account, `karpenter controller`
# and node_agent.py. The sourcing script sets ROOT, HERE (test/controlplane), CP
# (scripts/controlplane.sh), KARPENTER, CLUSTER, QUEUE, NODE_ROLE, WORK and DIR (the control
# plane's folder, under WORK), sources test/lib/checks.sh first, and calls stop_all on exit.
# What the functions start is recorded in KUBECTL, AWS_URL, MOTO_PID, CONTROLLER_PID (the
# controller process itself), METRICS_PORT, HEALTH_PORT and AGENT_PID.
# KP_CONTROLLER_ENV adds VAR=VALUE settings to the controller's environment, split on spaces.
# shellcheck shell=bash

KUBECTL=""
AWS_URL=""
MOTO_PID=""
CONTROLLER_PID=""
AGENT_PID=""
METRICS_PORT=""
HEALTH_PORT=""

stop_pid() {
  local pid="$1"
  [[ -n "${pid}" ]] || return 0
  kill "${pid}" 2>/dev/null || return 0
  local deadline=$((SECONDS + 15))
  while kill -0 "${pid}" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  kill -9 "${pid}" 2>/dev/null || true
}

stop_all() {
  stop_pid "${AGENT_PID}"
  stop_pid "${CONTROLLER_PID}"
  stop_pid "${MOTO_PID}"
  "${CP}" stop "${DIR}" >/dev/null 2>&1 || true
}

k() { "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" "$@"; }
aws() { python3 "${HERE}/e2e_aws.py" "${AWS_URL}" "$@"; }

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
  python3 "${HERE}/moto_eks.py" --cluster "${CLUSTER}" --node-role "${NODE_ROLE}" \
    --queue "${QUEUE}" --kubernetes-version "$(k version -o json |
      python3 -c 'import json, sys; v = json.load(sys.stdin)["serverVersion"]
print(v["major"] + "." + v["minor"].rstrip("+"))')" \
    >"${WORK}/moto.log" 2>&1 &
  MOTO_PID=$!
  local deadline=$((SECONDS + 60))
  until grep -q '^moto ready on' "${WORK}/moto.log" 2>/dev/null; do
    if ((SECONDS >= deadline)) || ! kill -0 "${MOTO_PID}" 2>/dev/null; then
      fail "moto did not start: $(tail -n 5 "${WORK}/moto.log")"
    fi
    sleep 0.5
  done
  AWS_URL="http://127.0.0.1:$(sed -n 's/^moto ready on //p' "${WORK}/moto.log")"
  pass "moto at ${AWS_URL} with the cluster's VPC, subnets, security group and queue"
}

# Starts the controller with its log in WORK/controller.log and waits for "starting manager";
# reads the metrics and health ports it chose from that line.
launch_controller() {
  # shellcheck disable=SC2086  # KP_CONTROLLER_ENV is split into settings on purpose
  (
    cd "${WORK}"
    # No CLUSTER_ENDPOINT, as the article's Helm install leaves it: the controller asks EKS
    # DescribeCluster (moto_eks.py made the cluster) for it and for the service CIDR.
    exec env CLUSTER_NAME="${CLUSTER}" \
      KUBECONFIG="${DIR}/kubeconfig" AWS_REGION=us-east-1 AWS_ENDPOINT_URL="${AWS_URL}" \
      AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing INTERRUPTION_QUEUE="${QUEUE}" \
      LEADER_ELECTION_NAMESPACE=karpenter METRICS_PORT=0 HEALTH_PROBE_PORT=0 \
      ${KP_CONTROLLER_ENV:-} \
      "${KARPENTER}" controller >"${WORK}/controller.log" 2>"${WORK}/controller.err"
  ) &
  CONTROLLER_PID=$!
  local deadline=$((SECONDS + 60))
  until grep -q '"message":"starting manager"' "${WORK}/controller.log" 2>/dev/null; do
    if ((SECONDS >= deadline)) || ! kill -0 "${CONTROLLER_PID}" 2>/dev/null; then
      fail "the controller did not start: $(cat "${WORK}/controller.err")"
    fi
    sleep 0.5
  done
  read -r METRICS_PORT HEALTH_PORT < <(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    entry = json.loads(line)
    if entry.get("message") == "starting manager":
        print(entry["metrics-port"], entry["health-probe-port"])
        break' "${WORK}/controller.log")
}

# The kubelet of every instance the controller launches (node_agent.py).
start_node_agent() {
  python3 "${HERE}/node_agent.py" --kubectl "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" \
    --aws-endpoint "${AWS_URL}" >"${WORK}/agent.log" 2>&1 &
  AGENT_PID=$!
}

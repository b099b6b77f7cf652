#!/usr/bin/env bash
# Tests the Helm chart (charts/karpenter), run by scripts/test.sh's control-plane stage:
#   1. builds helm from its pinned Go module (test/controlplane/helm) into the cache, once;
#   2. `helm lint --strict`; a render without settings.clusterName fails, one without
#      settings.clusterEndpoint renders (DescribeCluster finds it);
#   3. renders with the default values (plus clusterName and an endpoint), with the article's
#      values (test/controlplane/helm/article-values.yaml) and with every value changed
#      (all-values.yaml), and compares each with its golden manifest in
#      test/controlplane/helm/golden/ (`--regen` rewrites them instead);
#   4. on the renders: the Roles and ClusterRoles grant exactly upstream's rules
#      (test/controlplane/helm/upstream_rbac.txt) to the controller's ServiceAccount only, the pod
#      runs restricted, every environment variable the container gets is a setting
#      `karpenter controller --help` lists, the IRSA annotation reaches the ServiceAccount, and a
#      ServiceMonitor appears only when enabled and served;
#   5. on a started control plane: the CRDs are applied, then the three renders pass
#      `kubectl apply --dry-run=server`, and the article's render is applied for real;
#   6. the rendered container's command runs with the rendered environment against that control
#      plane, as the chart's ServiceAccount, with the article's EC2NodeClass and NodePool applied:
#      /healthz and /readyz answer on the rendered ports, it takes the leader-election Lease, it
#      writes both objects' status, no request is forbidden by the chart's RBAC, every AWS request
#      it made is an action docs/iam/controller-policy.json grants, and on SIGTERM
#      it releases the Lease and exits 0; an unknown setting makes the same command exit 1 with
#      one line.
# What step 6 substitutes for the pod, and nothing else: the binary's path for the image's
# /karpenter; KUBECONFIG holding the ServiceAccount's token and namespace for the in-cluster
# token; AWS_REGION, AWS_ENDPOINT_URL and static keys for what IRSA's webhook injects (moto, the
# AWS emulator, answers; the interruption queue is created there); free ports for 8080/8081
# through the chart's own controller.metrics.port and controller.healthProbe.port.
# Skips (exit 0) when there is no go command. Environment: KP_KARPENTER (default
# build/asan/cmd/karpenter/karpenter), KP_CACHE_DIR, KP_HELM_CHART_KEEP=1 keeps the work folder.
# Timeouts here bound waits; nothing asserts a timing.
set -euo pipefail
# shellcheck source=../lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly CP="${ROOT}/scripts/controlplane.sh"
readonly CHART="${ROOT}/charts/karpenter"
readonly MODULE="${ROOT}/test/controlplane/helm"
readonly GOLDEN="${MODULE}/golden"
readonly ARTICLE_VALUES="${MODULE}/article-values.yaml"
readonly UPSTREAM_RBAC="${MODULE}/upstream_rbac.txt"
readonly CHECKS="${ROOT}/test/controlplane/helm_chart_checks.py"
readonly KARPENTER="${KP_KARPENTER:-${ROOT}/build/asan/cmd/karpenter/karpenter}"
readonly HELM_VERSION="v4.3.2"
readonly CACHE_ROOT="${KP_CACHE_DIR:-${HOME}/.cache/karpenter-cpp}/helm"
readonly RELEASE="karpenter"
readonly NAMESPACE="karpenter"
# The settings of the "default values" render: the one the chart requires, and an endpoint.
readonly REQUIRED_SETTINGS=(--set settings.clusterName=demo
  --set settings.clusterEndpoint=https://demo.example.com)
REGEN=0
WORK=""
DIR=""
KUBECTL=""
HELM=""
MOTO_PID=""
CONTROLLER_PID=""




cleanup() {
  if [[ -n "${CONTROLLER_PID}" ]]; then kill "${CONTROLLER_PID}" 2>/dev/null || true; fi
  # moto runs in a session of its own (setsid): its group is it and its workers.
  if [[ -n "${MOTO_PID}" ]]; then kill -- "-${MOTO_PID}" 2>/dev/null || true; fi
  if [[ -n "${DIR}" ]]; then "${CP}" stop "${DIR}" >/dev/null 2>&1 || true; fi
  if [[ -z "${WORK}" ]]; then return; fi
  if [[ "${KP_HELM_CHART_KEEP:-0}" == "1" ]]; then
    echo "kept ${WORK}"
  else
    rm -rf "${WORK}"
  fi
}
trap cleanup EXIT

k() { "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" "$@"; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Polls COMMAND until it succeeds, for at most SECONDS.
wait_for() {
  local seconds="$1"
  shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 1
  done
}

# --- 1. helm -------------------------------------------------------------------------------------

readonly HELM_LDFLAGS="-s -w -X helm.sh/helm/v4/internal/version.version=${HELM_VERSION}"

# Like scripts/controlplane.sh: the folder is named after everything that decides the binary, so a
# pin, flag or Go change builds anew and nothing stale is reused.
helm_dir() {
  local key
  key="$({
    cat "${MODULE}/go.mod" "${MODULE}/go.sum"
    printf '%s\n' "${HELM_LDFLAGS}" "CGO_ENABLED=0 -mod=readonly -trimpath"
    go env GOVERSION GOOS GOARCH
  } | sha256sum | cut -c1-16)"
  printf '%s/%s' "${CACHE_ROOT}" "${key}"
}

build_helm() {
  step "helm ${HELM_VERSION} from its Go module"
  local dir
  dir="$(helm_dir)"
  HELM="${dir}/helm"
  if [[ ! -x "${HELM}" ]]; then
    mkdir -p "${CACHE_ROOT}"
    exec 9>"${CACHE_ROOT}/.build.lock"
    flock 9
    if [[ ! -x "${HELM}" ]]; then
      echo "  building ${HELM} (a cold build takes minutes)"
      (cd "${MODULE}" && CGO_ENABLED=0 nice -n 10 go build -mod=readonly -trimpath \
        -ldflags "${HELM_LDFLAGS}" -o "${dir}.partial.$$/helm" helm.sh/helm/v4/cmd/helm) ||
        fail "go build of helm failed"
      mv "${dir}.partial.$$" "${dir}"
    fi
    exec 9>&-
  fi
  local version
  version="$("${HELM}" version --template '{{.Version}}')"
  [[ "${version}" == "${HELM_VERSION}" ]] || fail "helm reports ${version}, want ${HELM_VERSION}"
  pass "helm ${version} at ${HELM}"
}

render() {
  "${HELM}" template "${RELEASE}" "${CHART}" --namespace "${NAMESPACE}" "$@"
}

# --- 2. lint and required values -----------------------------------------------------------------

check_lint_and_required() {
  step "helm lint; the required settings"
  "${HELM}" lint --strict "${CHART}" -f "${ARTICLE_VALUES}" >"${WORK}/lint.txt" 2>&1 ||
    fail "helm lint: $(cat "${WORK}/lint.txt")"
  pass "helm lint --strict"
  local out
  out="$(render 2>&1)" && fail "a render without settings.clusterName succeeded"
  grep -q 'Chart cannot be installed without a valid settings.clusterName!' <<<"${out}" ||
    fail "no clusterName: ${out}"
  pass "no settings.clusterName: upstream's message"
  # Without settings.clusterEndpoint the controller asks EKS DescribeCluster, as upstream does.
  out="$(render --set settings.clusterName=demo 2>&1)" ||
    fail "a render without settings.clusterEndpoint failed: ${out}"
  grep -q 'CLUSTER_ENDPOINT' <<<"${out}" && fail "CLUSTER_ENDPOINT set although the value is empty"
  pass "no settings.clusterEndpoint: renders, and the binary discovers it"
}

# --- 3. golden renders ---------------------------------------------------------------------------

check_golden() {
  local name="$1"
  shift
  render "$@" >"${WORK}/${name}.yaml" || fail "the ${name} render failed"
  if [[ "${REGEN}" == "1" ]]; then
    mkdir -p "${GOLDEN}"
    cp "${WORK}/${name}.yaml" "${GOLDEN}/${name}.yaml"
    pass "rewrote ${GOLDEN}/${name}.yaml"
    return
  fi
  diff -u "${GOLDEN}/${name}.yaml" "${WORK}/${name}.yaml" >"${WORK}/${name}.diff" ||
    fail "the ${name} render differs from its golden file (--regen updates it):
$(head -60 "${WORK}/${name}.diff")"
  pass "the ${name} render equals ${GOLDEN#"${ROOT}"/}/${name}.yaml"
}

check_renders() {
  step "render the default and the article's values; compare with the golden manifests"
  check_golden default "${REQUIRED_SETTINGS[@]}"
  check_golden article -f "${ARTICLE_VALUES}"
  check_golden all-values -f "${MODULE}/all-values.yaml"
}

# --- 4. what the renders hold --------------------------------------------------------------------

check_render_contents() {
  step "RBAC, security context, environment, IRSA, ServiceMonitor"
  local name out
  for name in default article; do
    out="$(python3 "${CHECKS}" rbac "${WORK}/${name}.yaml" "${UPSTREAM_RBAC}" 2>&1)" ||
      fail "${name}: RBAC differs from upstream's:
${out}"
    pass "${name}: RBAC equals upstream's (${out##*$'\n'}), bound to the chart's ServiceAccount"
    out="$(python3 "${CHECKS}" security "${WORK}/${name}.yaml")" ||
      fail "${name}: not restricted: ${out}"
    pass "${name}: non-root, read-only root, no escalation, no capabilities, RuntimeDefault"
  done

  [[ -x "${KARPENTER}" ]] || fail "no karpenter binary at ${KARPENTER} (build the asan preset)"
  local settings unknown=()
  settings="$("${KARPENTER}" controller --help | sed -n 's/^  --[a-z-]* (\([A-Z_]*\))$/\1/p')"
  [[ -n "${settings}" ]] || fail "karpenter controller --help lists no settings"
  while read -r name; do
    grep -qx "${name}" <<<"${settings}" || unknown+=("${name}")
  done < <(python3 "${CHECKS}" env-names "${WORK}/article.yaml")
  [[ "${#unknown[@]}" -eq 0 ]] ||
    fail "the container gets variables the binary does not read: ${unknown[*]}"
  pass "every variable the container gets is a setting of karpenter controller"
  [[ "$(python3 "${CHECKS}" command "${WORK}/article.yaml" | tr '\n' ' ')" == "/karpenter controller " ]] ||
    fail "the container's command is not /karpenter controller"

  grep -q 'eks.amazonaws.com/role-arn: arn:aws:iam::111122223333:role/KarpenterControllerRole-article-cluster' \
    "${WORK}/article.yaml" || fail "the IRSA annotation is not on the ServiceAccount"
  pass "the IRSA role annotation reaches the ServiceAccount"

  grep -q '^kind: ServiceMonitor' "${WORK}/default.yaml" && fail "a ServiceMonitor by default"
  render "${REQUIRED_SETTINGS[@]}" --set serviceMonitor.enabled=true | grep -q '^kind: ServiceMonitor' &&
    fail "a ServiceMonitor where monitoring.coreos.com/v1 is not served"
  render "${REQUIRED_SETTINGS[@]}" --set serviceMonitor.enabled=true \
    --api-versions monitoring.coreos.com/v1 | grep -q '^kind: ServiceMonitor' ||
    fail "no ServiceMonitor when enabled and served"
  pass "a ServiceMonitor only when enabled and monitoring.coreos.com/v1 is served"
}

# --- 5. the API server ---------------------------------------------------------------------------

check_server_dry_run() {
  step "a control plane: the CRDs, then kubectl apply --dry-run=server of the renders"
  "${CP}" start "${DIR}" >/dev/null
  # shellcheck disable=SC1091  # written by start
  KUBECTL="$(source "${DIR}/env" && printf '%s' "${KP_KUBECTL}")"
  k apply --server-side -f "${CHART}/crds/" >/dev/null
  k wait --for condition=Established --timeout=60s crd/nodepools.karpenter.sh \
    crd/nodeclaims.karpenter.sh crd/ec2nodeclasses.karpenter.k8s.aws >/dev/null ||
    fail "the CRDs were not Established"
  k create namespace "${NAMESPACE}" >/dev/null
  local name out
  for name in default article all-values; do
    out="$(k apply --dry-run=server --validate=strict -f "${WORK}/${name}.yaml" 2>&1)" ||
      fail "the API server refuses the ${name} render: ${out}"
    pass "the API server accepts the ${name} render ($(grep -c . <<<"${out}") objects)"
  done
}

# --- 6. the rendered command -------------------------------------------------------------------

start_moto() {
  local port="$1"
  # moto records every request it answers, for the IAM policy check.
  MOTO_ENABLE_RECORDING=True MOTO_RECORDER_FILEPATH="${WORK}/aws-requests.jsonl" \
    setsid python3 -m moto.server -H 127.0.0.1 -p "${port}" >"${WORK}/moto.log" 2>&1 &
  MOTO_PID=$!
  wait_for 60 curl -sf "http://127.0.0.1:${port}/moto-api/" ||
    fail "moto did not start: $(tail -5 "${WORK}/moto.log")"
  python3 - "http://127.0.0.1:${port}" "$2" <<'PY'
import sys, boto3
boto3.client("sqs", endpoint_url=sys.argv[1], region_name="us-west-2", aws_access_key_id="test",
             aws_secret_access_key="test").create_queue(QueueName=sys.argv[2])
PY
  # The queue is the fixture's: only the controller's own requests are checked.
  curl -sf -X POST "http://127.0.0.1:${port}/moto-api/recorder/reset-recording" >/dev/null ||
    fail "moto's recorder did not reset"
}

# A kubeconfig that is what the pod's mounted token would be: the ServiceAccount's token and the
# release namespace, so the controller gets exactly the chart's RBAC.
write_service_account_kubeconfig() {
  local token
  token="$(k -n "${NAMESPACE}" create token "${RELEASE}" --duration=1h)"
  local server
  # shellcheck disable=SC1091  # written by start
  server="$(source "${DIR}/env" && printf '%s' "${KP_APISERVER_URL}")"
  cat >"${WORK}/sa.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: test
  cluster: {server: "${server}", certificate-authority: "${DIR}/pki/ca.crt"}
users:
- name: ${RELEASE}
  user: {token: "${token}"}
contexts:
- name: ${RELEASE}
  context: {cluster: test, user: ${RELEASE}, namespace: ${NAMESPACE}}
current-context: ${RELEASE}
YAML
}

# KIND's object "default" (the article's) carries status conditions.
has_conditions() {
  k get "$1" default -o jsonpath='{.status.conditions[*].type}' | grep -q .
}

http_ok() { curl -sf -o /dev/null "http://127.0.0.1:$1$2"; }

lease_holder() {
  k -n "${NAMESPACE}" get lease karpenter-leader-election -o jsonpath='{.spec.holderIdentity}' |
    grep -q .
}

check_rendered_command_runs() {
  step "run the rendered container command with its environment, as the chart's ServiceAccount"
  python3 -c 'import moto, boto3' 2>/dev/null ||
    fail "python3 cannot import moto (scripts/setup.sh --with-moto installs it)"
  local metrics_port health_port moto_port queue
  metrics_port="$(free_port)"
  health_port="$(free_port)"
  moto_port="$(free_port)"
  render -f "${ARTICLE_VALUES}" --set "controller.metrics.port=${metrics_port}" \
    --set "controller.healthProbe.port=${health_port}" >"${WORK}/run.yaml"
  k apply -f "${WORK}/run.yaml" >/dev/null || fail "applying the render failed"
  # The article's objects give the controllers status to write (with the chart's RBAC).
  k apply -f "${ROOT}/examples/article/ec2nodeclass.yaml" -f "${ROOT}/examples/article/nodepool.yaml" \
    >/dev/null || fail "applying the article's EC2NodeClass and NodePool failed"
  queue="$(sed -n 's/^INTERRUPTION_QUEUE=//p' < <(python3 "${CHECKS}" run-env "${WORK}/run.yaml"))"
  [[ -n "${queue}" ]] || fail "the article's render sets no INTERRUPTION_QUEUE"
  start_moto "${moto_port}" "${queue}"
  write_service_account_kubeconfig

  local env=() line
  while IFS= read -r line; do env+=("${line}"); done < <(python3 "${CHECKS}" run-env "${WORK}/run.yaml")
  printf '%s\n' "${env[@]}" | grep -qx "METRICS_PORT=${metrics_port}" ||
    fail "controller.metrics.port did not become METRICS_PORT"
  env+=("KUBECONFIG=${WORK}/sa.kubeconfig" "AWS_REGION=us-west-2"
    "AWS_ENDPOINT_URL=http://127.0.0.1:${moto_port}" "AWS_ACCESS_KEY_ID=test"
    "AWS_SECRET_ACCESS_KEY=test" "PATH=/usr/bin:/bin")
  local words=()
  while IFS= read -r line; do words+=("${line}"); done < <(python3 "${CHECKS}" command "${WORK}/run.yaml")
  words[0]="${KARPENTER}"

  local out rc=0
  out="$(env -i "${env[@]}" "${words[@]}" --no-such-setting 2>&1)" || rc=$?
  [[ "${rc}" -eq 1 && "$(grep -c . <<<"${out}")" -eq 1 ]] ||
    fail "an unknown setting gave exit ${rc} and: ${out}"
  pass "an unknown setting: exit 1, one line (${out})"

  env -i "${env[@]}" "${words[@]}" >"${WORK}/controller.log" 2>&1 &
  CONTROLLER_PID=$!
  wait_for 60 http_ok "${health_port}" /healthz ||
    fail "no /healthz on ${health_port}: $(tail -20 "${WORK}/controller.log")"
  pass "/healthz answers on the rendered HEALTH_PROBE_PORT"
  wait_for 60 http_ok "${health_port}" /readyz ||
    fail "never ready (the informers did not sync): $(tail -20 "${WORK}/controller.log")"
  pass "/readyz answers: every informer listed and watched with the chart's RBAC"
  wait_for 60 lease_holder || fail "the Lease was not taken: $(tail -20 "${WORK}/controller.log")"
  pass "the leader-election Lease in ${NAMESPACE} is held"
  http_ok "${metrics_port}" /metrics || fail "no /metrics on the rendered METRICS_PORT"
  pass "/metrics answers on the rendered METRICS_PORT"
  wait_for 60 has_conditions ec2nodeclass ||
    fail "the EC2NodeClass got no status: $(tail -20 "${WORK}/controller.log")"
  wait_for 60 has_conditions nodepool ||
    fail "the NodePool got no status: $(tail -20 "${WORK}/controller.log")"
  pass "it wrote the article's EC2NodeClass and NodePool status"
  local actions
  actions="$(python3 "${ROOT}/test/iam/iam_policy_check.py" recorded "${WORK}/aws-requests.jsonl" \
    "${ROOT}/docs/iam/controller-policy.json" 2>&1)" ||
    fail "the controller called AWS beyond docs/iam/controller-policy.json: ${actions}"
  [[ -n "${actions}" ]] || fail "moto recorded no request of the controller"
  pass "every AWS call it made is granted by docs/iam/controller-policy.json (${actions})"
  if grep -i 'forbidden' "${WORK}/controller.log"; then
    fail "the chart's RBAC refused a request (above)"
  fi
  pass "no request refused as forbidden in the controller's log"
  kill -TERM "${CONTROLLER_PID}"
  rc=0
  wait "${CONTROLLER_PID}" || rc=$?
  CONTROLLER_PID=""
  [[ "${rc}" -eq 0 ]] || fail "exit ${rc} on SIGTERM: $(tail -20 "${WORK}/controller.log")"
  pass "it stops with exit 0 on SIGTERM"
  # Releasing is an update of the Lease by name: the Role's resourceNames rule.
  lease_holder && fail "the Lease is still held after SIGTERM"
  pass "it released the Lease"
}

main() {
  [[ "${1:-}" == "--regen" ]] && REGEN=1
  if ! command -v go >/dev/null 2>&1; then
    echo "helm_chart: skipped (no go command; scripts/setup.sh --with-go installs one)"
    exit 0
  fi
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-helm-chart.XXXXXX")"
  DIR="${WORK}/cluster"
  build_helm
  check_lint_and_required
  check_renders
  check_render_contents
  if [[ "${REGEN}" == "1" ]]; then
    printf '\nhelm_chart: golden files rewritten; run again without --regen\n'
    return
  fi
  check_server_dry_run
  check_rendered_command_runs
  printf '\nhelm_chart: %d passed, 0 failed\n' "${PASSED}"
}

main "$@"

#!/usr/bin/env bash
# Checks the project's CRDs (charts/karpenter/crds/) against `karpenter validate` on a real API
# server, run by scripts/test.sh after the asan build:
#   1. start a control plane, apply the three CRDs and wait until they are Established;
#   2. a status field our model has beyond upstream's CRD (an EC2NodeClass capacity reservation's
#      availableInstanceCount) is refused as an unknown field;
#   3. the printer columns (with a NodeClaim's values in them), the short names and the
#      `karpenter` category are served;
#   4. for every file of test/validation/malformed/, every examples/article/ manifest and every
#      distinct NodePool, NodeClaim and EC2NodeClass of test/scenarios/ and examples/sim/ (split by
#      crd_agreement_docs.py): the server's verdict is `kubectl create --dry-run=server`, and for a
#      custom resource that carries a status, also a dry-run server-side apply of that status to the
#      status subresource (on the object created for real, then deleted); `karpenter validate`
#      gives the other verdict. Both must accept or both reject, except for the objects listed in
#      test/validation/crd_agreement_expected.txt with the side that is stricter and why; a listed
#      object on which the two now agree fails the test as well;
#   5. every custom resource the server accepted, as the server defaulted it, decodes to the same
#      spec as the object as written with the model's defaults (test/crd_defaults_test.cc);
#   6. the server's refusal of each malformed file names the field the file breaks, or an ancestor
#      of it (crd_agreement_reasons.py), except where the expectations file says otherwise.
# Environment: KP_KARPENTER (default build/asan/cmd/karpenter/karpenter), KP_CRD_DEFAULTS_TEST
# (default build/asan/test/kp_crd_defaults_test), KP_CRD_AGREEMENT_KEEP=1
# keeps the work folder (verdicts and server messages in WORK/results.tsv).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly CP="${ROOT}/scripts/controlplane.sh"
readonly CRDS="${ROOT}/charts/karpenter/crds"
readonly EXPECTED="${ROOT}/test/validation/crd_agreement_expected.txt"
readonly KARPENTER="${KP_KARPENTER:-${ROOT}/build/asan/cmd/karpenter/karpenter}"
readonly DEFAULTS_TEST="${KP_CRD_DEFAULTS_TEST:-${ROOT}/build/asan/test/kp_crd_defaults_test}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-crd-agreement.XXXXXX")"
readonly WORK
readonly DIR="${WORK}/cluster"
KUBECTL=""

cleanup() {
  "${CP}" stop "${DIR}" >/dev/null 2>&1 || true
  if [[ "${KP_CRD_AGREEMENT_KEEP:-0}" == "1" ]]; then
    echo "kept ${WORK}"
  else
    rm -rf "${WORK}"
  fi
}
trap cleanup EXIT

step() { printf '\n--> %s\n' "$*"; }

fail() {
  printf '  FAILED: %s\n' "$*" >&2
  exit 1
}

k() { "${KUBECTL}" --kubeconfig "${DIR}/kubeconfig" "$@"; }

start_and_install() {
  [[ -x "${KARPENTER}" ]] || fail "no karpenter binary at ${KARPENTER} (build the asan preset)"
  [[ -x "${DEFAULTS_TEST}" ]] || fail "no ${DEFAULTS_TEST} (build the asan preset)"
  step "start a control plane and install the CRDs"
  "${CP}" start "${DIR}" >/dev/null
  # shellcheck disable=SC1091  # written by start
  KUBECTL="$(source "${DIR}/env" && printf '%s' "${KP_KUBECTL}")"
  k apply -f "${CRDS}/" >/dev/null
  k wait --for condition=Established --timeout=60s crd/nodepools.karpenter.sh \
    crd/nodeclaims.karpenter.sh crd/ec2nodeclasses.karpenter.k8s.aws >/dev/null ||
    fail "the CRDs were not Established"
  echo "  ok: $(find "${CRDS}" -name '*.yaml' | wc -l) CRDs Established"
}

check_extra_status_field_refused() {
  step "a status field beyond upstream's CRD is refused"
  k create -f - >/dev/null <<'YAML'
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: extra-field}
spec:
  amiSelectorTerms: [{alias: al2023@latest}]
  role: KarpenterNodeRole
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: c}}]
YAML
  local head='{"apiVersion":"karpenter.k8s.aws/v1","kind":"EC2NodeClass","metadata":{"name":"extra-field"}'
  local reservation='{"id":"cr-0123456789abcdef0","instanceType":"m5.large","ownerID":"123456789012","availabilityZone":"us-east-1a","instanceMatchCriteria":"open","state":"active","reservationType":"default"'
  status_apply() {
    k apply --server-side --subresource=status --dry-run=server --validate=strict -f - <<<"$1"
  }
  status_apply "${head},\"status\":{\"capacityReservations\":[${reservation}}]}}" >/dev/null ||
    fail "the status subresource refused a capacity reservation upstream's CRD accepts"
  local out rc=0
  out="$(status_apply \
    "${head},\"status\":{\"capacityReservations\":[${reservation},\"availableInstanceCount\":3}]}}" \
    2>&1)" || rc=$?
  [[ "${rc}" -ne 0 ]] || fail "availableInstanceCount was accepted: ${out}"
  # Server-side apply words an unknown field as one "not declared in schema".
  grep -qE 'unknown field|field not declared in schema' <<<"${out}" ||
    fail "refused, but not as an unknown field: ${out}"
  echo "  ok: availableInstanceCount is an unknown field"
  k delete ec2nodeclasses.karpenter.k8s.aws extra-field >/dev/null
}

# Header words of `kubectl get RESOURCE -o wide`.
header_of() { k get "$1" -o wide | head -n 1 | tr -s ' '; }

check_names_and_columns() {
  step "short names, the karpenter category and printer columns"
  k create -f "${ROOT}/examples/article/ec2nodeclass.yaml" -f "${ROOT}/examples/article/nodepool.yaml" \
    >/dev/null
  k create -f - >/dev/null <<'YAML'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: columns-1
  labels:
    node.kubernetes.io/instance-type: m5.large
    karpenter.sh/capacity-type: spot
    topology.kubernetes.io/zone: us-east-1a
    karpenter.sh/nodepool: default
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
YAML
  k apply --server-side --subresource=status -f - >/dev/null <<'YAML'
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: columns-1}
status:
  nodeName: ip-10-0-1-5.ec2.internal
  providerID: aws:///us-east-1a/i-0123456789abcdef0
  imageID: ami-0123456789abcdef0
  conditions:
  - {type: Ready, status: "True", reason: Ready, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
YAML
  local got want
  want="NAME TYPE CAPACITY ZONE NODE READY AGE IMAGEID ID NODEPOOL NODECLASS DRIFTED"
  got="$(header_of nodeclaims)"
  [[ "${got}" == "${want}" ]] || fail "NodeClaim columns: got '${got}', want '${want}'"
  # Every column but the last (Drifted) has a value, so words line up with the header's.
  got="$(k get nodeclaims columns-1 -o wide --no-headers | tr -s ' ' | cut -d' ' -f2-6,8-11)"
  want="m5.large spot us-east-1a ip-10-0-1-5.ec2.internal True ami-0123456789abcdef0"
  want+=" aws:///us-east-1a/i-0123456789abcdef0 default default"
  [[ "${got}" == "${want}" ]] || fail "NodeClaim row: got '${got}', want '${want}'"
  want="NAME NODECLASS NODES READY AGE WEIGHT CPU MEMORY"
  got="$(header_of nodepools)"
  [[ "${got}" == "${want}" ]] || fail "NodePool columns: got '${got}', want '${want}'"
  want="NAME READY AGE ROLE"
  got="$(header_of ec2nc)"
  [[ "${got}" == "${want}" ]] || fail "EC2NodeClass columns (short name ec2nc): got '${got}', want '${want}'"
  k get ec2ncs >/dev/null || fail "no short name ec2ncs"
  got="$(k get karpenter -o name | sort | tr '\n' ' ')"
  want="ec2nodeclass.karpenter.k8s.aws/default nodeclaim.karpenter.sh/columns-1 nodepool.karpenter.sh/default "
  [[ "${got}" == "${want}" ]] || fail "kubectl get karpenter: got '${got}', want '${want}'"
  echo "  ok: columns of the three kinds, short names ec2nc and ec2ncs, category karpenter"
  k delete nodeclaims columns-1 >/dev/null
  k delete -f "${ROOT}/examples/article/nodepool.yaml" -f "${ROOT}/examples/article/ec2nodeclass.yaml" \
    >/dev/null
}

# Prints "accept" or "reject: MESSAGE" for object N (see crd_agreement_docs.py for the files).
server_verdict() {
  local base="$1" resource="$2" name="$3" namespace="$4" out
  # create rather than apply: for a new object they are the same request, but a client-side apply
  # refuses generateName and a missing name itself, before the server could judge them.
  if ! k create --dry-run=server -o json -f "${base}.yaml" >"${base}.server.json" 2>"${base}.err"; then
    out="$(cat "${base}.err")"
    printf 'reject: %s' "${out//$'\n'/ }"
    rm -f "${base}.server.json"
    return
  fi
  # The defaulted object the server returned is kept for kp_crd_defaults_test (custom kinds only).
  [[ "${resource}" == *.karpenter.* ]] || rm -f "${base}.server.json"
  if [[ ! -f "${base}.status.json" ]]; then
    echo accept
    return
  fi
  local ns=()
  [[ -z "${namespace}" ]] || ns=(-n "${namespace}")
  k "${ns[@]}" create -f "${base}.create.yaml" >/dev/null
  local rc=0
  out="$(k apply --server-side --subresource=status --dry-run=server --validate=strict \
    -f "${base}.status.json" 2>&1)" || rc=$?
  k "${ns[@]}" delete "${resource}" "${name}" >/dev/null
  if [[ "${rc}" -ne 0 ]]; then
    printf 'reject (status): %s' "${out//$'\n'/ }"
    return
  fi
  echo accept
}

validate_verdict() {
  local out
  if out="$("${KARPENTER}" validate -f "$1" 2>&1)"; then
    echo accept
  else
    printf 'reject: %s' "${out//$'\n'/ }"
  fi
}

check_agreement() {
  step "server and karpenter validate agree, object by object"
  local docs="${WORK}/docs"
  python3 "${ROOT}/test/controlplane/crd_agreement_docs.py" "${docs}" "${ROOT}"
  local namespace
  while read -r namespace; do
    [[ -z "${namespace}" ]] && continue
    k get namespace "${namespace}" >/dev/null 2>&1 || k create namespace "${namespace}" >/dev/null
  done < <(cut -f5 "${docs}/index.tsv" | sort -u)
  declare -A expected=()
  local label side reason
  while read -r label side reason; do
    [[ -z "${label}" || "${label}" == \#* ]] && continue
    [[ -n "${reason}" ]] || fail "${EXPECTED}: ${label}: no reason given"
    case "${side}" in
      validate-stricter | server-stricter) expected["${label}"]="${side}" ;;
      server-reason-differs) ;;  # crd_agreement_reasons.py's
      *) fail "${EXPECTED}: ${label}: unknown side ${side}" ;;
    esac
  done <"${EXPECTED}"

  local n resource name server validate got problems=0 agree=0 listed=0 total=0
  local both_reject=0 both_accept=0
  : >"${WORK}/results.tsv"
  while IFS=$'\t' read -r n label resource name namespace; do
    total=$((total + 1))
    server="$(server_verdict "${docs}/${n}" "${resource}" "${name}" "${namespace}")"
    validate="$(validate_verdict "${docs}/${n}.yaml")"
    printf '%s\tserver=%s\tvalidate=%s\n' "${label}" "${server}" "${validate}" >>"${WORK}/results.tsv"
    got=agree
    if [[ "${server}" == accept && "${validate}" != accept ]]; then
      got="validate-stricter"
    elif [[ "${server}" != accept && "${validate}" == accept ]]; then
      got="server-stricter"
    fi
    local want="${expected[${label}]:-agree}"
    unset "expected[${label}]"
    if [[ "${got}" != "${want}" ]]; then
      problems=$((problems + 1))
      printf '  MISMATCH %s: %s, expected %s\n    server:   %s\n    validate: %s\n' \
        "${label}" "${got}" "${want}" "${server:0:400}" "${validate:0:400}" >&2
      continue
    fi
    if [[ "${got}" == agree ]]; then
      agree=$((agree + 1))
      [[ "${server}" == accept ]] && both_accept=$((both_accept + 1)) ||
        both_reject=$((both_reject + 1))
    else
      listed=$((listed + 1))
    fi
  done <"${docs}/index.tsv"
  for label in "${!expected[@]}"; do
    problems=$((problems + 1))
    printf '  STALE %s is listed in %s but is no object checked\n' "${label}" "${EXPECTED}" >&2
  done
  printf '  %d objects: %d agree (%d both reject, %d both accept), %d differ as listed, %d problems\n' \
    "${total}" "${agree}" "${both_reject}" "${both_accept}" "${listed}" "${problems}"
  [[ "${problems}" -eq 0 ]] || fail "${problems} object(s) disagree other than as listed in ${EXPECTED}"

  step "the server's defaults are the model's"
  KP_CRD_DEFAULTS_DIR="${docs}" "${DEFAULTS_TEST}" --gtest_brief=1 ||
    fail "the API server defaults custom resources differently from the model (above)"

  step "the server refuses each malformed file for the field it breaks"
  python3 "${ROOT}/test/controlplane/crd_agreement_reasons.py" "${WORK}/results.tsv" "${EXPECTED}" \
    "${ROOT}" || fail "the server refused malformed files for other reasons than listed"
}

main() {
  start_and_install
  check_extra_status_field_refused
  check_names_and_columns
  check_agreement
  printf '\ncrd agreement: passed\n'
}

main "$@"

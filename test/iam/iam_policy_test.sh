#!/usr/bin/env bash
# Tests the controller's IAM policy (docs/iam/controller-policy.json), run by scripts/test.sh:
#   1. its shape: Allow statements with Sids, no wildcard action, nothing mutating on "*", only
#      the placeholders docs/iam.md explains;
#   2. it grants exactly the actions the provider's production sources send (src/aws), apart
#      from the ones iam_policy_check.py lists as not granted with their reasons;
#   3. the checker itself: a policy missing an action the code sends, and a recording of a call
#      the policy does not grant, both fail, naming the action; a recording of granted calls in
#      both protocols (and an unsigned one) passes.
# The recording check runs on real traffic in test/controlplane/helm_chart.sh (the controller
# against moto).
set -euo pipefail
# shellcheck source=../lib/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/checks.sh"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly ROOT
readonly CHECK="${ROOT}/test/iam/iam_policy_check.py"
readonly POLICY="${ROOT}/docs/iam/controller-policy.json"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kp-iam-policy.XXXXXX")"
readonly WORK
trap 'rm -rf "${WORK}"' EXIT



# One moto recorder line: METHOD URL AUTH-SERVICE TARGET BODY (an empty service: unsigned).
record() {
  python3 - "$@" <<'PY'
import json, sys
method, url, service, target, body = sys.argv[1:]
headers = {}
if service:
    headers["Authorization"] = ("AWS4-HMAC-SHA256 Credential=test/20260101/us-west-2/"
                                f"{service}/aws4_request, SignedHeaders=host, Signature=0")
if target:
    headers["X-Amz-Target"] = target
print(json.dumps({"method": method, "url": url, "headers": headers, "body": body,
                  "body_encoded": False}))
PY
}

main() {
  local out
  out="$(python3 "${CHECK}" lint "${POLICY}")" || fail "the policy's shape: ${out}"
  pass "Allow statements with Sids, no wildcard action, nothing mutating on every resource"
  out="$(python3 "${CHECK}" code "${ROOT}/src/aws" "${POLICY}")" ||
    fail "the policy and the provider's calls differ:
${out}"
  pass "the policy grants exactly what src/aws sends (apart from the listed exceptions)"

  python3 - "${POLICY}" "${WORK}/short.json" <<'PY'
import json, sys
policy = json.load(open(sys.argv[1]))
for statement in policy["Statement"]:
    statement["Action"] = [a for a in statement["Action"] if a != "ec2:DescribeSubnets"]
json.dump(policy, open(sys.argv[2], "w"))
PY
  out="$(python3 "${CHECK}" code "${ROOT}/src/aws" "${WORK}/short.json")" &&
    fail "a policy without ec2:DescribeSubnets passed"
  grep -q 'sends ec2:DescribeSubnets' <<<"${out}" || fail "the missing action was not named: ${out}"
  pass "a policy missing an action the code sends fails, naming it"

  {
    record POST http://127.0.0.1/ ec2 "" "Action=DescribeSubnets&Version=2016-11-15"
    record POST http://127.0.0.1/ sqs AmazonSQS.ReceiveMessage '{"QueueUrl": "q"}'
    record POST http://127.0.0.1/ "" "" "Action=AssumeRoleWithWebIdentity&Version=2011-06-15"
  } >"${WORK}/granted.jsonl"
  out="$(python3 "${CHECK}" recorded "${WORK}/granted.jsonl" "${POLICY}" 2>&1)" ||
    fail "granted calls were refused: ${out}"
  [[ "${out}" == "ec2:DescribeSubnets sqs:ReceiveMessage" ]] || fail "actions read: ${out}"
  pass "a recording of granted calls passes (query and JSON protocols; unsigned skipped)"
  record POST "http://127.0.0.1/?Action=CreateVpc" ec2 "" "" >>"${WORK}/granted.jsonl"
  out="$(python3 "${CHECK}" recorded "${WORK}/granted.jsonl" "${POLICY}" 2>/dev/null)" &&
    fail "a recorded CreateVpc passed"
  grep -q 'called ec2:CreateVpc' <<<"${out}" || fail "CreateVpc was not named: ${out}"
  pass "a recorded call the policy does not grant fails, naming it"
  out="$(python3 "${CHECK}" recorded "${WORK}/granted.jsonl" "${POLICY}" test 2>/dev/null)" &&
    fail "CreateVpc signed with the controller's key passed"
  out="$(python3 "${CHECK}" recorded "${WORK}/granted.jsonl" "${POLICY}" fixture 2>&1)" ||
    fail "calls signed with another key than the controller's were counted: ${out}"
  pass "given the controller's access key, calls signed with other keys (fixtures) do not count"
  printf '\niam_policy_test: %d passed, 0 failed\n' "${PASSED}"
}

main "$@"

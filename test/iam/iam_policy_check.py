#!/usr/bin/env python3
"""Checks docs/iam/controller-policy.json against what the AWS provider calls.

  lint POLICY              the policy's shape: Allow statements with Sids, no wildcard action,
                           no mutating action on Resource "*", only known ${...} placeholders
  code SRC_AWS POLICY      the actions the provider's production sources can send (QueryRequest
                           and JSON-protocol targets in src/aws/*.cc, tests excluded) equal the
                           policy's actions, apart from NOT_GRANTED below
  recorded FILE POLICY [ACCESS_KEY]
                           every signed request in a moto recording (MOTO_ENABLE_RECORDING) is an
                           action the policy grants (or sts:GetCallerIdentity, which needs none);
                           with ACCESS_KEY, only requests signed with it (the controller's, not
                           the test fixtures'); prints the actions seen

Each prints what is wrong and exits 1.
"""
import base64
import json
import os
import re
import sys
from urllib.parse import parse_qs, urlparse

# Actions the provider's code can send that the policy does not grant, and why.
NOT_GRANTED = {
    "sqs:CreateQueue": "the tests' fixture; the queue is the user's (CloudFormation makes it)",
    "sqs:SendMessage": "the tests' fixture; EventBridge sends the interruption messages",
    "sts:GetCallerIdentity": "needs no permission (AWS answers it for any credentials)",
    "sts:AssumeRoleWithWebIdentity": "IRSA: unsigned, allowed by the role's trust policy",
    "eks:CreateCluster": "the tests' fixture; the cluster is the user's",
}
# The service of each source file that builds query-protocol requests.
QUERY_SERVICE = {"ec2_client.cc": "ec2", "ec2_launch.cc": "ec2", "iam_client.cc": "iam",
                 "sts_client.cc": "sts", "credential_chain.cc": "sts"}
# JSON-protocol target prefixes and their IAM service prefixes.
JSON_SERVICE = {"AmazonSSM": "ssm", "AWSPriceListService": "pricing", "AmazonSQS": "sqs"}
# REST-JSON clients (operation named in their `Send` call) and their IAM service prefixes.
REST_SERVICE = {"eks_client.cc": "eks"}
PLACEHOLDERS = {"Partition", "Region", "AccountId", "ClusterName", "NodeRoleArn",
                "InterruptionQueueArn"}
READ_ONLY = re.compile(r":(Describe|Get|List)[A-Z]")


def load_policy(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def as_list(value):
    return value if isinstance(value, list) else [value]


def granted(policy):
    return {a for s in policy["Statement"] for a in as_list(s["Action"])}


def lint(policy_path):
    problems = []
    policy = load_policy(policy_path)
    sids = set()
    for statement in policy["Statement"]:
        sid = statement.get("Sid", "")
        if not sid or sid in sids:
            problems.append(f"statement without a unique Sid: {statement}")
        sids.add(sid)
        if statement.get("Effect") != "Allow":
            problems.append(f"{sid}: Effect {statement.get('Effect')}")
        for action in as_list(statement["Action"]):
            if "*" in action:
                problems.append(f"{sid}: wildcard action {action}")
            if statement["Resource"] == "*" and not READ_ONLY.search(action):
                problems.append(f"{sid}: {action} on every resource")
    for name in re.findall(r"\$\{(\w+)\}", open(policy_path, encoding="utf-8").read()):
        if name not in PLACEHOLDERS:
            problems.append(f"unknown placeholder ${{{name}}}")
    return problems


def production_sources(src_aws):
    for name in sorted(os.listdir(src_aws)):
        if name.endswith(".cc") and not name.endswith("_test.cc") and not name.startswith("test_"):
            yield name, open(os.path.join(src_aws, name), encoding="utf-8").read()


def code_actions(src_aws):
    actions, problems = set(), []
    for name, text in production_sources(src_aws):
        for operation in re.findall(r'QueryRequest\s*(?:\w+\s*)?\(\s*"([A-Z]\w+)"', text):
            if name not in QUERY_SERVICE:
                problems.append(f"{name} sends {operation}: add the file's service to QUERY_SERVICE")
                continue
            actions.add(f"{QUERY_SERVICE[name]}:{operation}")
        for prefix, operation in re.findall(r'CallJson\(\s*"(\w+)\.(\w+)"', text):
            actions.add(f"{JSON_SERVICE[prefix]}:{operation}")
        if name == "sqs_client.cc":
            actions.update(f"sqs:{op}" for op in re.findall(r'\bCall\(\s*"(\w+)"', text))
        if name in REST_SERVICE:
            actions.update(f"{REST_SERVICE[name]}:{op}"
                           for op in re.findall(r'\.Send\([^;]*?"([A-Z]\w+)"\)', text, re.S))
    return actions, problems


def check_code(src_aws, policy_path):
    actions, problems = code_actions(src_aws)
    grants = granted(load_policy(policy_path))
    for action in sorted(actions - grants - set(NOT_GRANTED)):
        problems.append(f"the provider sends {action}, which the policy does not grant")
    for action in sorted(grants - actions - {"iam:PassRole"}):
        problems.append(f"the policy grants {action}, which the provider never sends")
    for action in sorted(set(NOT_GRANTED) & grants):
        problems.append(f"{action} is granted although NOT_GRANTED says: {NOT_GRANTED[action]}")
    # A fixture-only call must stay fixture-only: no production caller outside its own client.
    for action in ("sqs:CreateQueue", "sqs:SendMessage", "eks:CreateCluster"):
        method = action.split(":")[1]
        for name, text in production_sources(src_aws):
            if name != "sqs_client.cc" and re.search(rf"\.{method}\(", text):
                problems.append(f"{name} calls {method}: grant {action} or stop calling it")
    # PassRole is not a request: EC2 checks it when a launch names the instance profile.
    if "ec2:CreateFleet" in actions and "iam:PassRole" not in grants:
        problems.append("launches pass the node role: iam:PassRole is needed")
    return problems


def recorded_action(entry):
    """The IAM action of one recorded request, or None when it is unsigned."""
    headers = {k.lower(): v for k, v in entry.get("headers", {}).items()}
    scope = re.search(r"Credential=[^/]+/\d{8}/[^/]+/([^/]+)/aws4_request",
                      headers.get("authorization", ""))
    if not scope:
        return None
    service = scope.group(1)
    target = headers.get("x-amz-target")
    if target:
        return f"{service}:{target.split('.')[-1]}"
    body = entry.get("body") or ""
    if entry.get("body_encoded"):
        body = base64.b64decode(body).decode("utf-8", "replace")
    fields = parse_qs(body)
    fields.update(parse_qs(urlparse(entry.get("url", "")).query))
    operation = fields.get("Action", [None])[0]
    # EKS speaks REST: GET /clusters/<name> is DescribeCluster.
    if service == "eks" and not operation and entry.get("method", "GET") == "GET" and \
            re.match(r"^/clusters/[^/]+$", urlparse(entry.get("url", "")).path):
        return "eks:DescribeCluster"
    return f"{service}:{operation}" if operation else f"{service}:? {entry.get('url')}"


def access_key_of(entry):
    headers = {k.lower(): v for k, v in entry.get("headers", {}).items()}
    match = re.search(r"Credential=([^/]+)/", headers.get("authorization", ""))
    return match.group(1) if match else None


def check_recorded(recording, policy_path, access_key=None):
    # Only what needs no permission is let through. A fixture's own calls are either not
    # recorded or signed with another access key than the controller's (`access_key`).
    grants = granted(load_policy(policy_path)) | {"sts:GetCallerIdentity"}
    seen, problems = set(), []
    with open(recording, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                entry = json.loads(line)
                if access_key and access_key_of(entry) != access_key:
                    continue
                action = recorded_action(entry)
                if action:
                    seen.add(action)
    for action in sorted(seen - grants):
        problems.append(f"called {action}, which the policy does not grant")
    print(" ".join(sorted(seen)), file=sys.stderr)
    return problems


def main(argv):
    if len(argv) == 3 and argv[1] == "lint":
        problems = lint(argv[2])
    elif len(argv) == 4 and argv[1] == "code":
        problems = check_code(argv[2], argv[3])
    elif len(argv) in (4, 5) and argv[1] == "recorded":
        problems = check_recorded(argv[2], argv[3], argv[4] if len(argv) == 5 else None)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

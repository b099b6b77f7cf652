#!/usr/bin/env python3
"""Checks on a rendered charts/karpenter for test/controlplane/helm_chart.sh.

  rbac RENDER EXPECTED     every (role, apiGroup, resource, verb, resourceName) the rendered
                           Roles and ClusterRoles grant equals EXPECTED's; every binding grants
                           a role of the render to the controller's ServiceAccount only
  security RENDER          the controller pod and container run restricted
  env-names RENDER         the names of the controller container's environment variables
  command RENDER           the controller container's command and args, one word a line
  run-env RENDER           NAME=value for each variable, with the valueFrom forms the chart uses
                           resolved as the kubelet would (Downward API)

Each check prints what is wrong and exits 1; a render that is not what the chart makes (no
Deployment, an unknown valueFrom) exits 2.
"""
import re
import sys

import yaml

ROLE_KINDS = ("Role", "ClusterRole")
BINDING_KINDS = ("RoleBinding", "ClusterRoleBinding")


def load(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d]


def die(message, code=2):
    print(message, file=sys.stderr)
    sys.exit(code)


def role_key(doc):
    where = f"{doc['kind']}/{doc['metadata']['name']}"
    if doc["kind"] in ("Role", "RoleBinding"):
        where += f"@{doc['metadata'].get('namespace')}"
    return where


def expand(where, groups, resources, verbs, names):
    for group in groups:
        for resource in resources:
            for verb in verbs:
                for name in names or ["*"]:
                    yield f"{where} {group or 'core'} {resource} {verb} {name}"


def rendered_rules(docs):
    grants = set()
    for doc in docs:
        if doc["kind"] not in ROLE_KINDS:
            continue
        for rule in doc.get("rules") or []:
            grants.update(
                expand(role_key(doc), rule.get("apiGroups", []), rule.get("resources", []),
                       rule.get("verbs", []), rule.get("resourceNames")))
    return grants


def expected_rules(path):
    """EXPECTED: `ROLE GROUP RESOURCES VERBS [NAMES]`: ROLE is ClusterRole/NAME or
    Role/NAME@NAMESPACE, lists are comma-separated, GROUP `core` is the core group."""
    grants = set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) < 4:
                die(f"{path}:{number}: want ROLE GROUP RESOURCES VERBS [NAMES]")
            role = fields[0]
            group = "" if fields[1] == "core" else fields[1]
            names = fields[4].split(",") if len(fields) > 4 else None
            grants.update(
                expand(role, [group], fields[2].split(","), fields[3].split(","), names))
    return grants


def check_rbac(render, expected_path):
    docs = load(render)
    got, want = rendered_rules(docs), expected_rules(expected_path)
    problems = [f"granted beyond upstream: {g}" for g in sorted(got - want)]
    problems += [f"upstream grants, the chart does not: {g}" for g in sorted(want - got)]
    deployment = controller_deployment(docs)
    account = deployment["spec"]["template"]["spec"]["serviceAccountName"]
    namespace = deployment["metadata"]["namespace"]
    roles = {role_key(d) for d in docs if d["kind"] in ROLE_KINDS}
    for doc in docs:
        if doc["kind"] not in BINDING_KINDS:
            continue
        ref = doc["roleRef"]
        target = f"{ref['kind']}/{ref['name']}"
        if ref["kind"] == "Role":
            target += f"@{doc['metadata']['namespace']}"
        if target not in roles:
            problems.append(f"{role_key(doc)} binds {target}, which the chart does not make")
        want_subjects = [{"kind": "ServiceAccount", "name": account, "namespace": namespace}]
        if doc.get("subjects") != want_subjects:
            problems.append(f"{doc['kind']}/{doc['metadata']['name']} binds {doc.get('subjects')}")
    for problem in problems:
        print(problem)
    print(f"{len(got)} grants in {len(roles)} roles", file=sys.stderr)
    return 1 if problems else 0


def controller_deployment(docs):
    deployments = [d for d in docs if d["kind"] == "Deployment"]
    if len(deployments) != 1:
        die(f"want one Deployment in the render, found {len(deployments)}")
    return deployments[0]


def controller_container(docs):
    spec = controller_deployment(docs)["spec"]["template"]["spec"]
    return spec, spec["containers"][0]


def check_security(render):
    pod, container = controller_container(load(render))
    want_container = {
        "runAsNonRoot": True,
        "readOnlyRootFilesystem": True,
        "allowPrivilegeEscalation": False,
        "privileged": False,
    }
    problems = []
    context = container.get("securityContext") or {}
    for key, value in want_container.items():
        if context.get(key) != value:
            problems.append(f"container securityContext.{key} is {context.get(key)!r}, "
                            f"want {value!r}")
    if (context.get("capabilities") or {}).get("drop") != ["ALL"]:
        problems.append(f"container capabilities {context.get('capabilities')!r}, want drop [ALL]")
    if (context.get("capabilities") or {}).get("add"):
        problems.append("container adds capabilities")
    if not isinstance(context.get("runAsUser"), int) or context["runAsUser"] == 0:
        problems.append(f"container runAsUser {context.get('runAsUser')!r}, want a non-root uid")
    pod_context = pod.get("securityContext") or {}
    seccomp = (context.get("seccompProfile") or pod_context.get("seccompProfile") or {})
    if seccomp.get("type") != "RuntimeDefault":
        problems.append(f"seccomp profile {seccomp!r}, want RuntimeDefault")
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        if pod.get(key):
            problems.append(f"pod {key} is set")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def env_names(render):
    _, container = controller_container(load(render))
    for entry in container.get("env") or []:
        print(entry["name"])
    return 0


def command(render):
    _, container = controller_container(load(render))
    for word in (container.get("command") or []) + (container.get("args") or []):
        print(word)
    return 0


# Quantities as the Downward API divides them: the chart asks for millicores and bytes.
SUFFIXES = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12,
            "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "m": 10**-3}


def quantity(text):
    match = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(text))
    if not match or match.group(2) not in SUFFIXES:
        die(f"cannot read the quantity {text!r}")
    return float(match.group(1)) * SUFFIXES[match.group(2)]


def resolve(source, container):
    if "resourceFieldRef" in source:
        ref = source["resourceFieldRef"]
        kind, resource = ref["resource"].split(".", 1)
        value = ((container.get("resources") or {}).get(kind) or {}).get(resource)
        if value is None:
            # The kubelet gives an unset request as 0 and an unset limit as the node's
            # allocatable; the test pins resources, so an unset one is a mistake.
            die(f"the render sets no {ref['resource']} for {ref.get('containerName')}")
        divisor = quantity(ref.get("divisor", "1"))
        return str(int(-(-quantity(value) // divisor)))  # the kubelet rounds up
    die(f"the render uses a valueFrom the test cannot resolve: {source}")
    return ""


def run_env(render):
    _, container = controller_container(load(render))
    for entry in container.get("env") or []:
        value = entry["value"] if "value" in entry else resolve(entry["valueFrom"], container)
        print(f"{entry['name']}={value}")
    return 0


def main(argv):
    commands = {"rbac": (check_rbac, 2), "security": (check_security, 1),
                "env-names": (env_names, 1), "command": (command, 1), "run-env": (run_env, 1)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        die(__doc__)
    return commands[argv[1]][0](*argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))

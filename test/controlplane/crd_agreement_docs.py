#!/usr/bin/env python3
"""Splits the manifests crd_agreement.sh checks into one file per object.

Usage: crd_agreement_docs.py OUT_DIR ROOT

Reads every file of test/validation/malformed/ (one object each), examples/article/*.yaml and the
NodePool, NodeClaim and EC2NodeClass objects of test/scenarios/ (after each file's header
document), of examples/sim/snapshot/cluster.yaml and of the `apply` steps of examples/sim/*.yaml
(identical objects are kept once, under their first label). Writes, per object N:
  OUT_DIR/N.yaml         the object as written (what both `kubectl apply` and `karpenter validate`
                         read); corpus files are copied byte for byte
  OUT_DIR/N.create.yaml  for a custom resource with a status: the object without status and
                         without server-managed metadata, to create it for real before the status
                         subresource is checked
  OUT_DIR/N.status.json  that status with the object's apiVersion, kind, name and namespace, to
                         apply to the status subresource
and OUT_DIR/index.tsv with one line per object: N, label (path, or path#document), resource,
name, namespace ("" when cluster-scoped or not given).
"""
import glob
import hashlib
import json
import os
import shutil
import sys

import yaml

CUSTOM = {"NodePool": "nodepools.karpenter.sh", "NodeClaim": "nodeclaims.karpenter.sh",
          "EC2NodeClass": "ec2nodeclasses.karpenter.k8s.aws"}
SERVER_SET = ("uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "generation",
              "finalizers", "ownerReferences", "managedFields")


def resource_of(doc):
    kind = doc.get("kind", "") if isinstance(doc, dict) else ""
    return CUSTOM.get(kind, kind.lower())


def write(out, n, label, doc, raw_path=None):
    base = os.path.join(out, "%04d" % n)
    if raw_path:
        shutil.copyfile(raw_path, base + ".yaml")
    else:
        with open(base + ".yaml", "w") as f:
            yaml.safe_dump(doc, f, sort_keys=False)
    meta = doc.get("metadata") or {} if isinstance(doc, dict) else {}
    if isinstance(doc, dict) and doc.get("kind") in CUSTOM and "status" in doc:
        bare = {k: v for k, v in doc.items() if k != "status"}
        bare["metadata"] = {k: v for k, v in meta.items() if k not in SERVER_SET}
        with open(base + ".create.yaml", "w") as f:
            yaml.safe_dump(bare, f, sort_keys=False)
        status = {"apiVersion": doc.get("apiVersion"), "kind": doc.get("kind"),
                  "metadata": {k: v for k, v in meta.items() if k in ("name", "namespace")},
                  "status": doc["status"]}
        with open(base + ".status.json", "w") as f:
            json.dump(status, f, default=str)
    return "\t".join(["%04d" % n, label, resource_of(doc), str(meta.get("name", "")),
                      str(meta.get("namespace", ""))])


def embedded(root):
    """(label, document) for the objects inside scenario and simulation files."""
    for path in sorted(glob.glob(os.path.join(root, "test/scenarios/**/*.yaml"), recursive=True)):
        with open(path) as f:
            docs = list(yaml.safe_load_all(f))
        for i, doc in enumerate(docs[1:], 1):  # the first document is the scenario's header
            yield "%s#%d" % (os.path.relpath(path, root), i), doc
    snapshot = os.path.join(root, "examples/sim/snapshot/cluster.yaml")
    with open(snapshot) as f:
        items = yaml.safe_load(f).get("items", [])
    for i, doc in enumerate(items):
        yield "%s#items[%d]" % (os.path.relpath(snapshot, root), i), doc
    for path in sorted(glob.glob(os.path.join(root, "examples/sim/*.yaml"))):
        with open(path) as f:
            sim = yaml.safe_load(f)
        for i, step in enumerate(sim.get("steps") or []):
            if not isinstance(step, dict) or not isinstance(step.get("apply"), str):
                continue
            for j, doc in enumerate(yaml.safe_load_all(step["apply"])):
                yield "%s#steps[%d].apply#%d" % (os.path.relpath(path, root), i, j), doc


def main():
    out, root = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rows = []
    n = 0
    corpus = sorted(glob.glob(os.path.join(root, "test/validation/malformed/*.yaml")))
    article = sorted(glob.glob(os.path.join(root, "examples/article/*.yaml")))
    for path in corpus + article:
        with open(path) as f:
            docs = [d for d in yaml.safe_load_all(f) if d is not None]
        if len(docs) != 1:
            sys.exit("%s: want one object, found %d" % (path, len(docs)))
        n += 1
        rows.append(write(out, n, os.path.relpath(path, root), docs[0], raw_path=path))
    seen = set()
    for label, doc in embedded(root):
        if not isinstance(doc, dict) or doc.get("kind") not in CUSTOM:
            continue
        key = hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()
        if key in seen:
            continue
        seen.add(key)
        n += 1
        rows.append(write(out, n, label, doc))
    with open(os.path.join(out, "index.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

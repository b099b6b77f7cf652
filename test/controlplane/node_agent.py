#!/usr/bin/env python3
"""Plays the kubelet of every instance Karpenter launches in moto (test glue for e2e_article.sh).

Once a second: for each NodeClaim with status.providerID, no deletionTimestamp and no Node of
that provider ID, whose instance runs in moto, it creates the Node the instance's kubelet would
register on an EKS AL2023 node that Karpenter's user data configured:
  - name: the instance's private DNS name;
  - spec.providerID: the NodeClaim's (aws:///ZONE/INSTANCE-ID);
  - labels: the NodeClaim's (user data passes them as --node-labels) and the well-known labels
    kubelet and the cloud provider set (hostname, os, arch, instance type, zone, region,
    capacity type);
  - taints: karpenter.sh/unregistered:NoExecute plus the NodeClaim's taints and startup taints
    (user data's --register-with-taints);
  - status.capacity / allocatable: the NodeClaim's;
  - annotation kwok.x-k8s.io/node=fake, so kwok makes it Ready, heartbeats it and runs its pods.
A provider ID is registered once: a Node Karpenter deleted is not brought back (the kubelet of a
terminating instance is gone). The agent never deletes anything: terminations are Karpenter's.
Stops on SIGTERM.
"""
import argparse
import json
import signal
import subprocess
import sys
import threading

import boto3

KWOK_ANNOTATION = "kwok.x-k8s.io/node"
UNREGISTERED = {"key": "karpenter.sh/unregistered", "effect": "NoExecute"}


def kubectl(args, command, stdin=None):
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          check=True).stdout


def running_instance(ec2, instance_id):
    found = ec2.describe_instances(InstanceIds=[instance_id])["Reservations"]
    for reservation in found:
        for instance in reservation["Instances"]:
            if instance["State"]["Name"] == "running":
                return instance
    return None


def node_for(claim, instance, region):
    labels = dict(claim["metadata"].get("labels", {}))
    name = instance["PrivateDnsName"]
    zone = instance["Placement"]["AvailabilityZone"]
    labels.update({
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": labels.get("kubernetes.io/os", "linux"),
        "kubernetes.io/arch": labels.get("kubernetes.io/arch", "amd64"),
        "node.kubernetes.io/instance-type": instance["InstanceType"],
        "topology.kubernetes.io/zone": zone,
        "topology.kubernetes.io/region": region,
        "karpenter.sh/capacity-type":
            "spot" if instance.get("InstanceLifecycle") == "spot" else "on-demand",
    })
    spec = claim["spec"]
    taints = [UNREGISTERED] + spec.get("taints", []) + spec.get("startupTaints", [])
    status = claim["status"]
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": labels, "annotations": {KWOK_ANNOTATION: "fake"}},
        "spec": {"providerID": status["providerID"], "taints": taints},
        "status": {"capacity": status.get("capacity", {}),
                   "allocatable": status.get("allocatable", {})},
    }


def register_new_nodes(args, ec2, registered):
    claims = json.loads(kubectl(["get", "nodeclaims", "-o", "json"], args.kubectl))["items"]
    nodes = json.loads(kubectl(["get", "nodes", "-o", "json"], args.kubectl))["items"]
    known = {node["spec"].get("providerID") for node in nodes}
    for claim in claims:
        provider_id = claim.get("status", {}).get("providerID", "")
        if (not provider_id or provider_id in known or provider_id in registered or
                claim["metadata"].get("deletionTimestamp")):
            continue
        instance = running_instance(ec2, provider_id.rsplit("/", 1)[-1])
        if instance is None:
            continue
        node = node_for(claim, instance, args.region)
        kubectl(["create", "-f", "-"], args.kubectl, stdin=json.dumps(node))
        registered.add(provider_id)
        print(f"registered Node {node['metadata']['name']} for NodeClaim "
              f"{claim['metadata']['name']} ({provider_id})", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubectl", required=True)
    parser.add_argument("--kubeconfig", required=True)
    parser.add_argument("--aws-endpoint", required=True)
    parser.add_argument("--region", default="us-east-1")
    args = parser.parse_args()
    args.kubectl = [args.kubectl, "--kubeconfig", args.kubeconfig]
    ec2 = boto3.client("ec2", endpoint_url=args.aws_endpoint, region_name=args.region,
                       aws_access_key_id="testing", aws_secret_access_key="testing")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    registered = set()
    while not stop.is_set():
        try:
            register_new_nodes(args, ec2, registered)
        except subprocess.CalledProcessError as error:  # the next pass tries again
            print(f"kubectl {' '.join(error.cmd[1:3])} failed: {error.stderr.strip()}",
                  file=sys.stderr, flush=True)
        stop.wait(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

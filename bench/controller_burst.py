#!/usr/bin/env python3
"""The pod side of bench/controller_burst.sh: creates the burst of pending pods and times them.

  controller_burst.py burst --cluster DIR --count N --out FOLDER [--timeout SECONDS]
      Watches the pods of app=workload-sample in the default namespace, creates N pods of the
      article's workload-sample shape at once (32 concurrent connections straight to the API
      server), and waits until every one is Running or the timeout passes. Writes
        FOLDER/pods.json      the created pods as the API server returned them (a kind: List,
                              every one unbound: the burst's snapshot for `karpenter plan`)
        FOLDER/timeline.json  per pod: created (the watch's ADDED), unschedulable (the first
                              event with PodScheduled False/Unschedulable: kube-scheduler found
                              no node, which is what Karpenter waits for), bound (the first
                              with spec.nodeName), running (the first with phase Running), node;
                              plus the burst's start and end
      and prints `burst: KEY VALUE` lines (the figures in seconds).

Times are this process's wall clock when the watch event arrived (milliseconds), not the
objects' timestamps, which have one-second resolution.

Bare pods rather than the article's Deployment: kube-controller-manager's client is limited to
20 requests/s (its --kube-api-qps default), so a ReplicaSet of 1,000 would spread its creations
over about 50 s and measure the ReplicaSet controller instead.
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

APP = "workload-sample"
NAMESPACE = "default"
CONNECTIONS = 32


def pod_manifest(index):
    # The article's pod template (examples/article/workload-sample.yaml), one pod per index.
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": f"{APP}-burst-{index:05d}", "namespace": NAMESPACE,
                     "labels": {"app": APP}},
        "spec": {
            "topologySpreadConstraints": [{
                "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "ScheduleAnyway",
                "labelSelector": {"matchLabels": {"app": APP}}}],
            "containers": [{
                "name": "app", "image": "public.ecr.aws/nginx/nginx:alpine",
                "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}],
        },
    }


class ApiServer:
    """HTTPS connections to the control plane as its admin (scripts/controlplane.sh's pki)."""

    def __init__(self, cluster_dir):
        env = {}
        with open(os.path.join(cluster_dir, "env"), encoding="utf-8") as lines:
            for line in lines:
                key, _, value = line.strip().removeprefix("export ").partition("=")
                env[key] = value.strip("'\"")
        url = urllib.parse.urlparse(env["KP_APISERVER_URL"])
        self.host, self.port = url.hostname, url.port
        pki = os.path.join(cluster_dir, "pki")
        self.context = ssl.create_default_context(cafile=os.path.join(pki, "ca.crt"))
        self.context.load_cert_chain(os.path.join(pki, "admin.crt"),
                                     os.path.join(pki, "admin.key"))

    def connect(self, timeout=60):
        return http.client.HTTPSConnection(self.host, self.port, context=self.context,
                                           timeout=timeout)

    def request(self, connection, method, path, body=None):
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
        return json.loads(data)


class Timeline:
    """Per pod: when the watch first saw it created, unschedulable, bound and Running; its node."""

    def __init__(self):
        self.lock = threading.Lock()
        self.created = {}
        self.unschedulable = {}
        self.bound = {}
        self.running = {}
        self.node = {}
        self.all_running = threading.Event()
        self.expected = None
        self.error = None

    def saw(self, pod, now):
        name = pod["metadata"]["name"]
        with self.lock:
            self.created.setdefault(name, now)
            conditions = pod.get("status", {}).get("conditions", [])
            if any(c["type"] == "PodScheduled" and c.get("reason") == "Unschedulable"
                   for c in conditions):
                self.unschedulable.setdefault(name, now)
            if pod["spec"].get("nodeName"):
                self.bound.setdefault(name, now)
            if pod.get("status", {}).get("phase") == "Running" and name not in self.running:
                self.running[name] = now
                self.node[name] = pod["spec"].get("nodeName", "")
            if self.expected is not None and len(self.running) >= self.expected:
                self.all_running.set()


def watch_pods(api, resource_version, timeline, stop):
    # The API server ends a watch whose reader falls behind (as this one can while 1,000 pods
    # change at once): it is reopened from the last resourceVersion seen, as an informer does.
    try:
        while not stop.is_set():
            resource_version = watch_once(api, resource_version, timeline, stop)
    except Exception as error:  # pylint: disable=broad-except  # reported by the main thread
        timeline.error = error
        timeline.all_running.set()


def watch_once(api, resource_version, timeline, stop):
    query = urllib.parse.urlencode({"watch": "1", "labelSelector": f"app={APP}",
                                    "resourceVersion": resource_version,
                                    "allowWatchBookmarks": "true", "timeoutSeconds": "3600"})
    connection = api.connect(timeout=None)
    try:
        connection.request("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?{query}",
                           headers={"Accept": "application/json"})
        response = connection.getresponse()
        if response.status != 200:
            raise RuntimeError(f"watch: {response.status}")
        while not stop.is_set():
            line = response.readline()
            if not line:
                return resource_version
            event = json.loads(line)
            if event["type"] == "ERROR":
                raise RuntimeError(f"watch error: {event['object']}")
            resource_version = event["object"]["metadata"]["resourceVersion"]
            if event["type"] in ("ADDED", "MODIFIED"):
                timeline.saw(event["object"], time.time())
        return resource_version
    finally:
        connection.close()


def create_pods(api, indexes, created):
    connection = api.connect()
    try:
        for index in indexes:
            created[index] = api.request(connection, "POST",
                                         f"/api/v1/namespaces/{NAMESPACE}/pods",
                                         pod_manifest(index))
    finally:
        connection.close()


def percentile(values, fraction):
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(fraction * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def burst(args):
    api = ApiServer(args.cluster)
    os.makedirs(args.out, exist_ok=True)
    listing = api.request(api.connect(), "GET",
                          f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=app%3D{APP}")
    if listing["items"]:
        sys.exit(f"burst: {len(listing['items'])} pods of app={APP} exist already")
    timeline = Timeline()
    timeline.expected = args.count
    stop = threading.Event()
    watcher = threading.Thread(target=watch_pods, daemon=True,
                               args=(api, listing["metadata"]["resourceVersion"], timeline, stop))
    watcher.start()
    created = [None] * args.count
    shares = [range(start, args.count, CONNECTIONS) for start in range(CONNECTIONS)]
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(CONNECTIONS) as pool:
        for future in [pool.submit(create_pods, api, share, created) for share in shares]:
            future.result()
    all_created = time.time()
    with open(os.path.join(args.out, "pods.json"), "w", encoding="utf-8") as out:
        json.dump({"apiVersion": "v1", "kind": "List", "items": created}, out)
    print(f"burst: created {args.count} pods in {all_created - started:.2f} s", flush=True)
    deadline = started + args.timeout
    while not timeline.all_running.wait(5):
        with timeline.lock:
            running = len(timeline.running)
        print(f"burst: {time.time() - started:.0f} s: {running}/{args.count} Running", flush=True)
        if time.time() >= deadline:
            break
    stop.set()
    if timeline.error is not None:
        sys.exit(f"burst: {timeline.error}")
    with timeline.lock:
        pods = {name: {"created": created_at,
                       "unschedulable": timeline.unschedulable.get(name),
                       "bound": timeline.bound.get(name), "running": timeline.running.get(name),
                       "node": timeline.node.get(name)}
                for name, created_at in timeline.created.items()}
    with open(os.path.join(args.out, "timeline.json"), "w", encoding="utf-8") as out:
        json.dump({"started": started, "allCreated": all_created, "pods": pods}, out)
    waits = [pod["running"] - pod["created"] for pod in pods.values() if pod["running"]]

    def phase(start, end):
        # p50 / p95 / last of END - START over the pods that reached both, and the last END
        # after the burst's start: how each stage of the path to Running contributes.
        spans = [pod[end] - pod[start] for pod in pods.values() if pod[start] and pod[end]]
        if not spans:
            return "-"
        last = max(pod[end] for pod in pods.values() if pod[end]) - started
        return (f"p50 {percentile(spans, 0.5):.2f} p95 {percentile(spans, 0.95):.2f} "
                f"(last at +{last:.2f})")
    last = max((pod["running"] for pod in pods.values() if pod["running"]), default=started)
    figures = {
        "pods": args.count,
        "running": len(waits),
        "create_seconds": all_created - started,
        "pending_to_running_p50": percentile(waits, 0.50) if waits else float("nan"),
        "pending_to_running_p95": percentile(waits, 0.95) if waits else float("nan"),
        "pending_to_running_max": max(waits, default=float("nan")),
        "all_running_seconds": last - started,
        "nodes_used": len({pod["node"] for pod in pods.values() if pod["node"]}),
    }
    for key, value in figures.items():
        print(f"burst: {key} {value:.2f}" if isinstance(value, float) else f"burst: {key} {value}")
    print(f"burst: phase created→unschedulable {phase('created', 'unschedulable')}")
    print(f"burst: phase unschedulable→bound {phase('unschedulable', 'bound')}")
    print(f"burst: phase bound→running {phase('bound', 'running')}")
    return 0 if len(waits) == args.count else 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("burst")
    run.add_argument("--cluster", required=True, help="the control plane's folder")
    run.add_argument("--count", type=int, default=1000)
    run.add_argument("--out", required=True)
    run.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    return burst(args)


if __name__ == "__main__":
    sys.exit(main())

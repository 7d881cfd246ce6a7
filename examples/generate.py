#!/usr/bin/env python3
"""Writes the bundled example cluster that `schedsim` runs without arguments.

    python3 examples/generate.py            # rewrites examples/cluster/*
    python3 examples/generate.py DIR        # writes them to DIR instead

Deterministic (fixed random seed, python3 standard library only), so the
output is committed and regenerated only when this script changes.

cluster/nodes.json       ~300 Nodes in 3 zones of one region: control plane,
                         general, high-memory, GPU, arm64 and small pools
cluster/bound-pods.json  pods already running (node-exporter with hostPort
                         9100 everywhere, control-plane pods, ingress
                         controllers with hostPorts 80/443, older apps,
                         low-priority GPU jobs filling zone c)
cluster/workloads.yaml   PriorityClasses, Deployments, StatefulSets, Jobs,
                         Pods to schedule and the volumes (StorageClass, PVs,
                         PVCs) they use, each commented with what it shows
"""

import json
import random
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "cluster"
REGION = "europe-west4"
ZONES = ["europe-west4-a", "europe-west4-b", "europe-west4-c"]

# pool, instance type, cpu, memory (Gi), pods, arch, nodes per zone, extra labels, taints
POOLS = [
    ("cp", "n2-standard-4", 4, 16, 110, "amd64", 1,
     {"node-role.kubernetes.io/control-plane": ""},
     [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]),
    ("general", "n2-standard-8", 8, 32, 110, "amd64", 70, {}, []),
    ("highmem", "n2-highmem-16", 16, 128, 110, "amd64", 10, {},
     [{"key": "example.com/dedicated", "value": "memory", "effect": "PreferNoSchedule"}]),
    ("gpu", "a2-highgpu-1g", 12, 85, 110, "amd64", 8,
     {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.count": "1"},
     [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]),
    ("arm", "t2a-standard-8", 8, 32, 110, "arm64", 10, {}, []),
    ("small", "e2-medium", 2, 4, 8, "amd64", 1, {}, []),
]
GENERATION = {"cp": "3", "general": "3", "highmem": "4", "gpu": "5", "arm": "4", "small": "2"}

# Images with realistic sizes (bytes); which pools have pulled them.
IMAGES = {
    "registry.k8s.io/pause:3.10": (320_000, "all"),
    "quay.io/prometheus/node-exporter:v1.8.2": (11_760_000, "all"),
    "registry.k8s.io/kube-proxy:v1.36.3": (30_170_000, "all"),
    "registry.k8s.io/kube-apiserver:v1.36.3": (28_050_000, "cp"),
    "registry.k8s.io/etcd:3.5.21-0": (57_680_000, "cp"),
    "docker.io/library/nginx:1.27.3": (192_000_000, "general:3"),
    "docker.io/library/redis:7.4.1": (117_400_000, "general:5"),
    "docker.io/library/postgres:16.6": (438_500_000, "highmem"),
    "registry.k8s.io/ingress-nginx/controller:v1.12.0": (316_700_000, "general:10"),
    "nvcr.io/nvidia/pytorch:24.12-py3": (10_850_000_000, "gpu"),
    "ghcr.io/example/api:2.14.0": (86_300_000, "arm"),
}

CORDONED = {"general-a-007", "general-b-019", "general-c-031", "highmem-b-004"}
GPU_TOLERATION = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]


def dump_list(items):
    """A List as compact JSON, one item per line so diffs stay readable."""
    lines = [json.dumps(i, separators=(",", ":")) for i in items]
    return '{"apiVersion":"v1","kind":"List","items":[\n' + ",\n".join(lines) + "\n]}\n"


def make_node(rng, pool_def, zone, name, index):
    pool, itype, cpu, mem, pods, arch, _, extra, taints = pool_def
    labels = {
        "kubernetes.io/hostname": name,
        "kubernetes.io/arch": arch,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": itype,
        "topology.kubernetes.io/region": REGION,
        "topology.kubernetes.io/zone": zone,
        "example.com/pool": pool,
        "node.example.com/generation": GENERATION[pool],
        **extra,
    }
    spec = {"taints": [dict(t) for t in taints]} if taints else {}
    if name in CORDONED:  # kubectl cordon: the flag, and the taint the controller adds
        spec["unschedulable"] = True
        spec.setdefault("taints", []).append(
            {"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
             "timeAdded": "2026-03-02T08:15:00Z"})
    reserved_cpu = 80 + 10 * cpu  # kubelet system-reserved grows with size
    capacity = {"cpu": str(cpu), "memory": f"{mem * 1024 * 1024}Ki",
                "ephemeral-storage": "100Gi", "pods": str(pods)}
    allocatable = {"cpu": f"{cpu * 1000 - reserved_cpu}m",
                   "memory": f"{mem * 1024 * 1024 - 1_800_000 - mem * 20_000}Ki",
                   "ephemeral-storage": "95Gi", "pods": str(pods)}
    if pool == "gpu":
        capacity["nvidia.com/gpu"] = allocatable["nvidia.com/gpu"] = "1"
    images = []
    for image, (size, where) in IMAGES.items():
        target, _, one_in = where.partition(":")
        if target not in ("all", pool):
            continue
        if one_in and index % int(one_in):
            continue
        jitter = rng.randint(-size // 50, size // 50)
        images.append({"names": [image], "sizeBytes": size + jitter})
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": labels},
        "spec": spec,
        "status": {
            "capacity": capacity, "allocatable": allocatable,
            "conditions": [{"type": "Ready", "status": "True"}],
            "images": images,
        },
    }


def nodes(rng):
    out = []
    for pool_def in POOLS:
        pool, per_zone = pool_def[0], pool_def[6]
        for zi, zone in enumerate(ZONES):
            for i in range(1, per_zone + 1):
                name = f"{pool}-{zone[-1]}-{i:03d}"
                out.append(make_node(rng, pool_def, zone, name, zi * per_zone + i - 1))
    return out


def container(name, image, cpu=None, memory=None, ports=None, **extra):
    c = {"name": name, "image": image}
    requests = {k: v for k, v in (("cpu", cpu), ("memory", memory)) if v}
    if requests:
        c["resources"] = {"requests": requests}
    if ports:
        c["ports"] = ports
    c.update(extra)
    return c


def bound_pod(ns, name, node, containers, **spec):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"nodeName": node, "containers": containers, **spec},
            "status": {"phase": "Running"}}


def suffix(rng):
    """A generateName-style suffix, in the API server's alphabet."""
    return "".join(rng.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(5))


def bound_pods(rng, node_list):
    pods = []
    for n in node_list:
        name = n["metadata"]["name"]
        pods.append(bound_pod("monitoring", f"node-exporter-{suffix(rng)}", name, [container(
            "node-exporter", "quay.io/prometheus/node-exporter:v1.8.2", "100m", "180Mi",
            [{"containerPort": 9100, "hostPort": 9100, "protocol": "TCP"}])],
            hostNetwork=True, tolerations=[{"operator": "Exists"}]))
        if name.startswith("cp-"):
            for comp, cpu in (("kube-apiserver", "250m"), ("etcd", "100m"),
                              ("kube-scheduler", "100m"), ("kube-controller-manager", "200m")):
                image = ("registry.k8s.io/etcd:3.5.21-0" if comp == "etcd"
                         else f"registry.k8s.io/{comp}:v1.36.3")
                pods.append(bound_pod("kube-system", f"{comp}-{name}", name,
                                      [container(comp, image, cpu, "100Mi")],
                                      priority=2000001000))
    general = [n["metadata"]["name"] for n in node_list if n["metadata"]["name"].startswith("general-")]
    for node in general[::10]:
        pods.append(bound_pod("ingress-nginx", f"ingress-nginx-controller-7d9f8b6c4d-{suffix(rng)}", node,
                              [container("controller", "registry.k8s.io/ingress-nginx/controller:v1.12.0",
                                         "100m", "90Mi",
                                         [{"containerPort": 80, "hostPort": 80},
                                          {"containerPort": 443, "hostPort": 443}])]))
    # Older applications that already hold part of the general pool.
    for node in general[1::3]:
        pods.append(bound_pod("shop", f"catalog-6c8d5f7b9-{suffix(rng)}", node,
                              [container("catalog", "docker.io/library/redis:7.4.1",
                                         rng.choice(["1", "1500m", "2"]), rng.choice(["2Gi", "4Gi", "6Gi"]))]))
    # Opportunistic low-priority GPU jobs hold every GPU of zone c: the
    # inference Deployment (workloads.yaml) preempts some of them.
    for node in [n["metadata"]["name"] for n in node_list if n["metadata"]["name"].startswith("gpu-c-")]:
        pods.append(bound_pod("ml", f"gpu-burst-{suffix(rng)}", node, [container(
            "burst", "nvcr.io/nvidia/pytorch:24.12-py3",
            resources={"requests": {"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"},
                       "limits": {"nvidia.com/gpu": "1"}})],
            priorityClassName="batch-low", priority=-10, tolerations=GPU_TOLERATION))
    return pods


# ---- workloads.yaml: objects as Python data, written as block YAML ----------

PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9._/-]*$|^[0-9][0-9.]*[A-Za-z][A-Za-z0-9.]*$")
YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}


def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    # Quote whatever YAML 1.1 would read as something other than this string.
    if PLAIN.match(v) and v.lower() not in YAML11_WORDS and not re.fullmatch(r"[0-9._eE+-]+", v):
        return v
    return json.dumps(v)


def to_yaml(v, indent=0):
    pad = " " * indent
    lines = []
    if isinstance(v, dict):
        for k, val in v.items():
            key = scalar(k)
            if isinstance(val, (dict, list)) and val:
                lines.append(f"{pad}{key}:")
                lines.extend(to_yaml(val, indent + (2 if isinstance(val, dict) else 0)))
            else:
                lines.append(f"{pad}{key}: {'{}' if val == {} else '[]' if val == [] else scalar(val)}")
    else:
        for item in v:
            sub = to_yaml(item, indent + 2) if isinstance(item, (dict, list)) else [pad + "  " + scalar(item)]
            lines.append(pad + "- " + sub[0].lstrip())
            lines.extend(sub[1:])
    return lines


def pod_template(labels, containers, **spec):
    return {"metadata": {"labels": labels}, "spec": {"containers": containers, **spec}}


def deployment(name, ns, replicas, template):
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": ns},
            "spec": {"replicas": replicas, "selector": {"matchLabels": template["metadata"]["labels"]},
                     "template": template}}


def spread_objects():
    """PodTopologySpread examples: (comment, object) pairs."""
    zone_spread = {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                   "whenUnsatisfiable": "DoNotSchedule"}
    return [
        ("PodTopologySpread: the storefront spreads evenly over the three zones\n"
         "(DoNotSchedule, maxSkew 1; matchLabelKeys pod-template-hash counts this\n"
         "rollout only) and prefers hosts without a replica (ScheduleAnyway).",
         deployment("storefront", "shop", 7, pod_template({"app": "storefront"}, [container(
             "web", "docker.io/library/nginx:1.27.3", "500m", "512Mi")],
             nodeSelector={"example.com/pool": "general"},
             topologySpreadConstraints=[
                 {**zone_spread, "labelSelector": {"matchLabels": {"app": "storefront"}},
                  "matchLabelKeys": ["pod-template-hash"]},
                 {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
                  "whenUnsatisfiable": "ScheduleAnyway",
                  "labelSelector": {"matchLabels": {"app": "storefront"}}}]))),
        ("A Service selects the catalog pods, which have no constraints of their own:\n"
         "the system default constraints spread them by host and zone (Score only).",
         {"apiVersion": "v1", "kind": "Service",
          "metadata": {"name": "catalog", "namespace": "shop"},
          "spec": {"selector": {"app": "catalog"}, "ports": [{"port": 8080}]}}),
        (None, deployment("catalog", "shop", 6, pod_template({"app": "catalog"}, [container(
            "catalog", "docker.io/library/nginx:1.27.3", "250m", "256Mi")],
            nodeSelector={"example.com/pool": "general"}))),
        ("Unschedulable: minDomains 4 with three zones counts the global minimum as 0,\n"
         "so each zone takes one replica and the fourth fits nowhere\n"
         "(didn't match pod topology spread constraints).",
         deployment("quorum", "shop", 4, pod_template({"app": "quorum"}, [container(
             "etcd", "registry.k8s.io/etcd:3.5.17-0", "500m", "1Gi")],
             nodeSelector={"example.com/pool": "highmem"},
             topologySpreadConstraints=[
                 {**zone_spread, "minDomains": 4,
                  "labelSelector": {"matchLabels": {"app": "quorum"}}}]))),
    ]


def workload_objects():
    """(comment, object) pairs, in the order workloads.yaml lists them."""
    docs = []

    def add(comment, obj):
        docs.append((comment, obj))

    add("Priorities: critical apps go first, batch fill last (PrioritySort order).",
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
         "metadata": {"name": "critical-apps"}, "value": 100000})
    add(None, {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
               "metadata": {"name": "batch-low"}, "value": -10})

    add("NodeAffinity (required In) + TaintToleration (PreferNoSchedule tolerated) +\n"
        "ImageLocality (postgres is pulled on every highmem node): highmem pool only.",
        {"apiVersion": "apps/v1", "kind": "StatefulSet",
         "metadata": {"name": "postgres", "namespace": "shop"},
         "spec": {"replicas": 3, "serviceName": "postgres",
                  "selector": {"matchLabels": {"app": "postgres"}},
                  "template": pod_template({"app": "postgres"}, [container(
                      "postgres", "docker.io/library/postgres:16.6", "4", "24Gi")],
                      priorityClassName="critical-apps",
                      tolerations=[{"key": "example.com/dedicated", "operator": "Equal",
                                    "value": "memory", "effect": "PreferNoSchedule"}],
                      affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                          "nodeSelectorTerms": [{"matchExpressions": [{
                              "key": "node.kubernetes.io/instance-type", "operator": "In",
                              "values": ["n2-highmem-16"]}]}]}}})}})

    add("ImageLocality: nginx is already on every third general node;\n"
        "preferred NodeAffinity (weight 40) for zone a. Critical, so the queue takes\n"
        "it before the caches that prefer its nodes.",
        deployment("web", "shop", 40, pod_template({"app": "web"}, [container(
            "nginx", "docker.io/library/nginx:1.27.3", "500m", "512Mi",
            [{"containerPort": 8080}])],
            priorityClassName="critical-apps",
            affinity={"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
                "weight": 40, "preference": {"matchExpressions": [{
                    "key": "topology.kubernetes.io/zone", "operator": "In",
                    "values": ["europe-west4-a"]}]}}]}})))

    add("nodeSelector: arm64 builds run on the arm pool only.",
        deployment("api", "shop", 30, pod_template({"app": "api"}, [container(
            "api", "ghcr.io/example/api:2.14.0", "1", "2Gi")],
            nodeSelector={"kubernetes.io/arch": "arm64"})))

    add("Init container larger than the app, a sidecar (restartable init container)\n"
        "and RuntimeClass overhead: NodeResourcesFit sums them as upstream does.",
        deployment("checkout", "shop", 6, pod_template({"app": "checkout"}, [container(
            "checkout", "ghcr.io/example/api:2.14.0", "500m", "1Gi")],
            initContainers=[
                container("migrate", "docker.io/library/postgres:16.6", "2", "3Gi"),
                container("envoy", "docker.io/envoyproxy/envoy:v1.33.0", "200m", "256Mi",
                          restartPolicy="Always")],
            overhead={"cpu": "250m", "memory": "120Mi"},
            nodeSelector={"kubernetes.io/arch": "arm64"})))

    add("GPU training: tolerates the GPU taint and asks for one GPU each;\n"
        "the pytorch image is on every GPU node (ImageLocality).",
        {"apiVersion": "batch/v1", "kind": "Job",
         "metadata": {"name": "train-resnet", "namespace": "ml"},
         "spec": {"parallelism": 12, "completions": 12, "template": pod_template(
             {"app": "train-resnet"}, [container(
                 "train", "nvcr.io/nvidia/pytorch:24.12-py3",
                 resources={"requests": {"cpu": "8", "memory": "60Gi", "nvidia.com/gpu": "1"},
                            "limits": {"nvidia.com/gpu": "1"}})],
             tolerations=GPU_TOLERATION, restartPolicy="Never")}})

    add("Preemption: inference must run in zone c, whose GPUs low-priority burst jobs\n"
        "hold (bound-pods.json); each replica evicts one and takes its GPU.",
        deployment("fraud-inference", "ml", 3, pod_template({"app": "fraud-inference"}, [container(
            "serve", "nvcr.io/nvidia/pytorch:24.12-py3",
            resources={"requests": {"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"},
                       "limits": {"nvidia.com/gpu": "1"}})],
            priorityClassName="critical-apps", tolerations=GPU_TOLERATION,
            nodeSelector={"topology.kubernetes.io/zone": "europe-west4-c"})))

    add("Unschedulable: two GPUs per pod, but GPU nodes have one (Insufficient nvidia.com/gpu).",
        {"apiVersion": "batch/v1", "kind": "Job",
         "metadata": {"name": "train-llm", "namespace": "ml"},
         "spec": {"parallelism": 2, "template": pod_template(
             {"app": "train-llm"}, [container(
                 "train", "nvcr.io/nvidia/pytorch:24.12-py3",
                 resources={"requests": {"cpu": "4", "memory": "32Gi", "nvidia.com/gpu": "2"},
                            "limits": {"nvidia.com/gpu": "2"}})],
             tolerations=GPU_TOLERATION, restartPolicy="Never")}})

    add("Unschedulable: wants a GPU but forgot the toleration (untolerated taint on\n"
        "GPU nodes, Insufficient nvidia.com/gpu everywhere else).",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "notebook", "namespace": "ml"},
         "spec": {"containers": [container(
             "jupyter", "nvcr.io/nvidia/pytorch:24.12-py3",
             resources={"requests": {"nvidia.com/gpu": "1"}, "limits": {"nvidia.com/gpu": "1"}})]}})

    add("NodePorts: hostPort 443 is free only where no ingress controller runs.",
        deployment("edge-proxy", "ingress-nginx", 5, pod_template({"app": "edge-proxy"}, [container(
            "haproxy", "docker.io/library/haproxy:3.1", "200m", "128Mi",
            [{"containerPort": 443, "hostPort": 443}])])))

    add("Unschedulable: hostPort 9100 is taken by node-exporter on every node.",
        deployment("metrics-agent", "monitoring", 2, pod_template({"app": "metrics-agent"}, [container(
            "agent", "docker.io/grafana/alloy:v1.6.1", "100m", "128Mi",
            [{"containerPort": 9100, "hostPort": 9100}])])))

    add("NodeAffinity matchFields: pinned to one node by name.",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "debug-general-b-002", "namespace": "default"},
         "spec": {"containers": [container("shell", "docker.io/library/busybox:1.37", "50m", "32Mi")],
                  "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                      "nodeSelectorTerms": [{"matchFields": [{
                          "key": "metadata.name", "operator": "In",
                          "values": ["general-b-002"]}]}]}}}}})

    add("NodeAffinity Gt: only nodes of generation 5 (the GPU pool), which it tolerates.",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "avx512-bench", "namespace": "default"},
         "spec": {"containers": [container("bench", "docker.io/library/busybox:1.37", "1", "1Gi")],
                  "tolerations": GPU_TOLERATION,
                  "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                      "nodeSelectorTerms": [{"matchExpressions": [{
                          "key": "node.example.com/generation", "operator": "Gt",
                          "values": ["4"]}]}]}}}}})

    add("spec.nodeName: bound directly, never scheduled (it still takes room on general-c-010).",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "manual-placement", "namespace": "default"},
         "spec": {"nodeName": "general-c-010",
                  "containers": [container("app", "docker.io/library/redis:7.4.1", "2", "4Gi")]}})

    add("Control-plane add-on: tolerates the control-plane taint and selects those nodes.",
        deployment("cluster-autoscaler", "kube-system", 1, pod_template({"app": "cluster-autoscaler"}, [container(
            "autoscaler", "registry.k8s.io/autoscaling/cluster-autoscaler:v1.32.0", "100m", "300Mi")],
            nodeSelector={"node-role.kubernetes.io/control-plane": ""},
            tolerations=[{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists",
                          "effect": "NoSchedule"}])))

    docs.extend(spread_objects())

    add("Too many pods: the small pool takes 8 pods per node (one is node-exporter).",
        deployment("log-shipper", "logging", 24, pod_template({"app": "log-shipper"}, [container(
            "fluent-bit", "cr.fluentbit.io/fluent/fluent-bit:3.2.4", "10m", "16Mi")],
            nodeSelector={"example.com/pool": "small"})))

    add("Unschedulable: more CPU than any node has (Insufficient cpu on every node it may use).",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "render-farm", "namespace": "default"},
         "spec": {"containers": [container("render", "docker.io/library/busybox:1.37", "64", "8Gi")]}})

    add("Unschedulable: no node is in this zone (didn't match Pod's node affinity/selector).",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "zone-d-only", "namespace": "default"},
         "spec": {"containers": [container("app", "docker.io/library/nginx:1.27.3", "100m", "64Mi")],
                  "nodeSelector": {"topology.kubernetes.io/zone": "europe-west4-d"}}})

    add("Unschedulable: asks for more scratch space than a node has (ephemeral-storage).",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "video-transcode", "namespace": "default"},
         "spec": {"containers": [container(
             "ffmpeg", "docker.io/linuxserver/ffmpeg:7.1.1",
             resources={"requests": {"cpu": "2", "memory": "2Gi", "ephemeral-storage": "200Gi"}})]}})

    add("Namespaces: their labels are what namespaceSelector in pod affinity selects.",
        {"apiVersion": "v1", "kind": "Namespace",
         "metadata": {"name": "shop", "labels": {"team": "shop"}}})
    add(None, {"apiVersion": "v1", "kind": "Namespace",
               "metadata": {"name": "monitoring", "labels": {"team": "platform"}}})

    add("InterPodAffinity: one redis cache per node (required anti-affinity by hostname;\n"
        "matchLabelKeys pod-template-hash limits it to this rollout), preferably next to\n"
        "a web pod (preferred affinity, weight 100).",
        deployment("cache", "shop", 8, pod_template({"app": "cache"}, [container(
            "redis", "docker.io/library/redis:7.4.1", "250m", "1Gi")],
            affinity={
                "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
                    "labelSelector": {"matchLabels": {"app": "cache"}},
                    "matchLabelKeys": ["pod-template-hash"],
                    "topologyKey": "kubernetes.io/hostname"}]},
                "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
                    "weight": 100, "podAffinityTerm": {
                        "labelSelector": {"matchLabels": {"app": "web"}},
                        "topologyKey": "kubernetes.io/hostname"}}]}})))

    add("InterPodAffinity: one ZooKeeper member per zone (required anti-affinity by zone);\n"
        "the fourth finds no zone left (didn't match pod anti-affinity rules).",
        {"apiVersion": "apps/v1", "kind": "StatefulSet",
         "metadata": {"name": "zk", "namespace": "shop"},
         "spec": {"replicas": 4, "serviceName": "zk",
                  "selector": {"matchLabels": {"app": "zk"}},
                  "template": pod_template({"app": "zk"}, [container(
                      "zookeeper", "docker.io/library/zookeeper:3.9.3", "500m", "1Gi")],
                      affinity={"podAntiAffinity": {
                          "requiredDuringSchedulingIgnoredDuringExecution": [{
                              "labelSelector": {"matchLabels": {"app": "zk"}},
                              "topologyKey": "topology.kubernetes.io/zone"}]}})}})

    add("InterPodAffinity with namespaceSelector: the backup agent runs in the zone of a\n"
        "postgres pod of any namespace labelled team=shop.",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "pg-backup", "namespace": "monitoring"},
         "spec": {"containers": [container("backup", "docker.io/library/postgres:16.6", "200m", "256Mi")],
                  "affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
                      "labelSelector": {"matchLabels": {"app": "postgres"}},
                      "namespaceSelector": {"matchLabels": {"team": "shop"}},
                      "topologyKey": "topology.kubernetes.io/zone"}]}}}})

    add("VolumeBinding: local NVMe PVs (WaitForFirstConsumer, no provisioner) exist on\n"
        "general-a-010 and general-b-010 only; each kafka pod's claim binds one, so the\n"
        "third finds none (didn't find available persistent volumes to bind).",
        {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
         "metadata": {"name": "local-nvme"},
         "provisioner": "kubernetes.io/no-provisioner",
         "volumeBindingMode": "WaitForFirstConsumer"})
    for node in ("general-a-010", "general-b-010"):
        add(None, {"apiVersion": "v1", "kind": "PersistentVolume",
                   "metadata": {"name": f"nvme-{node}"},
                   "spec": {"capacity": {"storage": "375Gi"}, "accessModes": ["ReadWriteOnce"],
                            "storageClassName": "local-nvme", "local": {"path": "/mnt/disks/nvme0"},
                            "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                                {"key": "kubernetes.io/hostname", "operator": "In",
                                 "values": [node]}]}]}}},
                   "status": {"phase": "Available"}})
    for i in range(3):
        add(None, {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                   "metadata": {"name": f"data-kafka-{i}", "namespace": "shop"},
                   "spec": {"storageClassName": "local-nvme", "accessModes": ["ReadWriteOnce"],
                            "resources": {"requests": {"storage": "100Gi"}}}})
        add(None, {"apiVersion": "v1", "kind": "Pod",
                   "metadata": {"name": f"kafka-{i}", "namespace": "shop", "labels": {"app": "kafka"}},
                   "spec": {"containers": [container("kafka", "docker.io/apache/kafka:3.9.0", "2", "8Gi")],
                            "volumes": [{"name": "data",
                                         "persistentVolumeClaim": {"claimName": f"data-kafka-{i}"}}]}})

    add("VolumeRestrictions: two report writers pinned to one node mount the same GCE PD\n"
        "read-write; the second gets \"node(s) had no available disk\".",
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "reports-0", "namespace": "batch"},
         "spec": {"containers": [container("writer", "docker.io/library/busybox:1.37", "100m", "64Mi")],
                  "nodeSelector": {"kubernetes.io/hostname": "general-c-020"},
                  "volumes": [{"name": "reports", "gcePersistentDisk": {"pdName": "reports"}}]}})
    add(None, {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "reports-1", "namespace": "batch"},
               "spec": {"containers": [container("writer", "docker.io/library/busybox:1.37", "100m", "64Mi")],
                        "nodeSelector": {"kubernetes.io/hostname": "general-c-020"},
                        "volumes": [{"name": "reports", "gcePersistentDisk": {"pdName": "reports"}}]}})

    add("Batch fill at low priority: exhausts the amd64 CPU left over, so the last\n"
        "replicas get a histogram of every reason in one message.",
        deployment("batch-fill", "batch", 300, pod_template({"app": "batch-fill"}, [container(
            "worker", "docker.io/library/busybox:1.37", "6", "4Gi")],
            priorityClassName="batch-low",
            nodeSelector={"kubernetes.io/arch": "amd64"})))

    return docs


def workloads_yaml():
    out = ["# Generated by examples/generate.py; edit that, not this file.\n"]
    for comment, obj in workload_objects():
        text = "---\n"
        if comment:
            text += "".join(f"# {line}\n" for line in comment.split("\n"))
        out.append(text + "\n".join(to_yaml(obj)) + "\n")
    return "".join(out)


def main(out=OUT):
    rng = random.Random(20260312)
    out.mkdir(exist_ok=True)
    node_list = nodes(rng)
    (out / "nodes.json").write_text(dump_list(node_list))
    (out / "bound-pods.json").write_text(dump_list(bound_pods(rng, node_list)))
    (out / "workloads.yaml").write_text(workloads_yaml())


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)

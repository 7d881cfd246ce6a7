#!/usr/bin/env python3
"""Writes seed inputs for the libFuzzer targets in tests/fuzz/.

Usage: make_seeds.py OUTDIR [--corpus DIR] [--examples DIR] [--max-len N]

Creates OUTDIR/{config,apply,schedule,quantity,stateful,nodes,selector}/, one file per seed, named
by the SHA-1 of its content (as libFuzzer names corpus files), so reruns are
idempotent. Sources:

  * the shared corpus (default: ../shared/corpus from the repository root):
    every JSON file whole, every List item (and every element of the
    simulator snapshots' "pods"/"nodes"/... arrays) as an object and as an
    ADDED event; pods and workload pod templates as schedule inputs; every
    string under requests/limits/allocatable/capacity/overhead as a quantity;
  * examples/cluster/*.json, the same way, plus sub-Lists below --max-len;
  * small hand-written configs, events, pods and quantities;
  * hand-written operation sequences for fuzz_stateful (HAND_STATEFUL);
  * hand-written sched_engine_nodes queries for fuzz_nodes (HAND_NODE_QUERIES);
  * hand-written CEL device selectors for fuzz_selector (HAND_SELECTORS).

Input formats follow the targets: fuzz_apply splits its input into documents
at "\\n---\\n"; fuzz_schedule takes one flags byte, then the pod JSON;
fuzz_stateful takes a config byte, then opcode and argument bytes.
Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import sys

TARGETS = ("config", "apply", "schedule", "quantity", "stateful", "nodes", "selector")
SEPARATOR = "\n---\n"
QUANTITY_MAPS = {"requests", "limits", "allocatable", "capacity", "overhead", "allocatedResources"}
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Seeds:
    def __init__(self, outdir, max_len):
        self.outdir = outdir
        self.max_len = max_len
        self.counts = dict.fromkeys(TARGETS, 0)
        self.seen = {t: set() for t in TARGETS}
        self.new = 0
        self.skipped = 0
        for t in TARGETS:
            os.makedirs(os.path.join(outdir, t), exist_ok=True)

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if len(data) > self.max_len:
            self.skipped += 1
            return
        name = hashlib.sha1(data).hexdigest()
        if name in self.seen[target]:
            return
        self.seen[target].add(name)
        self.counts[target] += 1
        path = os.path.join(self.outdir, target, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.new += 1

    def schedule(self, pod, flags=(0x0, 0x7)):
        text = compact(pod)
        for fl in flags:
            self.add("schedule", bytes([fl]) + text.encode("utf-8"))


def list_items(doc):
    """The objects a document holds: List items, simulator snapshot arrays,
    or the document itself."""
    if isinstance(doc, dict):
        if isinstance(doc.get("items"), list):
            return [i for i in doc["items"] if isinstance(i, dict)]
        arrays = [v for k, v in doc.items()
                  if k in ("pods", "nodes", "pvs", "pvcs", "storageClasses", "priorityClasses")
                  and isinstance(v, list)]
        if arrays:
            return [i for a in arrays for i in a if isinstance(i, dict)]
        return [doc]
    if isinstance(doc, list):
        return [i for i in doc if isinstance(i, dict)]
    return []


def quantities(obj, under_map=False):
    """Strings (and numbers) that sit in a resource map."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if under_map and isinstance(v, (str, int, float)) and not isinstance(v, bool):
                yield str(v)
            yield from quantities(v, k in QUANTITY_MAPS)
    elif isinstance(obj, list):
        for v in obj:
            yield from quantities(v, False)


def pod_from_template(obj):
    """A Pod from a workload's pod template, or None."""
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else None
    if spec is None:
        return None
    if obj.get("kind") == "CronJob":
        spec = (spec.get("jobTemplate") or {}).get("spec") or {}
    elif obj.get("kind") not in WORKLOAD_KINDS:
        return None
    template = spec.get("template")
    if not isinstance(template, dict) or not isinstance(template.get("spec"), dict):
        return None
    meta = dict(template.get("metadata") or {})
    meta.setdefault("name", ((obj.get("metadata") or {}).get("name") or "pod") + "-0")
    meta.setdefault("namespace", (obj.get("metadata") or {}).get("namespace") or "default")
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": template["spec"]}


def add_document(seeds, doc, whole_text=None):
    if whole_text is not None:
        seeds.add("apply", whole_text)
    items = list_items(doc)
    for item in items:
        seeds.add("apply", compact(item))
        seeds.add("apply", compact({"type": "ADDED", "object": item}))
        for q in quantities(item):
            seeds.add("quantity", q)
        kind = item.get("kind")
        if kind == "Pod":
            pod = json.loads(json.dumps(item))
            spec = pod.get("spec")
            if isinstance(spec, dict):
                spec.pop("nodeName", None)
            seeds.schedule(pod)
        elif kind in WORKLOAD_KINDS or kind == "CronJob":
            pod = pod_from_template(item)
            if pod is not None:
                seeds.schedule(pod)
                bound = json.loads(json.dumps(pod))
                bound["spec"]["nodeName"] = "n1"
                seeds.add("apply", compact(bound))
    if isinstance(doc, dict) and isinstance(doc.get("schedulerConfig"), dict):
        seeds.add("config", compact(doc["schedulerConfig"]))
    # Pairs of consecutive items as a two-document apply input, and the
    # first item deleted again.
    for a, b in zip(items, items[1:]):
        seeds.add("apply", compact(a) + SEPARATOR + compact(b))
    if items:
        seeds.add("apply", compact({"type": "ADDED", "object": items[0]}) + SEPARATOR +
                  compact({"type": "DELETED", "object": items[0]}))
    return items


def sub_lists(items, max_len):
    """Lists of consecutive items, each below max_len bytes."""
    chunk = []
    for item in items:
        candidate = chunk + [item]
        if chunk and len(compact({"apiVersion": "v1", "kind": "List", "items": candidate})) > max_len:
            yield {"apiVersion": "v1", "kind": "List", "items": chunk}
            chunk = [item]
        else:
            chunk = candidate
    if chunk:
        yield {"apiVersion": "v1", "kind": "List", "items": chunk}


def json_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".json"):
                yield os.path.join(dirpath, name)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return raw, json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        print(f"make_seeds: skipping {path}: {e}", file=sys.stderr)
        return raw, None


HAND_CONFIGS = [
    "{}",
    '{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration"}',
    '{"percentageOfNodesToScore":50,"parallelism":16,"seed":42}',
    '{"seed":"18446744073709551615"}',
    '{"seed":9007199254740992}',
    '{"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":100},'
    '{"schedulerName":"batch","percentageOfNodesToScore":0}]}',
    '{"profiles":[{}]}',
    '{"profiles":[{"schedulerName":"a"},{"schedulerName":"a"}]}',
    '{"profiles":[{"schedulerName":"a"},{}]}',
    '{"profiles":null,"seed":null,"percentageOfNodesToScore":null,"parallelism":null}',
    '{"profiles":[{"plugins":{}}]}',
    '{"profiles":[{"plugins":{"multiPoint":{"enabled":[{"name":"NodeLabel","weight":2}],'
    '"disabled":[{"name":"ImageLocality"}]},"filter":{"enabled":[{"name":"NodeName"}],'
    '"disabled":[{"name":"*"}]},"score":{"enabled":[{"name":"TaintToleration","weight":7}]}}},'
    '{"schedulerName":"b","pluginConfig":[{"name":"NodeLabel","args":{"presentLabels":["a"],'
    '"absentLabelsPreference":["b"]}}]}]}',
    '{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"GeneralPredicates"},'
    '{"name":"r","order":1,"argument":{"labelsPresence":{"labels":["rack"],"presence":true}}}],'
    '"priorities":[{"name":"LeastRequestedPriority","weight":1},{"name":"p","weight":2,'
    '"argument":{"labelPreference":{"label":"ssd","presence":true}}}],'
    '"hardPodAffinitySymmetricWeight":10,"alwaysCheckAllPredicates":true}',
    '{"kind":"Policy"}',
    '{"kind":"Policy","priorities":[{"name":"x","weight":1,"argument":'
    '{"requestedToCapacityRatioArguments":{"shape":[{"utilization":0,"score":0}]}}}]}',
    '{"profiles":[{"pluginConfig":[{"name":"InterPodAffinity","args":{"hardPodAffinityWeight":5,'
    '"ignorePreferredTermsOfExistingPods":true}}]}]}',
    '{"profiles":[{"pluginConfig":[{"name":"InterPodAffinity","args":{"hardPodAffinityWeight":101}}]}]}',
    '{"profiles":[{"pluginConfig":[{"name":"PodTopologySpread","args":{"defaultingType":"List",'
    '"defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]}}]}]}',
    '{"profiles":[{"pluginConfig":[{"name":"PodTopologySpread","args":{"defaultConstraints":[{}]}}]}]}',
    '{"percentageOfNodesToScore":101}',
    '{"percentageOfNodesToScore":1.5}',
    '{"parallelism":0}',
    '{"seed":-1}',
    '{"seed":"0x10"}',
    '{"seed":1,"seed":2}',
    '{"kind":"Other"}',
    '{"unknown":1}',
    "[]",
    "null",
    '"{}"',
    " {} ",
    "{} {}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
]

HAND_QUANTITIES = [
    "0", "1", "-1", "+1", "100m", "500m", "1500m", "0.5", ".5", "5.", "1.", "-1.5", "-0", "-1.1Ki",
    "64Gi", "1Mi", "16777216Ki", "1e3", "1E3", "1e-3", "1e+3", "1e4294967296", "1e2147483648",
    "1e-2147483648", "1e18", "1e19", "8Ei", "7Ei", "8E", "9223372036854775807", "9223372036854775808",
    "9223372036854775807m", "9223372036854776k", "0.000000001", "0.0000000001", "1n", "1u", "1m",
    "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Ti", "1Pi", "1Ei", "Mi", "-", ".", "Pi", ".e-10",
    "e", "E", "1e", "1ee", "1 ", " 1", "1 Gi", "1gi", "1KI", "01", "00.100", "123456789012345678",
    "1234567890123456789", "0.123456789012345678Ki", "1.5Gi", "-0.0001Ki", "+.5e1", "1e+", "1e-",
    "99999999999999999999999999999999Ei", "0.00000000000000000000000000001Ei",
]

HAND_APPLY = [
    '{"type":"DELETED","object":{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}}',
    '{"type":"DELETED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"probe","namespace":"fuzz"},"spec":{}}}',
    '{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"probe","namespace":"fuzz"},'
    '"spec":{"nodeName":"n2","containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}}}',
    '{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"12"}}}',
    '[{"type":"ADDED","object":{"kind":"Node","metadata":{"name":"n4"},"status":{"allocatable":{"cpu":"1","memory":"1Gi","pods":"3"}}}},'
    '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"x","namespace":"default"},"spec":{"nodeName":"n4",'
    '"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}]',
    '{"kind":"NodeList","items":[{"metadata":{"name":"n5","labels":{"a":"b"}},"spec":{"taints":[{"key":"k","effect":"NoExecute"}]}}]}',
    '{"kind":"PodList","items":[{"metadata":{"name":"p","namespace":"default"},"spec":{"nodeName":"n1"},"status":{"phase":"Succeeded"}}]}',
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default"},"spec":{"nodeName":"n1"},"status":{"phase":"Failed"}}',
    '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"spec":{"unschedulable":true}}',
    '{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"}}',
    '[{"type":"ADDED","object":{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default","labels":{"team":"a"}}}},'
    '{"type":"DELETED","object":{"kind":"Namespace","metadata":{"name":"kube-system"}}}]',
    '{"kind":"Pod","metadata":{"name":"anti","namespace":"default","labels":{"app":"ipa"}},"spec":{"nodeName":"n1",'
    '"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":['
    '{"labelSelector":{"matchLabels":{"app":"ipa"}},"topologyKey":"kubernetes.io/hostname"}]}},"containers":[{"name":"c"}]}}',
    '{"apiVersion":"apps/v1","kind":"Node","metadata":{"name":"x"}}',
    '{"kind":"Node","metadata":{"name":"bad"},"status":{"allocatable":{"cpu":"lots"}}}',
    '{"kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1"}}}' + SEPARATOR +
    '{"kind":"Node","metadata":{"name":"n9"},"status":{"allocatable":{"cpu":"x"}}}',
    '{"kind":"Pod","metadata":{"name":"a","namespace":"default"},"spec":{"nodeName":"n1","containers":[{"name":"c",'
    '"ports":[{"containerPort":9090,"hostPort":9090}]}]}}' + SEPARATOR +
    '{"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"a","namespace":"default"},"spec":{"nodeName":"n1"}}}',
    '[{"type":"ADDED","object":{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},'
    '"spec":{"selector":{"app":"web"}}}},{"type":"ADDED","object":{"apiVersion":"apps/v1","kind":"ReplicaSet",'
    '"metadata":{"name":"web-1"},"spec":{"selector":{"matchExpressions":[{"key":"app","operator":"In","values":["web"]}]}}}},'
    '{"type":"DELETED","object":{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"}}}]',
    # VolumeBinding's storage capacity objects (capi/decode_storage_capacity.cc).
    '[{"type":"ADDED","object":{"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"csi.example.com"},'
    '"spec":{"storageCapacity":true}}},{"type":"ADDED","object":{"apiVersion":"storage.k8s.io/v1",'
    '"kind":"CSIStorageCapacity","metadata":{"name":"c1","namespace":"kube-system"},"storageClassName":"fast",'
    '"nodeTopology":{"matchLabels":{"topology.kubernetes.io/zone":"z1"}},"capacity":"10Gi","maximumVolumeSize":"2Gi"}}}]',
    '{"type":"DELETED","object":{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",'
    '"metadata":{"name":"c1","namespace":"kube-system"},"storageClassName":"fast"}}',
    '{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"c2"},"storageClassName":"fast",'
    '"nodeTopology":{"matchExpressions":[{"key":"zone","operator":"Bad"}]},"capacity":"-1"}',
    # DynamicResources' objects (capi/decode_dra.cc) and a pod with claims.
    '[{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},'
    '"spec":{"selectors":[{"cel":{"expression":"device.driver == \'gpu.example.com\'"}}]}}},'
    '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"n1-gpu"},'
    '"spec":{"driver":"gpu.example.com","nodeName":"n1","pool":{"name":"n1","generation":1,"resourceSliceCount":1},'
    '"devices":[{"name":"gpu-0","attributes":{"model":{"string":"a"},"index":{"int":0}},"capacity":{"memory":{"value":"80Gi"}}},'
    '{"name":"nic-0","allowMultipleAllocations":true,"capacity":{"bw":{"value":"10G","requestPolicy":{"default":"1G",'
    '"validRange":{"min":"1G","max":"4G","step":"500M"}}},"q":{"value":8,"requestPolicy":{"validValues":[1,2]}}}}]}}},'
    '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"s","namespace":"default"},'
    '"spec":{"devices":{"requests":[{"name":"nic","exactly":{"deviceClassName":"gpu","capacity":{"requests":{"bw":"1500M"}}}}]}},'
    '"status":{"allocation":{"devices":{"results":[{"request":"nic","driver":"gpu.example.com","pool":"n1","device":"nic-0",'
    '"shareID":"0f8a2c1e-4b7d-4e55-9a3c-2d1e0b9c8a77","consumedCapacity":{"bw":"1500M","q":1}}]}}}}},'
    '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"default"},'
    '"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu","count":1}}],'
    '"constraints":[{"matchAttribute":"gpu.example.com/model"}]}},"status":{"allocation":{"devices":{"results":['
    '{"request":"gpu","driver":"gpu.example.com","pool":"n1","device":"gpu-0"}]},"nodeSelector":{"nodeSelectorTerms":['
    '{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]}},"reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}}},'
    '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"t"},'
    '"spec":{"spec":{"devices":{"requests":[{"name":"gpu","firstAvailable":[{"name":"a","deviceClassName":"gpu"}]}]}}}}}]',
    # DRADeviceBindingConditions: a fabric device that binds to the node and
    # waits for conditions, a claim allocated on it with its copies,
    # allocationTimestamp and the device's status conditions.
    '[{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"fabric"},'
    '"spec":{"driver":"fabric.example.com","allNodes":true,"pool":{"name":"fabric","generation":1,"resourceSliceCount":1},'
    '"devices":[{"name":"gpu-0","bindsToNode":true,"bindingConditions":["dra.example.com/is-prepared"],'
    '"bindingFailureConditions":["dra.example.com/preparing-failed"]},{"name":"gpu-1"}]}}},'
    '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"f","namespace":"default"},'
    '"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}},'
    '"status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":"fabric.example.com","pool":"fabric","device":"gpu-0",'
    '"bindingConditions":["dra.example.com/is-prepared"],"bindingFailureConditions":["dra.example.com/preparing-failed"]}]},'
    '"allocationTimestamp":"1970-01-01T00:00:01Z","nodeSelector":{"nodeSelectorTerms":[{"matchFields":'
    '[{"key":"metadata.name","operator":"In","values":["n1"]}]}]}},'
    '"devices":[{"driver":"fabric.example.com","pool":"fabric","device":"gpu-0","conditions":['
    '{"type":"dra.example.com/is-prepared","status":"False"},{"type":"dra.example.com/preparing-failed","status":"True"}]}]}}}]',
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"dra","namespace":"default"},"spec":{"nodeName":"n1",'
    '"resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"t"}],"containers":[{"name":"c"}]},'
    '"status":{"resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"dra-gpu"}]}}',
    # DRAExtendedResource: a class providing an extended resource, the claim
    # a pod's extended resources got (annotated, the pod as controller).
    '[{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu-x",'
    '"creationTimestamp":"2026-01-02T03:04:05Z"},"spec":{"extendedResourceName":"example.com/gpu"}}},'
    '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"ext-extended-resources-a1",'
    '"namespace":"default","annotations":{"resource.kubernetes.io/extended-resource-claim":"true"},'
    '"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"ext","uid":"ext-uid","controller":true}]},'
    '"spec":{"devices":{"requests":[{"name":"container-1-request-0","exactly":{"deviceClassName":"gpu-x","count":2}}]}}}}]',
    "[]",
    "{}",
    '{"type":"ADDED"}',
    '{"type":"WHAT","object":{}}',
    '{"kind":"List","items":[{"kind":"Node","metadata":{"name":"n1"}},{"kind":"Node"}]}',
]

HAND_PODS = [
    {"kind": "Pod", "metadata": {"name": "ext", "namespace": "default", "uid": "ext-uid"},
     "spec": {"initContainers": [{"name": "i", "resources": {"requests": {"example.com/gpu": "2"}}},
                                 {"name": "s", "restartPolicy": "Always",
                                  "resources": {"requests": {"deviceclass.resource.kubernetes.io/gpu": "1"}}}],
              "containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "example.com/gpu": "1"}}}]}},
    {"kind": "Pod", "metadata": {"name": "claims", "namespace": "default", "uid": "u"},
     "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimName": "c"}], "containers": [{"name": "c"}]}},
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
     "spec": {"containers": [{"name": "c", "image": "nginx:1.25"}]}},
    {"kind": "Pod", "metadata": {"name": "big"},
     "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "3", "memory": "6Gi", "example.com/gpu": "1"}}}]}},
    {"kind": "Pod", "metadata": {"name": "fs"}, "spec": {"schedulerName": "fuzz-scheduler",
     "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}},
    {"kind": "Pod", "metadata": {"name": "nosuch"}, "spec": {"schedulerName": "nope", "containers": []}},
    {"kind": "Pod", "metadata": {"name": "pinned"}, "spec": {"nodeName": "n2", "containers": [{"name": "c"}]}},
    {"kind": "Pod", "metadata": {"name": "tol"}, "spec": {
        "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoSchedule"},
                        {"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}],
        "nodeSelector": {"topology.kubernetes.io/zone": "z1"},
        "containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 8080}]}]}},
    {"kind": "Pod", "metadata": {"name": "aff"}, "spec": {"affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "disk", "operator": "NotIn", "values": ["hdd"]},
                                  {"key": "kubernetes.io/hostname", "operator": "Exists"}]},
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n2", "n3"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 50, "preference": {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["z2"]}]}}]}},
        "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9"}]}},
    {"kind": "Pod", "metadata": {"name": "init"}, "spec": {
        "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}},
                           {"name": "s", "restartPolicy": "Always", "resources": {"requests": {"cpu": "500m"}}}],
        "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "2"}}}],
        "overhead": {"cpu": "250m", "memory": "120Mi"}, "resources": {"requests": {"cpu": "1500m"}}}},
    {"kind": "Pod", "metadata": {"name": "ipa", "labels": {"app": "ipa"}}, "spec": {"affinity": {
        "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "ipa"}}, "topologyKey": "topology.kubernetes.io/zone",
             "namespaceSelector": {"matchExpressions": [{"key": "team", "operator": "Exists"}]}}]},
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {}, "matchLabelKeys": ["app"], "topologyKey": "kubernetes.io/hostname"}],
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"labelSelector": {"matchExpressions": [
                    {"key": "app", "operator": "NotIn", "values": ["x"]}]},
                    "namespaces": ["default", "kube-system"], "topologyKey": "disk"}}]}},
        "containers": [{"name": "c"}]}},
    {"kind": "Pod", "metadata": {"name": "spread", "labels": {"app": "web", "pod-template-hash": "h"},
     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "controller": True}]},
     "spec": {"topologySpreadConstraints": [
         {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
          "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["pod-template-hash"],
          "minDomains": 2, "nodeAffinityPolicy": "Ignore", "nodeTaintsPolicy": "Honor"},
         {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway",
          "labelSelector": {}}],
         "containers": [{"name": "c"}]}},
    {"kind": "Pod", "metadata": {"name": "gt"}, "spec": {"affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "gen", "operator": "Gt", "values": ["2"]}]}]}}}, "containers": [{"name": "c"}]}},
]


# fuzz_stateful inputs (its header comment has the format): a config byte,
# then per operation an opcode (0 add nodes: count-1, attr, vary; 1 modify
# node: which, bit; 2 delete nodes: first, count-1; 3 re-add: which, xor;
# 4 bound pod: template, node; 5 delete pod: which; 6 pending pod:
# template; 7 schedule a run: template, flags | repeat << 3; 8 run: cycles,
# flags; 9 clock: ticks of 1.5 s; 10 namespace; 11 PDB; 12 schedule:
# template, flags; 13 score: template, first node, count | 128 for the
# deleted nodes' names too). Each exercises some operations; none is a known crash.
HAND_STATEFUL = [
    # 120 nodes, cycles that stop after 100 nodes (the start index moves).
    [0, 0, 119, 0, 0, 7, 0, 0x1A, 7, 4, 0x0A, 12, 3, 6],
    # A small cluster: bound, pending and preempting pods, the queue, the clock.
    [1, 0, 9, 0x40, 0x55, 4, 0, 1, 4, 5, 2, 6, 8, 6, 0x80 | 10, 8, 0, 6, 9, 200, 8, 3, 2, 5, 0,
     10, 1, 11, 0, 12, 0x88, 7],
    # Deletes, a re-add and relabels on a small cluster.
    [2, 0, 20, 0x20, 0xFF, 2, 3, 4, 3, 0, 5, 1, 2, 1, 1, 7, 5, 12, 1, 1, 12, 0, 7],
    # 150 nodes at percentageOfNodesToScore 10, relabels between cycles.
    [3, 0, 149, 0x60, 0x0F, 1, 40, 0, 1, 80, 3, 12, 0, 0, 12, 1, 0, 12, 2, 1],
    # Scores before and after a scale down and a run of schedules, deleted
    # nodes' names asked about too.
    [0, 0, 29, 0x40, 0x0F, 4, 0, 3, 13, 0, 0, 10, 2, 5, 2, 13, 0, 3, 0x80 | 20, 13, 1, 0, 12,
     7, 0, 0x18, 13, 0, 2, 40, 1, 3, 3, 13, 2, 1, 25],
]

# fuzz_nodes inputs: sched_engine_nodes queries over fuzz_common.h's cluster.
HAND_NODE_QUERIES = [
    "{}",
    '{"names":["n1","n3","missing"]}',
    '{"labelSelector":{"matchLabels":{"topology.kubernetes.io/zone":"z1"}}}',
    '{"labelSelector":{"matchExpressions":[{"key":"disk","operator":"Exists"}]}}',
    '{"names":["n2"],"labelSelector":{"matchExpressions":[{"key":"kubernetes.io/hostname",'
    '"operator":"NotIn","values":["n1"]}]}}',
    '{"labelSelector":{"matchExpressions":[{"key":"k","operator":"In"}]}}',
    '{"labelSelector":{"matchLabels":{"bad key":"v"}}}',
    '{"names":[""]}',
]


HAND_SELECTORS = [
    'device.driver == "dra.example.com"',
    'device.attributes["dra.example.com"].model == "a100"',
    'device.attributes["dra.example.com"].cores > 64 && device.attributes["dra.example.com"].healthy',
    'device.attributes["dra.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))',
    'device.capacity["dra.example.com"].memory.compareTo(quantity("40Gi")) >= 0',
    'device.capacity["other.example.com"].slots.add(quantity("500m")).asInteger() == 2',
    'cel.bind(d, device.attributes["dra.example.com"], d.model.startsWith("a") && d.cores % 2 == 0)',
    'device.attributes.exists_one(x, x == "other.example.com")',
    'device.attributes["dra.example.com"].model.split("1").size() == 2',
    '[1, 2, 3].map(x, x * 2).filter(y, y > 2).all(z, z < 10)',
    'isSemver("v1.2", true) && semver("v1.2", true).minor() == 2',
    'device.allowMultipleAllocations || "zone" in device.attributes["other.example.com"]',
    'device.attributes.all(domain, ids, ids.exists(k, v, k == "model" && v == "a100"))',
    '{"a": 1, "b": 2}.transformMapEntry(k, v, v > 1, {v: k}) == {2: "b"}',
    '[3, 1].transformList(i, v, i + v).existsOne(i, v, v == 3)',
    'url("https://a.example.com:8080/p?q=1").getQuery()["q"][0] == "1" && isURL("/x")',
    '!format.dns1123Label().validate(device.attributes["dra.example.com"].model).hasValue()',
    'format.named("uuid").value().validate("x").value().size() == 1',
]


def main():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--corpus", default=os.path.join(repo, "..", "shared", "corpus"))
    ap.add_argument("--examples", default=os.path.join(repo, "examples", "cluster"))
    ap.add_argument("--max-len", type=int, default=65536)
    args = ap.parse_args()
    seeds = Seeds(args.outdir, args.max_len)

    for root in (args.corpus, args.examples):
        if not os.path.isdir(root):
            print(f"make_seeds: {root} not found, skipped", file=sys.stderr)
            continue
        for path in json_files(root):
            raw, doc = load(path)
            if doc is None:
                seeds.add("apply", raw)
                continue
            items = add_document(seeds, doc, whole_text=raw)
            if len(raw) > args.max_len and len(items) > 1:
                for sub in sub_lists(items, args.max_len):
                    seeds.add("apply", compact(sub))

    for c in HAND_CONFIGS:
        seeds.add("config", c)
    for q in HAND_QUANTITIES:
        seeds.add("quantity", q)
    for a in HAND_APPLY:
        seeds.add("apply", a)
    for i, pod in enumerate(HAND_PODS):
        seeds.schedule(pod, flags=(0x0, 0x1, 0x2, 0x4, 0x7))
        bound = json.loads(json.dumps(pod))
        bound.setdefault("metadata", {})["namespace"] = "fuzz"
        bound["spec"]["nodeName"] = ["n1", "n2", "n3"][i % 3]
        seeds.add("apply", compact(bound))
    for ops in HAND_STATEFUL:
        seeds.add("stateful", bytes(ops))
    for e in HAND_SELECTORS:
        seeds.add("selector", e)
    for q in HAND_NODE_QUERIES:
        seeds.add("nodes", q)
    # Garbage the decoders should reject cleanly.
    for t in ("apply", "schedule", "config", "nodes"):
        for junk in (b"", b" ", b"\x07", b"{", b"\x00{}", b'{"a":1}x', b"\xff\xfe"):
            seeds.add(t, junk)

    print("make_seeds: " + ", ".join(f"{seeds.counts[t]} {t}" for t in TARGETS) +
          f" seeds in {args.outdir} ({seeds.new} new; {seeds.skipped} skipped as longer than"
          f" {args.max_len} bytes)")


if __name__ == "__main__":
    main()

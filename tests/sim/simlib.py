"""Helpers for the schedsim tests: run it, read its one JSON object, and work
out from the input which pods it must report (the spec of issue 2)."""

import collections
import json
import re
import subprocess

SCHEDSIM = None  # each test sets it from its first argument

WORKLOAD_KINDS = ("Deployment", "ReplicaSet", "StatefulSet", "Job")
# Kinds the engine may come to use (DESIGN.md, "Data flow"; Namespace for
# InterPodAffinity's namespaceSelector); any other kind must always be
# reported as ignored.
ENGINE_KINDS = {"Node", "Pod", "Namespace", "PersistentVolume", "PersistentVolumeClaim",
                "Service", "StorageClass", "CSINode", "PriorityClass", "PodDisruptionBudget"}
SAFE = "[bcdfghjklmnpqrstvwxz2456789]"  # the API server's name alphabet
SUFFIX = SAFE + "{5}"


def run(*args, stdin=None):
    return subprocess.run([SCHEDSIM, *args], input=stdin, capture_output=True, text=True,
                          timeout=600)


def run_json(test, *args):
    """Runs schedsim --output json; asserts exit 0 and exactly one JSON object."""
    p = run("--output", "json", *args)
    test.assertEqual(p.returncode, 0, f"schedsim {' '.join(args)}: {p.stderr}")
    text = p.stdout.strip()
    out, end = json.JSONDecoder().raw_decode(text)
    test.assertEqual(end, len(text), "output holds more than one JSON value")
    test.assertIsInstance(out, dict)
    for key, kind in (("placements", list), ("unschedulable", list), ("ignored", dict)):
        test.assertIsInstance(out.get(key), kind, f"missing or mistyped {key!r}")
    for p in out["placements"]:
        test.assertEqual(set(p), {"pod", "node"})
    for u in out["unschedulable"]:
        test.assertEqual(set(u), {"pod", "message"})
    for kind, n in out["ignored"].items():
        test.assertIsInstance(n, int)
        test.assertGreater(n, 0, kind)
    for p in out.get("preemptions", []):
        test.assertEqual(set(p), {"pod", "nominatedNodeName", "victims"})
        test.assertIsInstance(p["victims"], list)
    test.assertNotEqual(out.get("preemptions"), [], "an empty preemptions list is left out")
    return out


def flatten(doc):
    if isinstance(doc, list):
        for d in doc:
            yield from flatten(d)
    elif doc.get("kind", "").endswith("List") and "items" in doc:
        yield from flatten(doc["items"] or [])
    else:
        yield doc


def replicas(obj):
    spec = obj.get("spec") or {}
    if obj["kind"] != "Job":
        return 1 if spec.get("replicas") is None else spec["replicas"]
    if spec.get("suspend"):
        return 0
    n = 1 if spec.get("parallelism") is None else spec["parallelism"]
    return n if spec.get("completions") is None else min(n, spec["completions"])


def to_schedule(spec):
    """Whether schedsim schedules a pod with this spec."""
    spec = spec or {}
    return not spec.get("nodeName") and spec.get("schedulerName") in (None, "", "default-scheduler")


class Expected:
    """What a run over `objects` must report."""

    def __init__(self, objects):
        self.nodes = set()
        last = {}  # key of a named pod -> whether its last definition is pending
        self.patterns = collections.Counter()  # regex over "ns/name" -> pods it names
        self.kinds = collections.Counter()
        # DaemonSet pods: one per eligible node, which the engine decides.
        self.daemon_patterns = []
        owned = collections.Counter()  # "Kind/ns/name" -> objects it controls
        for o in objects:
            meta = o.get("metadata") or {}
            for ref in meta.get("ownerReferences") or []:
                if ref.get("controller"):
                    owned[f'{ref["kind"]}/{meta.get("namespace") or "default"}/{ref["name"]}'] += 1
                    break
        for o in objects:
            kind, meta = o["kind"], o.get("metadata") or {}
            self.kinds[kind] += 1
            ns = meta.get("namespace") or "default"
            name, gen = meta.get("name"), meta.get("generateName")
            if kind == "Node":
                self.nodes.add(name or gen)
            elif kind == "Pod" and (o.get("spec") or {}).get("nodeName") and name:
                last[f"{ns}/{name}"] = False  # the later definition wins
            elif kind == "Pod" and to_schedule(o.get("spec")):
                if name:
                    last[f"{ns}/{name}"] = True
                else:
                    self.patterns[f"{re.escape(ns)}/{re.escape(gen)}{SUFFIX}"] += 1
            elif kind in WORKLOAD_KINDS and to_schedule(o["spec"]["template"].get("spec")):
                n = re.escape(f"{ns}/{name}")
                pattern = {"StatefulSet": rf"{n}-\d+",
                           "Deployment": rf"{n}-[a-z0-9]+-{SUFFIX}"}.get(kind, rf"{n}-{SUFFIX}")
                # A controller makes only the pods (ReplicaSets) the input lacks.
                self.patterns[pattern] += max(replicas(o) - owned[f"{kind}/{ns}/{name}"], 0)
            elif kind == "DaemonSet" and to_schedule(o["spec"]["template"].get("spec")):
                self.daemon_patterns.append(rf"{re.escape(f'{ns}/{name}')}-{SUFFIX}")
        self.named = {key for key, pending in last.items() if pending}

    def pending(self):
        return len(self.named) + sum(self.patterns.values())

    def is_pending(self, key):
        return key in self.named or any(re.fullmatch(p, key) for p in self.patterns)

    def check(self, test, out, num_nodes=None):
        """Every pending pod exactly once (placed, unschedulable, or evicted
        by a preemption); FitError messages; ignored counts."""
        pods = [p["pod"] for p in out["placements"]] + [u["pod"] for u in out["unschedulable"]]
        test.assertEqual(len(pods), len(set(pods)), "a pod is reported twice")
        evicted = [v for p in out.get("preemptions", []) for v in p["victims"]]
        test.assertFalse(set(evicted) & set(pods), "an evicted pod is still reported")
        pods += [v for v in set(evicted) if self.is_pending(v)]
        pods = [p for p in pods if not any(re.fullmatch(d, p) for d in self.daemon_patterns)]
        test.assertEqual(len(pods), self.pending())
        rest = set(pods)
        for key in self.named:
            test.assertIn(key, rest)
            rest.discard(key)
        for pattern, count in self.patterns.items():
            matched = {p for p in rest if re.fullmatch(pattern, p)}
            test.assertEqual(len(matched), count, f"pods matching {pattern}")
            rest -= matched
        n = len(self.nodes) if num_nodes is None else num_nodes
        for u in out["unschedulable"]:
            test.assertTrue(u["message"].startswith((f"0/{n} nodes are available",
                                                     "waiting for scheduling gates: [")), u)
        for kind, count in self.kinds.items():
            if kind not in ENGINE_KINDS and kind not in WORKLOAD_KINDS and kind != "DaemonSet":
                test.assertEqual(out["ignored"].get(kind), count, f"ignored {kind}")
        for kind in out["ignored"]:
            test.assertIn(kind, self.kinds)
            test.assertNotIn(kind, {"Node", "Pod", "DaemonSet", *WORKLOAD_KINDS})


def load(paths):
    objects = []
    for path in paths:
        with open(path) as f:
            objects.extend(flatten(json.load(f)))
    return objects


def run_in(cwd, *args):
    """run() in directory `cwd` (SCHEDSIM must be an absolute path)."""
    return subprocess.run([SCHEDSIM, *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd)

#!/usr/bin/env python3
"""Writes a cluster dump as `kubectl get nodes,pods -A -o json` gives it: one
List of Nodes and Pods carrying what real objects carry (managedFields, a
kubectl.kubernetes.io/last-applied-configuration annotation of the given
size, full statuses). Most pods are bound; --pending of them are not.

  gen_dump.py --nodes 5000 --pods 150000 --pending 1000 --annotation-bytes 5000 OUT
"""
import argparse
import json


def managed_fields(manager):
    return [{"apiVersion": "v1", "fieldsType": "FieldsV1", "manager": manager,
             "operation": "Update", "time": "2026-01-02T03:04:05Z",
             "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                          "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}}}}}}]


def node(i):
    name = f"node-{i:05d}"
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": f"n-{i}", "resourceVersion": "1",
                     "creationTimestamp": "2026-01-01T00:00:00Z",
                     "labels": {"kubernetes.io/hostname": name,
                                "node.kubernetes.io/instance-type": ["m5.xlarge", "m5.2xlarge"][i % 2],
                                "topology.kubernetes.io/zone": f"zone-{i % 3}"},
                     "annotations": {"node.alpha.kubernetes.io/ttl": "0"},
                     "managedFields": managed_fields("kubelet")},
        "spec": {"podCIDR": f"10.{i // 256 % 256}.{i % 256}.0/24"},
        "status": {
            "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"},
            "allocatable": {"cpu": "3920m", "memory": "15Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                            "lastHeartbeatTime": "2026-01-02T00:00:00Z",
                            "lastTransitionTime": "2026-01-01T00:00:00Z",
                            "message": "kubelet is posting ready status"}],
            "addresses": [{"type": "InternalIP", "address": f"192.168.{i // 256 % 256}.{i % 256}"}],
            "nodeInfo": {"kubeletVersion": "v1.36.3", "osImage": "Debian GNU/Linux 12",
                         "architecture": "amd64", "operatingSystem": "linux",
                         "containerRuntimeVersion": "containerd://2.0.0",
                         "kernelVersion": "6.1.0", "kubeProxyVersion": "", "machineID": "m",
                         "systemUUID": "s", "bootID": "b"},
            "images": [{"names": ["registry.k8s.io/pause:3.10"], "sizeBytes": 320000}],
        },
    }


def pod(i, node_name, annotation_bytes):
    name = f"app-{i:06d}"
    spec = {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10",
                            "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}},
                            "terminationMessagePath": "/dev/termination-log",
                            "imagePullPolicy": "IfNotPresent"}],
            "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
            "schedulerName": "default-scheduler", "priority": 0,
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                             "effect": "NoExecute", "tolerationSeconds": 300}]}
    status = {"phase": "Pending", "qosClass": "Burstable"}
    if node_name:
        spec["nodeName"] = node_name
        status = {"phase": "Running", "qosClass": "Burstable", "hostIP": "192.168.0.1",
                  "podIP": "10.0.0.1", "podIPs": [{"ip": "10.0.0.1"}],
                  "startTime": "2026-01-01T00:00:00Z",
                  "conditions": [{"type": "Ready", "status": "True",
                                  "lastTransitionTime": "2026-01-01T00:00:00Z"}],
                  "containerStatuses": [{"name": "app", "ready": True, "restartCount": 0,
                                         "image": "registry.k8s.io/pause:3.10",
                                         "imageID": "sha256:0", "started": True,
                                         "state": {"running": {"startedAt": "2026-01-01T00:00:00Z"}}}]}
    applied = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec,
               "padding": "x" * max(0, annotation_bytes - 600)}
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": f"ns-{i % 20}", "uid": f"p-{i}",
                     "resourceVersion": "2", "creationTimestamp": "2026-01-01T00:00:00Z",
                     "labels": {"app": f"app-{i % 50}"},
                     "annotations": {"kubectl.kubernetes.io/last-applied-configuration":
                                     json.dumps(applied, separators=(",", ":")) + "\n"},
                     "managedFields": managed_fields("kubectl-client-side-apply")},
        "spec": spec, "status": status,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=100)
    ap.add_argument("--pods", type=int, default=2500)
    ap.add_argument("--pending", type=int, default=100)
    ap.add_argument("--annotation-bytes", type=int, default=11000)
    ap.add_argument("out")
    a = ap.parse_args()
    with open(a.out, "w") as f:
        f.write('{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[\n')
        sep = ""
        for i in range(a.nodes):
            f.write(sep + json.dumps(node(i), separators=(",", ":")))
            sep = ",\n"
        for i in range(a.pods):
            bound = i < a.pods - a.pending
            f.write(sep + json.dumps(pod(i, f"node-{i % a.nodes:05d}" if bound else "",
                                         a.annotation_bytes), separators=(",", ":")))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()

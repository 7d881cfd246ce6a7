// The engine the failure tests start from (BaseEngine: objects of every
// kind, bound, assumed and pending pods, a clock past zero) and a batch of
// events touching all of them (BatchWithFifth), shared by
// atomic_failure_test.cc (bad input) and alloc_sweep_test.cc (failed
// allocations).
#ifndef TESTS_CAPI_BASE_ENGINE_H_
#define TESTS_CAPI_BASE_ENGINE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi::testing {

// Objects of the kinds beside nodes and pods, in namespace "ns".
inline std::string PdbJson(const std::string& name, int allowed) {
  return R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":")" + name +
         R"(","namespace":"ns"},"spec":{"selector":{"matchLabels":{"app":"web"}}},)" +
         R"("status":{"disruptionsAllowed":)" + std::to_string(allowed) + "}}";
}
inline std::string NamespaceJson(const std::string& name, const std::string& labels) {
  return R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name +
         R"(","labels":{)" + labels + "}}}";
}
inline std::string ServiceJson(const std::string& name, const std::string& selector) {
  return R"({"apiVersion":"v1","kind":"Service","metadata":{"name":")" + name +
         R"(","namespace":"ns"},"spec":{"selector":{)" + selector + "}}}";
}
inline std::string ReplicaSetJson(const std::string& name, const std::string& selector) {
  return R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":")" + name +
         R"(","namespace":"ns"},"spec":{"selector":)" + selector + "}}";
}
// Volume objects: a zonal PV of class "fast" bound to claim "data" in "ns",
// that claim, the class, and a CSINode for n0.
inline std::string PvJson(const std::string& name, const std::string& zone) {
  return R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":")" + name +
         R"(","labels":{"topology.kubernetes.io/zone":")" + zone +
         R"("}},"spec":{"capacity":{"storage":"10Gi"},"accessModes":["ReadWriteOnce"],)"
         R"("storageClassName":"fast","claimRef":{"namespace":"ns","name":"data"},)"
         R"("csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"}},)"
         R"("status":{"phase":"Bound"}})";
}
inline std::string PvcJson(const std::string& name, const std::string& volume) {
  return R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":")" + name +
         R"(","namespace":"ns","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},)"
         R"("spec":{"storageClassName":"fast","volumeName":")" + volume +
         R"(","accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}})";
}
inline std::string StorageClassJson(const std::string& name, const std::string& mode) {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":")" + name +
         R"("},"provisioner":"ebs.csi.aws.com","volumeBindingMode":")" + mode + "\"}";
}
inline std::string CSIDriverJson(const std::string& name, bool capacity) {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":")" + name +
         R"("},"spec":{"storageCapacity":)" + (capacity ? "true" : "false") + "}}";
}
inline std::string CapacityJson(const std::string& name, const std::string& size) {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":")" +
         name + R"(","namespace":"ns"},"storageClassName":"fast",)" +
         R"("nodeTopology":{"matchLabels":{"zone":"z0"}},"capacity":")" + size + R"("})";
}
inline std::string AttachmentJson(const std::string& name, const std::string& node) {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":")" +
         name + R"("},"spec":{"attacher":"csi.example.com","nodeName":")" + node +
         R"(","source":{"persistentVolumeName":"pv"}}})";
}
inline std::string CSINodeJson(const std::string& name, const std::string& count) {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":")" + name +
         R"("},"spec":{"drivers":[{"name":"ebs.csi.aws.com","allocatable":{"count":)" + count +
         "}}]}}";
}
// DRA objects (resource.k8s.io/v1) in namespace "ns": a claim asking for
// `count` devices of class "gpu", a template, a class with one selector,
// and a slice of n0 with one device.
inline std::string ClaimJson(const std::string& kind, const std::string& name, int count) {
  const std::string spec = R"({"devices":{"requests":[{"name":"r","exactly":{)"
                           R"("deviceClassName":"gpu","count":)" +
                           std::to_string(count) + "}}]}}";
  return R"({"apiVersion":"resource.k8s.io/v1","kind":")" + kind + R"(","metadata":{"name":")" +
         name + R"(","namespace":"ns"},"spec":)" +
         (kind == "ResourceClaimTemplate" ? R"({"spec":)" + spec + "}" : spec) + "}";
}
inline std::string DeviceClassJson(const std::string& name, const std::string& expression) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":")" + name +
         R"("},"spec":{"selectors":[{"cel":{"expression":")" + expression + R"("}}]}})";
}
// `spec_extra` is spliced into the slice's spec and `device_extra` into its
// device; each starts with ',' when given.
inline std::string SliceJson(const std::string& name, const std::string& device,
                             const std::string& device_extra = "",
                             const std::string& spec_extra = "") {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":")" +
         name + R"("},"spec":{"driver":"gpu.example.com","nodeName":"n0",)" +
         R"("pool":{"name":"n0","generation":1,"resourceSliceCount":1},)" +
         R"("devices":[{"name":")" + device + "\"" + device_extra + "}]" + spec_extra + "}}";
}
// Pod fields of the newer plugins: a spread constraint, pod anti-affinity,
// preemptionPolicy. The bound pod "rich" has all three.
inline const std::string kSpread =
    R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",)"
    R"("whenUnsatisfiable":"ScheduleAnyway","labelSelector":{"matchLabels":{"app":"web"}}}],)";
inline const std::string kAntiAffinity =
    R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
    R"({"topologyKey":"zone","labelSelector":{"matchLabels":{"app":"db"}}}]}},)";
inline const std::string kNever = R"("preemptionPolicy":"Never",)";
inline const std::string kRichSpec = kSpread + kAntiAffinity + kNever;

struct EngineDeleter {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
using EnginePtr = std::unique_ptr<sched_engine, EngineDeleter>;

// Five equal nodes (so selectHost draws from the random source) with
// labels and a bound pod each (one with a spread constraint and pod
// anti-affinity), an assumed pod, a PDB, a Namespace, a Service, a
// ReplicaSet, and pending pods: one ready in activeQ, one gated, one that
// failed a cycle (unschedulable, backing off, attempts 1); the clock is at
// 1.5 s.
inline EnginePtr BaseEngine(const std::string& config = R"({"seed":7})") {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &e, nullptr), SCHED_OK);
  std::string events = "[";
  for (int i = 0; i < 5; ++i) {
    const std::string n = "n" + std::to_string(i);
    events += (i ? "," : "") +
              EventJson("ADDED", NodeJson(n, "8", R"("zone":"z)" + std::to_string(i % 2) + "\"")) +
              "," + EventJson("ADDED", PodJson("bound-" + n, "1", n));
  }
  events += "," + EventJson("ADDED", PodJson("rich", "1", "n0", kRichSpec));
  events += "," + EventJson("ADDED", PdbJson("pdb", 1));
  events += "," + EventJson("ADDED", NamespaceJson("ns", R"("team":"a")"));
  events += "," + EventJson("ADDED", ServiceJson("svc", R"("app":"web")"));
  events += "," + EventJson("ADDED", ReplicaSetJson("rs", R"({"matchLabels":{"app":"web"}})"));
  events += "," + EventJson("ADDED", PvJson("pv", "z0"));
  events += "," + EventJson("ADDED", PvcJson("data", "pv"));
  events += "," + EventJson("ADDED", StorageClassJson("fast", "WaitForFirstConsumer"));
  events += "," + EventJson("ADDED", CSINodeJson("n0", "2"));
  events += "," + EventJson("ADDED", CSIDriverJson("csi.example.com", true));
  events += "," + EventJson("ADDED", CapacityJson("cap", "10Gi"));
  events += "," + EventJson("ADDED", AttachmentJson("va", "n0"));
  events += "," + EventJson("ADDED", PodJson("too-big", "100"));
  events += "]";
  EXPECT_EQ(CallApply(e, events).status, SCHED_OK);
  EXPECT_EQ(CallSchedule(e, PodJson("assumed", "2"), SCHED_SCHEDULE_ASSUME).status, SCHED_OK);
  EXPECT_EQ(CallRun(e, 1, 0).status, SCHED_OK);  // too-big fails
  EXPECT_EQ(CallAdvanceClock(e, 1500).status, SCHED_OK);
  const std::string pending =
      "[" + EventJson("ADDED", PodJson("waiting", "1")) + "," +
      EventJson("ADDED", PodJson("gated", "1", "", R"("schedulingGates":[{"name":"g"}],)")) + "]";
  EXPECT_EQ(CallApply(e, pending).status, SCHED_OK);
  return EnginePtr(e);
}

// Sixteen events, all valid but the fifth, which is `bad`; the valid ones
// would add a node, bind pods, delete a node, queue a pod and add or change
// objects of every other kind if applied.
inline std::string BatchWithFifth(const std::string& bad) {
  std::vector<std::string> events = {
      EventJson("ADDED", NodeJson("extra", "64")),
      EventJson("ADDED", PodJson("p1", "1", "n0")),
      EventJson("MODIFIED", PdbJson("pdb", 0)),
      EventJson("ADDED", PodJson("queued", "1")),
      bad,
      EventJson("DELETED", NodeJson("n4", "8")),
      EventJson("MODIFIED", NodeJson("n1", "1")),
      EventJson("MODIFIED", NamespaceJson("ns", R"("team":"b")")),
      EventJson("ADDED", ServiceJson("svc2", R"("app":"db")")),
      EventJson("DELETED", ReplicaSetJson("rs", "{}")),
      EventJson("ADDED", PodJson("p2", "1", "n2")),
      EventJson("DELETED", PodJson("bound-n3", "1", "n3")),
      EventJson("ADDED", PodJson("p3", "1", "extra")),
      EventJson("ADDED", NodeJson("extra2", "64")),
      EventJson("ADDED", PodJson("p4", "1", "n1")),
      EventJson("MODIFIED", PvJson("pv", "z1")),
      EventJson("ADDED", PvcJson("data2", "")),
      EventJson("DELETED", StorageClassJson("fast", "Immediate")),
      EventJson("MODIFIED", CSINodeJson("n0", "3")),
      EventJson("MODIFIED", CSIDriverJson("csi.example.com", false)),
      EventJson("MODIFIED", CapacityJson("cap", "1Gi")),
      EventJson("ADDED", CapacityJson("cap2", "5Gi")),
      EventJson("DELETED", AttachmentJson("va", "n0")),
      EventJson("ADDED", AttachmentJson("va2", "n1")),
  };
  std::string doc = "[";
  for (size_t i = 0; i < events.size(); ++i) doc += (i ? "," : "") + events[i];
  return doc + "]";
}

}  // namespace sched::capi::testing

#endif  // TESTS_CAPI_BASE_ENGINE_H_

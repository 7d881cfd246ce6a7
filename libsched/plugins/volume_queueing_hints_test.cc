// The volume plugins' queueing hints, with the cases of upstream's
// isSchedulableAfter* tests (volumebinding/volume_binding_test.go,
// volumerestrictions/volume_restrictions_test.go,
// volumezone/volume_zone_test.go, nodevolumelimits/csi_test.go; v1.36.3).
// A wrong kind of object stands for upstream's "unexpected objects" cases.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/plugins/node_volume_limits.h"
#include "libsched/plugins/volume_binding.h"
#include "libsched/plugins/volume_restrictions.h"
#include "libsched/plugins/volume_zone.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/queueing_hints.h"
#include "libsched/testing/volumes.h"

namespace sched {
namespace volume_queueing_hints_test {
namespace {

using testing::ClaimVolume;
using testing::DiskVolume;
using testing::EphemeralVolume;
using testing::HintCase;
using testing::kQueue;
using testing::kSkip;
using testing::MakeClass;
using testing::MakeCSINode;
using testing::MakePV;
using testing::MakePVC;
using testing::PodBuilder;
using testing::Req;
using testing::RunHints;
using testing::Term;
using Source = PodVolume::Source;

constexpr ClusterEvent kCSINodeUpdate{EventResource::kCSINode, action::kUpdate, {}};
constexpr ClusterEvent kPVCAdd{EventResource::kPersistentVolumeClaim, action::kAdd, {}};
constexpr ClusterEvent kPVCUpdate{EventResource::kPersistentVolumeClaim, action::kUpdate, {}};
constexpr ClusterEvent kPVAdd{EventResource::kPersistentVolume, action::kAdd, {}};
constexpr ClusterEvent kPVUpdate{EventResource::kPersistentVolume, action::kUpdate, {}};
constexpr ClusterEvent kClassAdd{EventResource::kStorageClass, action::kAdd, {}};
constexpr ClusterEvent kClassUpdate{EventResource::kStorageClass, action::kUpdate, {}};
constexpr ClusterEvent kCapacityAdd{EventResource::kCSIStorageCapacity, action::kAdd, {}};
constexpr ClusterEvent kCapacityUpdate{EventResource::kCSIStorageCapacity, action::kUpdate, {}};
constexpr ClusterEvent kDriverUpdate{EventResource::kCSIDriver, action::kUpdate, {}};
constexpr ClusterEvent kAttachmentDelete{EventResource::kVolumeAttachment, action::kDelete, {}};

std::shared_ptr<const PersistentVolumeClaim> Claim(const std::string& name,
                                                   const std::string& ns = "default") {
  auto c = MakePVC(name);
  c->ns = ns;
  return c;
}

std::shared_ptr<const CSINode> MigratedPlugins(std::vector<std::string> plugins) {
  auto n = MakeCSINode("csinode-a", {});
  n->migrated_plugins = std::move(plugins);
  return n;
}

// volumebinding TestIsSchedulableAfterCSINodeChange.
TEST(VolumeQueueingHints, VolumeBindingCSINodeChange) {
  ClusterState cluster;
  auto pod = PodBuilder(cluster.interner(), "pod-a").Build();
  const ClusterEvent add{EventResource::kCSINode, action::kAdd, {}};
  RunHints(VolumeBinding(), cluster,
           {{"unexpected objects are passed", kCSINodeUpdate, pod, pod, pod, kQueue},
            {"CSINode is newly created", add, pod, {}, MigratedPlugins({}), kQueue},
            {"migrated-plugins annotation is added", kCSINodeUpdate, pod,
             MigratedPlugins({"test1"}), MigratedPlugins({"test1", "test2"}), kQueue},
            {"migrated-plugins annotation is updated", kCSINodeUpdate, pod,
             MigratedPlugins({"test1"}), MigratedPlugins({"test2"}), kQueue},
            {"migrated-plugins annotation unchanged", kCSINodeUpdate, pod,
             MigratedPlugins({"test1"}), MigratedPlugins({"test1"}), kSkip}});
}

// volumebinding TestIsSchedulableAfterPersistentVolumeClaimChange.
TEST(VolumeQueueingHints, VolumeBindingClaimChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto no_claims = PodBuilder(in, "pod-a").Build();
  auto other_ns = PodBuilder(in, "pod-a", "ns-a")
                      .Volume(ClaimVolume("pvc-a"))
                      .Volume(ClaimVolume("pvc-b"))
                      .Build();
  auto a_c =
      PodBuilder(in, "pod-a").Volume(ClaimVolume("pvc-a")).Volume(ClaimVolume("pvc-c")).Build();
  auto a_b =
      PodBuilder(in, "pod-a").Volume(ClaimVolume("pvc-a")).Volume(ClaimVolume("pvc-b")).Build();
  auto eph_a_c = PodBuilder(in, "pod-a")
                     .Volume(EphemeralVolume("pod-a", "ephemeral-a"))
                     .Volume(EphemeralVolume("pod-a", "ephemeral-c"))
                     .Build();
  auto eph_a_b = PodBuilder(in, "pod-a")
                     .Volume(EphemeralVolume("pod-a", "ephemeral-a"))
                     .Volume(EphemeralVolume("pod-a", "ephemeral-b"))
                     .Build();
  const auto b = Claim("pvc-b");
  const auto eph_b = Claim("pod-a-ephemeral-b");
  RunHints(
      VolumeBinding(), cluster,
      {{"pod has no pvc or ephemeral volumes", kPVCUpdate, no_claims, b, b, kSkip},
       {"same claim name in a different namespace", kPVCAdd, other_ns, {}, b, kSkip},
       {"pod has no pvc that is being modified", kPVCUpdate, a_c, b, b, kSkip},
       {"pod has no ephemeral volume being modified", kPVCUpdate, eph_a_c, eph_b, eph_b, kSkip},
       {"pod has the pvc that is being modified", kPVCUpdate, a_b, b, b, kQueue},
       {"pod has the ephemeral volume being modified", kPVCUpdate, eph_a_b, eph_b, eph_b, kQueue},
       {"type conversion error", kPVCUpdate, a_b, a_b, a_b, kQueue}});
}

// volumebinding TestIsSchedulableAfterStorageClassChange.
TEST(VolumeQueueingHints, VolumeBindingStorageClassChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "pod-a").Build();
  auto plain = MakeClass("sc-a", std::nullopt);
  auto topologies = MakeClass("sc-a", std::nullopt);
  topologies->allowed_topologies.push_back(
      Term({Req(in, "kubernetes.io/hostname", SelectorOp::kIn, {"node-a"})}));
  RunHints(
      VolumeBinding(), cluster,
      {{"a new StorageClass is created", kClassAdd, pod, {}, plain, kQueue},
       {"AllowedTopologies are changed", kClassUpdate, pod, plain, topologies, kQueue},
       {"no changes to the StorageClass", kClassUpdate, pod, plain, MakeClass("sc-a", {}), kSkip},
       {"type conversion error", kClassUpdate, pod, pod, pod, kQueue}});
}

std::shared_ptr<const CSIStorageCapacity> Capacity(std::optional<int64_t> capacity,
                                                   std::optional<int64_t> maximum) {
  auto c = std::make_shared<CSIStorageCapacity>();
  c->name = "cap-a";
  c->capacity = capacity;
  c->maximum_volume_size = maximum;
  return c;
}

// volumebinding TestIsSchedulableAfterCSIStorageCapacityChange.
TEST(VolumeQueueingHints, VolumeBindingCSIStorageCapacityChange) {
  ClusterState cluster;
  auto pod = PodBuilder(cluster.interner(), "pod-a").Build();
  const std::nullopt_t none = std::nullopt;
  auto change = [&](std::string name, std::shared_ptr<const CSIStorageCapacity> old_cap,
                    std::shared_ptr<const CSIStorageCapacity> new_cap, QueueingHint want) {
    return HintCase{std::move(name), kCapacityUpdate, pod, old_cap, new_cap, want};
  };
  RunHints(
      VolumeBinding(), cluster,
      {{"a new CSIStorageCapacity is created", kCapacityAdd, pod, {}, Capacity(none, none), kQueue},
       change("increase (Capacity set)", Capacity(none, none), Capacity(100, none), kQueue),
       change("increase (MaximumVolumeSize set)", Capacity(none, none), Capacity(none, 100),
              kQueue),
       change("increase (Capacity increase)", Capacity(50, none), Capacity(100, none), kQueue),
       change("increase (MaximumVolumeSize unset)", Capacity(100, 50), Capacity(100, none), kQueue),
       change("increase (MaximumVolumeSize increase)", Capacity(100, 50), Capacity(100, 60),
              kQueue),
       change("no changes", Capacity(100, 50), Capacity(100, 50), kSkip),
       change("equal (Capacity)", Capacity(100, none), Capacity(100, none), kSkip),
       change("equal (MaximumVolumeSize unset)", Capacity(100, 50), Capacity(50, none), kSkip),
       change("decrease (Capacity)", Capacity(100, none), Capacity(90, none), kSkip),
       change("decrease (MaximumVolumeSize)", Capacity(none, 100), Capacity(none, 90), kSkip),
       {"type conversion error", kCapacityUpdate, pod, pod, pod, kQueue}});
}

std::shared_ptr<const CSIDriver> Driver(const std::string& name, bool storage_capacity) {
  auto d = std::make_shared<CSIDriver>();
  d->name = name;
  d->storage_capacity = storage_capacity;
  return d;
}

// volumebinding TestIsSchedulableAfterCSIDriverChange (an unset
// storageCapacity is false in the model).
TEST(VolumeQueueingHints, VolumeBindingCSIDriverChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto no_csi = PodBuilder(in, "pod-a").Build();
  auto csi = PodBuilder(in, "pod-a").Volume(DiskVolume(Source::kCSI, "test1")).Build();
  RunHints(VolumeBinding(), cluster,
           {{"pod has no CSIDriver", kDriverUpdate, no_csi, Driver("test1", false),
             Driver("test1", true), kSkip},
            {"unexpected objects are passed", kDriverUpdate, no_csi, no_csi, no_csi, kQueue},
            {"driver names differ", kDriverUpdate, csi, Driver("test2", true),
             Driver("test2", false), kSkip},
            {"original StorageCapacity is nil", kDriverUpdate, csi, Driver("test1", false),
             Driver("test1", false), kSkip},
            {"modified StorageCapacity is nil", kDriverUpdate, csi, Driver("test1", true),
             Driver("test1", false), kQueue},
            {"modified StorageCapacity is true", kDriverUpdate, csi, Driver("test1", true),
             Driver("test1", true), kSkip}});
}

// volumerestrictions Test_isSchedulableAfterPersistentVolumeClaimChange.
TEST(VolumeQueueingHints, VolumeRestrictionsClaimAdded) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto one = PodBuilder(in, "pod-with-one-pvc").Volume(ClaimVolume("claim-with-rwx-1")).Build();
  auto two = PodBuilder(in, "pod-with-two-pvcs")
                 .Volume(ClaimVolume("claim-with-rwx-1"))
                 .Volume(ClaimVolume("claim-with-rwx-2"))
                 .Build();
  auto other_ns = PodBuilder(in, "pod-with-one-pvc", "kube-system")
                      .Volume(ClaimVolume("claim-with-rwx-1"))
                      .Build();
  // The claim an ephemeral volume names is not looked at.
  auto ephemeral = PodBuilder(in, "pod").Volume(EphemeralVolume("pod", "v")).Build();
  const auto pvc1 = Claim("claim-with-rwx-1");
  const auto pvc2 = Claim("claim-with-rwx-2");
  RunHints(VolumeRestrictions(), cluster,
           {{"queue-new-object-pvc-belong-pod", kPVCAdd, two, {}, pvc1, kQueue},
            {"skip-new-object-unused", kPVCAdd, one, {}, pvc2, kSkip},
            {"skip-new-object-namespace-not-equal-pod", kPVCAdd, other_ns, {}, pvc1, kSkip},
            {"ephemeral volume's claim", kPVCAdd, ephemeral, {}, Claim("pod-v"), kSkip},
            {"wrong object", kPVCAdd, one, {}, one, kQueue}});
}

// volumezone TestIsSchedulableAfterPersistentVolumeClaimAdded and
// TestIsSchedulableAfterStorageClassAdded.
TEST(VolumeQueueingHints, VolumeZoneClaimAndClassAdded) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod1 = PodBuilder(in, "pod_1").Volume(ClaimVolume("PVC_1")).Build();
  auto pod2 = PodBuilder(in, "pod_1").Volume(ClaimVolume("PVC_2")).Build();
  auto none = PodBuilder(in, "pod_1").Build();
  auto bound = MakePVC("PVC_1", "Vol_1");
  auto unbound = MakePVC("PVC_1");
  RunHints(
      VolumeZone(), cluster,
      {{"error-wrong-new-object", kPVCAdd, pod1, {}, pod1, kQueue},
       {"pvc added but pod refers no pvc", kPVCAdd, none, {}, bound, kSkip},
       {"pod bound to a different pvc", kPVCAdd, pod2, {}, bound, kSkip},
       {"pod bound to the pvc but different ns", kPVCAdd, pod1, {}, Claim("PVC_1", "ns1"), kSkip},
       {"pvc added and pod bound to it", kPVCAdd, pod1, {}, bound, kQueue},
       {"pvc updated and pod bound to it", kPVCUpdate, pod1, unbound, bound, kQueue},
       {"pvc updated but pod refers no pvc", kPVCUpdate, none, unbound, bound, kSkip},
       {"sc error-wrong-new-object", kClassAdd, pod1, {}, pod1, kQueue},
       {"sc without volume binding mode", kClassAdd, pod1, {}, MakeClass("SC_1", {}), kSkip},
       {"new sc is WaitForFirstConsumer",
        kClassAdd,
        pod1,
        {},
        MakeClass("SC_1", VolumeBindingMode::kWaitForFirstConsumer),
        kQueue}});
}

std::shared_ptr<const PersistentVolume> LabeledPV(Interner& in,
                                                  const std::map<std::string, std::string>& l) {
  auto pv = MakePV("Vol_1");
  std::vector<LabelSet::Entry> entries;
  for (const auto& [k, v] : l) entries.emplace_back(in.Intern(k), in.Intern(v));
  pv->labels = LabelSet(entries);
  return pv;
}

// volumezone TestIsSchedulableAfterPersistentVolumeChange, plus a label
// that does not parse (ignored, as getPVTopologies does) and the same zones
// in another order (a set).
TEST(VolumeQueueingHints, VolumeZonePersistentVolumeChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "pod_1").Volume(ClaimVolume("PVC_1")).Build();
  const std::string beta = "failure-domain.beta.kubernetes.io/zone";
  const std::string ga = "topology.kubernetes.io/zone";
  auto a = LabeledPV(in, {{beta, "us-west1-a"}});
  auto b = LabeledPV(in, {{beta, "us-west1-b"}});
  auto a_zone = LabeledPV(in, {{beta, "us-west1-a"}, {ga, "zone"}});
  auto a_other = LabeledPV(in, {{beta, "us-west1-a"}, {"other", "x"}});
  auto a_bad = LabeledPV(in, {{beta, "us-west1-a"}, {ga, "zone__"}});
  auto ab = LabeledPV(in, {{beta, "us-west1-a__us-west1-b"}});
  auto ba = LabeledPV(in, {{beta, "us-west1-b__us-west1-a"}});
  RunHints(VolumeZone(), cluster,
           {{"error-wrong-new-object", kPVAdd, pod, {}, pod, kQueue},
            {"error-wrong-old-object", kPVUpdate, pod, pod, MakePV("Vol_1"), kQueue},
            {"new-pv-was-added", kPVAdd, pod, {}, b, kQueue},
            {"pv updated and changed topology", kPVUpdate, pod, a, b, kQueue},
            {"pv updated and added topology label", kPVUpdate, pod, a, a_zone, kQueue},
            {"pv updated but no topology changed", kPVUpdate, pod, a_zone, a_zone, kSkip},
            {"another label changed", kPVUpdate, pod, a, a_other, kSkip},
            {"a topology label that does not parse", kPVUpdate, pod, a, a_bad, kSkip},
            {"zones reordered", kPVUpdate, pod, ab, ba, kSkip}});
}

// nodevolumelimits TestCSILimitsAddedPVCQHint.
TEST(VolumeQueueingHints, NodeVolumeLimitsClaimAdded) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto none = PodBuilder(in, "pod", "ns1").Build();
  auto pvc1 = PodBuilder(in, "pod", "ns1").Volume(ClaimVolume("pvc1")).Build();
  auto eph = PodBuilder(in, "pod1", "ns1").Volume(EphemeralVolume("pod1", "ephemeral")).Build();
  RunHints(
      NodeVolumeLimits(), cluster,
      {{"pod not in the PVC's namespace", kPVCAdd, none, {}, Claim("", "ns2"), kSkip},
       {"pod in the same namespace, same PVC", kPVCAdd, pvc1, {}, Claim("pvc1", "ns1"), kQueue},
       {"ephemeral volume of the added PVC",
        kPVCAdd,
        eph,
        {},
        Claim("pod1-ephemeral", "ns1"),
        kQueue},
       {"pod has another PVC", kPVCAdd, pvc1, {}, Claim("pvc2", "ns1"), kSkip},
       {"pod has no PVC", kPVCAdd, none, {}, Claim("pvc2", "ns1"), kSkip}});
}

std::shared_ptr<const VolumeAttachment> Attachment(const std::string& attacher,
                                                   std::optional<std::string> pv) {
  auto va = std::make_shared<VolumeAttachment>();
  va->name = "volumeattachment1";
  va->node_name = "fake-node";
  va->attacher = attacher;
  va->persistent_volume_name = std::move(pv);
  return va;
}

// nodevolumelimits TestCSILimitsDeletedVolumeAttachmentQHint.
TEST(VolumeQueueingHints, NodeVolumeLimitsVolumeAttachmentDeleted) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  const PodVolume ebs = DiskVolume(Source::kAWSElasticBlockStore, "test");
  const PodVolume gce = DiskVolume(Source::kGCEPersistentDisk, "test");
  auto claim = PodBuilder(in, "pod", "ns1").Volume(ClaimVolume("pvc1")).Build();
  auto ebs_pod = PodBuilder(in, "pod", "ns1").Volume(ebs).Build();
  auto gce_pod = PodBuilder(in, "pod", "ns1").Volume(gce).Build();
  auto ebs_claim = PodBuilder(in, "pod", "ns1").Volume(ebs).Volume(ClaimVolume("pvc1")).Build();
  auto none = PodBuilder(in, "pod", "ns1").Build();
  auto gke = Attachment("test.storage.gke.io", "pv1");
  auto ebs_va = Attachment("ebs.csi.aws.com", std::nullopt);
  RunHints(
      NodeVolumeLimits(), cluster,
      {{"pod has a PVC", kAttachmentDelete, claim, gke, {}, kQueue},
       {"inline EBS, EBS attachment (match)", kAttachmentDelete, ebs_pod, ebs_va, {}, kQueue},
       {"inline GCE PD, EBS attachment (no match)", kAttachmentDelete, gce_pod, ebs_va, {}, kSkip},
       {"inline EBS and PVC, EBS attachment", kAttachmentDelete, ebs_claim, ebs_va, {}, kQueue},
       {"inline EBS and PVC, other attachment", kAttachmentDelete, ebs_claim, gke, {}, kQueue},
       {"pod has no PVC", kAttachmentDelete, none, gke, {}, kSkip},
       {"wrong object", kAttachmentDelete, none, none, {}, kQueue}});
}

// nodevolumelimits TestCSILimitsAfterCSINodeUpdatedQHint, plus a new driver
// with a limit (raised from none) and one without (0).
TEST(VolumeQueueingHints, NodeVolumeLimitsCSINodeUpdated) {
  ClusterState cluster;
  auto pod = PodBuilder(cluster.interner(), "test-pod", "ns1")
                 .Volume(ClaimVolume("csi-ebs.csi.aws.com-0"))
                 .Build();
  auto limit = [](int32_t n) { return MakeCSINode("test-node", {{"ebs.csi.aws.com", n}}); };
  auto other = [](int32_t n) {
    return MakeCSINode("test-node", {{"ebs.csi.aws.com", 1}, {"other", n}});
  };
  RunHints(NodeVolumeLimits(), cluster,
           {{"limit raised, queue", kCSINodeUpdate, pod, limit(1), limit(2), kQueue},
            {"limit decreased, skip", kCSINodeUpdate, pod, limit(2), limit(1), kSkip},
            {"limit unchanged, skip", kCSINodeUpdate, pod, limit(1), limit(1), kSkip},
            {"new driver with a limit", kCSINodeUpdate, pod, limit(1), other(3), kQueue},
            {"new driver without a limit", kCSINodeUpdate, pod, limit(1), other(-1), kSkip},
            {"wrong objects", kCSINodeUpdate, pod, pod, pod, kQueue}});
}

}  // namespace
}  // namespace volume_queueing_hints_test
}  // namespace sched

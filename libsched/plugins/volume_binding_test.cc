#include "libsched/plugins/volume_binding.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/plugins/helper/csi_translation.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/volumes.h"

namespace sched {
namespace volume_binding_test {
namespace {

using testing::ClaimVolume;
using testing::MakeClass;
using testing::MakePV;
using testing::MakePVC;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::Req;
using testing::Term;

constexpr int64_t kGi = int64_t{1} << 30;
constexpr Code kReject = Code::kUnschedulableAndUnresolvable;

// PV specs of a case: name, capacity in Gi, the value of label "foo" its
// node affinity requires ("" for none).
struct PVSpec {
  std::string name;
  int64_t gi = 1;
  std::string affinity_foo = "";
  std::string claim_ref = "";
};
// Claims: name, class, bound PV ("" for none), request in Gi.
struct PVCSpec {
  std::string name;
  std::string storage_class;
  std::string bound_pv = "";
  int64_t gi = 0;
  bool lost = false;
};

struct Case {
  std::string name;
  std::vector<std::string> pod_claims;
  std::vector<PVCSpec> pvcs;
  std::vector<PVSpec> pvs;
  std::vector<std::string> node_foo;  // one node per entry, label foo=<value>
  Code want_pre_filter = Code::kSuccess;
  std::string want_pre_filter_msg = "";
  // Per node: the joined reasons of a rejection, "" for success.
  std::vector<std::string> want_filter = {};
};

std::string Join(std::string_view a, std::string_view b) {
  return std::string(a) + ", " + std::string(b);
}

void RunCase(const Case& c) {
  SCOPED_TRACE(c.name);
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertStorageClass(MakeClass("wait-sc", VolumeBindingMode::kWaitForFirstConsumer));
  s.UpsertStorageClass(MakeClass("immediate-sc", VolumeBindingMode::kImmediate));
  s.UpsertStorageClass(
      MakeClass("provision-sc", VolumeBindingMode::kWaitForFirstConsumer, "csi.example.com"));
  for (const PVCSpec& p : c.pvcs) {
    auto pvc = MakePVC(p.name, p.bound_pv, p.storage_class, access_mode::kReadWriteOnce);
    pvc->storage_request = p.gi * kGi;
    pvc->lost = p.lost;
    s.UpsertPersistentVolumeClaim(pvc);
  }
  for (const PVSpec& p : c.pvs) {
    auto pv = MakePV(p.name, "wait-sc");
    pv->capacity_bytes = p.gi * kGi;
    pv->access_modes = access_mode::kReadWriteOnce;
    if (!p.affinity_foo.empty()) {
      pv->node_affinity.emplace().terms.push_back(
          Term({Req(in, "foo", SelectorOp::kIn, {p.affinity_foo})}));
    }
    if (!p.claim_ref.empty()) {
      pv->claim_ref = ClaimRef{"default", p.claim_ref, ""};
      pv->available = false;
    }
    s.UpsertPersistentVolume(pv);
  }
  for (size_t i = 0; i < c.node_foo.size(); ++i) {
    s.UpsertNode(NodeBuilder(in, "node-" + std::to_string(i)).Label("foo", c.node_foo[i]).Build());
  }
  PodBuilder pb(in, "pod-a");
  for (const std::string& claim : c.pod_claims) pb.Volume(ClaimVolume(claim));
  const auto pod = pb.Build();

  VolumeBinding pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  const Status pre = pl.PreFilter(cs, *pod, s, &pfr);
  EXPECT_EQ(pre.code(), c.want_pre_filter) << pre.Message();
  EXPECT_EQ(pre.Message(), c.want_pre_filter_msg);
  if (!pre.IsSuccess()) return;
  ASSERT_EQ(c.want_filter.size(), c.node_foo.size());
  for (size_t i = 0; i < c.node_foo.size(); ++i) {
    const Status st = pl.Filter(cs, *pod, *s.FindNode("node-" + std::to_string(i)));
    EXPECT_EQ(st.code(), c.want_filter[i].empty() ? Code::kSuccess : kReject) << i;
    EXPECT_EQ(st.Message(), c.want_filter[i]) << i;
  }
}

// Upstream's TestVolumeBinding (the filter verdicts; scoring is off in
// v1.36), plus provisioning and the matching rules of FindMatchingVolume.
TEST(VolumeBindingTest, PreFilterAndFilter) {
  const std::string bind(VolumeBinding::kReasonBindConflict);
  const std::string node(VolumeBinding::kReasonNodeConflict);
  const std::vector<Case> cases = {
      {"pod has not pvcs", {}, {}, {}, {"a"}, Code::kSkip},
      {"all bound",
       {"pvc-a"},
       {{"pvc-a", "wait-sc", "pv-a"}},
       {{"pv-a", 1, "", "pvc-a"}},
       {"a"},
       Code::kSuccess,
       "",
       {""}},
      {"PVC does not exist",
       {"pvc-a"},
       {},
       {},
       {"a"},
       kReject,
       "persistentvolumeclaim \"pvc-a\" not found"},
      {"Part of PVCs do not exist",
       {"pvc-a", "pvc-b"},
       {{"pvc-a", "wait-sc", "pv-a"}},
       {{"pv-a", 1, "", "pvc-a"}},
       {"a"},
       kReject,
       "persistentvolumeclaim \"pvc-b\" not found"},
      {"immediate claims not bound",
       {"pvc-a"},
       {{"pvc-a", "immediate-sc"}},
       {},
       {"a"},
       kReject,
       std::string(VolumeBinding::kReasonUnboundImmediate)},
      {"unbound claims no matches",
       {"pvc-a"},
       {{"pvc-a", "wait-sc"}},
       {},
       {"a"},
       Code::kSuccess,
       "",
       {bind}},
      {"bound and unbound unsatisfied",
       {"pvc-a", "pvc-b"},
       {{"pvc-a", "wait-sc", "pv-a"}, {"pvc-b", "wait-sc"}},
       {{"pv-a", 1, "bar"}},
       {"barbar"},
       Code::kSuccess,
       "",
       {Join(node, bind)}},
      {"pv not found",
       {"pvc-a"},
       {{"pvc-a", "wait-sc", "pv-a"}},
       {},
       {"a"},
       Code::kSuccess,
       "",
       {std::string(VolumeBinding::kReasonPVNotExist)}},
      {"pv not found claim lost",
       {"pvc-a"},
       {{"pvc-a", "wait-sc", "pv-a", 0, true}},
       {},
       {"a"},
       kReject,
       "persistentvolumeclaim \"pvc-a\" bound to non-existent persistentvolume \"pv-a\""},
      {"unbound claim matched by node affinity and capacity",
       {"pvc-a"},
       {{"pvc-a", "wait-sc", "", 50}},
       {{"pv-a-0", 200, "a"}, {"pv-b-0", 100, "b"}, {"pv-c-0", 10, "c"}},
       {"a", "b", "c"},
       Code::kSuccess,
       "",
       {"", "", bind}},
      {"two claims need two volumes",
       {"pvc-a", "pvc-b"},
       {{"pvc-a", "wait-sc", "", 5}, {"pvc-b", "wait-sc", "", 5}},
       {{"pv-a-0", 10, "a"}, {"pv-b-0", 10, "b"}, {"pv-b-1", 10, "b"}},
       {"a", "b"},
       Code::kSuccess,
       "",
       {bind, ""}},
      {"a PV bound to another claim is not available",
       {"pvc-a"},
       {{"pvc-a", "wait-sc"}},
       {{"pv-a", 1, "", "other"}},
       {"a"},
       Code::kSuccess,
       "",
       {bind}},
      {"dynamic provisioning",
       {"pvc-a"},
       {{"pvc-a", "provision-sc", "", 5}},
       {},
       {"a"},
       Code::kSuccess,
       "",
       {""}},
  };
  for (const Case& c : cases) RunCase(c);
}

// PreFilter and (when it succeeds) Filter of `pod` on `node`.
Status FilterOn(const ClusterState& s, const Pod& pod, const std::string& node) {
  VolumeBinding pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  if (Status pre = pl.PreFilter(cs, pod, s, &pfr); !pre.IsSuccess()) return pre;
  return pl.Filter(cs, pod, *s.FindNode(node));
}

// checkVolumeProvisions: a class's allowedTopologies must match the node.
TEST(VolumeBindingTest, AllowedTopologies) {
  ClusterState s;
  Interner& in = s.interner();
  auto sc = MakeClass("zonal", VolumeBindingMode::kWaitForFirstConsumer, "csi.example.com");
  sc->allowed_topologies.push_back(Term({Req(in, "zone", SelectorOp::kIn, {"z1"})}));
  s.UpsertStorageClass(sc);
  s.UpsertPersistentVolumeClaim(MakePVC("pvc", "", "zonal"));
  s.UpsertNode(NodeBuilder(in, "in-z1").Label("zone", "z1").Build());
  s.UpsertNode(NodeBuilder(in, "in-z2").Label("zone", "z2").Build());
  const auto pod = PodBuilder(in, "p").Volume(ClaimVolume("pvc")).Build();
  EXPECT_TRUE(FilterOn(s, *pod, "in-z1").IsSuccess());
  EXPECT_EQ(FilterOn(s, *pod, "in-z2").Message(), VolumeBinding::kReasonBindConflict);
}

// binder_test.go TestFindPodVolumesWithCSIMigration: a bound in-tree GCE
// PD PV without node affinity is translated to CSI (its beta zone label
// becomes topology.gke.io/zone) on nodes whose CSINode lists the plugin as
// migrated; elsewhere its own (empty) affinity applies. Plus an AWS EBS PV
// with the GA zone label.
TEST(VolumeBindingTest, CSIMigration) {
  struct MigrationCase {
    std::string name;
    std::string in_tree_plugin;
    std::string zone_label;
    std::string node_key;
    std::string node_zone;
    std::optional<std::vector<std::string>> migrated;  // nullopt: no CSINode
    std::string want;
  };
  const std::string beta = "failure-domain.beta.kubernetes.io/zone";
  const std::string gke = "topology.gke.io/zone";
  const std::string gce(kGCEPDInTreePlugin);
  const std::string ebs(kAWSEBSInTreePlugin);
  const std::vector<MigrationCase> cases = {
      {"pvc-bound", gce, beta, gke, "us-east-1", {{gce}}, ""},
      {"pvc-bound,csinode-not-migrated", gce, beta, gke, "us-east-1", {{}}, ""},
      {"pvc-bound,missing-csinode", gce, beta, gke, "us-east-1", std::nullopt, ""},
      {"pvc-bound,node-different-zone",
       gce,
       beta,
       gke,
       "us-east-2",
       {{gce}},
       std::string(VolumeBinding::kReasonNodeConflict)},
      {"not migrated, node in another zone", gce, beta, gke, "us-east-2", {{ebs}}, ""},
      {"aws ebs, GA zone label",
       ebs,
       "topology.kubernetes.io/zone",
       "topology.ebs.csi.aws.com/zone",
       "us-east-2",
       {{gce, ebs}},
       std::string(VolumeBinding::kReasonNodeConflict)},
  };
  for (const MigrationCase& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    s.UpsertStorageClass(MakeClass("wait-sc", VolumeBindingMode::kWaitForFirstConsumer));
    s.UpsertPersistentVolumeClaim(MakePVC("pvc-migration-bound", "pv-migration-bound", "wait-sc"));
    auto pv = MakePV("pv-migration-bound", "wait-sc");
    pv->in_tree_plugin = c.in_tree_plugin;
    pv->labels = LabelSet(
        {{in.Intern(c.zone_label), in.Intern("us-east-1")},
         {in.Intern("failure-domain.beta.kubernetes.io/region"), in.Intern("us-east-1a")}});
    pv->claim_ref = ClaimRef{"default", "pvc-migration-bound", ""};
    pv->available = false;
    s.UpsertPersistentVolume(pv);
    s.UpsertNode(NodeBuilder(in, "node1").Label(c.node_key, c.node_zone).Build());
    if (c.migrated) {
      auto csi = testing::MakeCSINode("node1", {});
      csi->migrated_plugins = *c.migrated;
      s.UpsertCSINode(csi);
    }
    const auto pod = PodBuilder(in, "test-pod").Volume(ClaimVolume("pvc-migration-bound")).Build();
    EXPECT_EQ(FilterOn(s, *pod, "node1").Message(), c.want);
  }
}

// binder_test.go TestCapacity: a class whose CSIDriver opts into storage
// capacity provisions only where a CSIStorageCapacity of the class, whose
// nodeTopology selects the node, has room (maximumVolumeSize before
// capacity); without the opt-in capacity is not checked.
TEST(VolumeBindingTest, Capacity) {
  constexpr int64_t kMi = int64_t{1} << 20;
  struct Cap {
    std::string storage_class;
    std::string node;  // nodeTopology matchLabels nodeKey=<node>; "" selects every node
    std::optional<int64_t> capacity, maximum_volume_size;
  };
  const std::string wait = "waitClassWithProvisioner";
  const Cap network{wait, "", kGi, std::nullopt};
  const Cap node1{wait, "node1", kGi, std::nullopt};
  const Cap node2{wait, "node2", kGi, std::nullopt};
  struct Case {
    std::string name;
    std::vector<Cap> capacities;
    bool fits;
  };
  const std::vector<Case> cases = {
      {"network-attached", {network}, true},
      {"local-storage", {node1}, true},
      {"multiple", {network, node2, node1}, true},
      {"no-storage", {}, false},
      {"wrong-node", {{wait, "node2", kGi, std::nullopt}}, false},
      {"wrong-storage-class", {{"waitClass", "node1", kGi, std::nullopt}}, false},
      {"insufficient-storage", {{wait, "node1", kMi, std::nullopt}}, false},
      {"insufficient-volume-size", {{wait, "node1", kGi, kMi}}, false},
      {"zero-storage", {{wait, "node1", 0, std::nullopt}}, false},
      {"zero-volume-size", {{wait, "node1", std::nullopt, 0}}, false},
      {"nil-storage", {{wait, "node1", std::nullopt, std::nullopt}}, false},
  };
  for (const bool opt_in : {true, false}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name + (opt_in ? " (CSIDriver.StorageCapacity=true)" : " (=false)"));
      ClusterState s;
      Interner& in = s.interner();
      s.UpsertStorageClass(
          MakeClass(wait, VolumeBindingMode::kWaitForFirstConsumer, "test-provisioner"));
      auto driver = std::make_shared<CSIDriver>();
      driver->name = "test-provisioner";
      driver->storage_capacity = opt_in;
      s.UpsertCSIDriver(driver);
      int i = 0;
      for (const Cap& cap : c.capacities) {
        auto sc = std::make_shared<CSIStorageCapacity>();
        sc->ns = "default";
        sc->name = "net" + std::to_string(i++);
        sc->storage_class_name = cap.storage_class;
        sc->node_topology.emplace();
        if (!cap.node.empty()) {
          sc->node_topology->requirements.push_back(
              Req(in, "nodeKey", SelectorOp::kIn, {cap.node}));
        }
        sc->capacity = cap.capacity;
        sc->maximum_volume_size = cap.maximum_volume_size;
        s.UpsertCSIStorageCapacity(sc);
      }
      auto pvc = MakePVC("provisioned-pvc", "", wait);
      pvc->storage_request = kGi;
      pvc->has_storage_request = true;
      s.UpsertPersistentVolumeClaim(pvc);
      s.UpsertNode(NodeBuilder(in, "node1").Label("nodeKey", "node1").Build());
      const auto pod = PodBuilder(in, "p").Volume(ClaimVolume("provisioned-pvc")).Build();
      const Status st = FilterOn(s, *pod, "node1");
      if (c.fits || !opt_in) {
        EXPECT_TRUE(st.IsSuccess()) << st.Message();
      } else {
        EXPECT_EQ(st.code(), kReject);
        EXPECT_EQ(st.Message(), VolumeBinding::kReasonNotEnoughSpace);
      }
    }
  }
}

// A claim without a storage request is not checked (hasEnoughCapacity's
// first return); a nil nodeTopology gives no node access.
TEST(VolumeBindingTest, CapacityEdges) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertStorageClass(MakeClass("sc", VolumeBindingMode::kWaitForFirstConsumer, "d"));
  auto driver = std::make_shared<CSIDriver>();
  driver->name = "d";
  driver->storage_capacity = true;
  s.UpsertCSIDriver(driver);
  auto cap = std::make_shared<CSIStorageCapacity>();
  cap->name = "c";
  cap->storage_class_name = "sc";
  cap->capacity = kGi;  // node_topology nil
  s.UpsertCSIStorageCapacity(cap);
  s.UpsertPersistentVolumeClaim(MakePVC("no-request", "", "sc"));
  auto sized = MakePVC("sized", "", "sc");
  sized->has_storage_request = true;
  s.UpsertPersistentVolumeClaim(sized);
  s.UpsertNode(NodeBuilder(in, "n").Build());
  auto pod = [&](const std::string& claim) {
    return PodBuilder(in, "p").Volume(ClaimVolume(claim)).Build();
  };
  EXPECT_TRUE(FilterOn(s, *pod("no-request"), "n").IsSuccess());
  EXPECT_EQ(FilterOn(s, *pod("sized"), "n").Message(), VolumeBinding::kReasonNotEnoughSpace);
}

// AssumePodVolumes: the chosen PV is bound to the claim, so a second pod
// with another claim cannot take it; a provisioned claim gets the node.
TEST(VolumeBindingTest, AssumePodVolumes) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertStorageClass(MakeClass("wait-sc", VolumeBindingMode::kWaitForFirstConsumer));
  s.UpsertStorageClass(
      MakeClass("provision-sc", VolumeBindingMode::kWaitForFirstConsumer, "csi.example.com"));
  auto pv = MakePV("pv-0", "wait-sc");
  pv->capacity_bytes = kGi;
  s.UpsertPersistentVolume(pv);
  for (const char* c : {"data-0", "data-1"})
    s.UpsertPersistentVolumeClaim(MakePVC(c, "", "wait-sc"));
  s.UpsertPersistentVolumeClaim(MakePVC("scratch", "", "provision-sc"));
  s.UpsertNode(NodeBuilder(in, "n").Build());
  const auto pod0 =
      PodBuilder(in, "p-0").Volume(ClaimVolume("data-0")).Volume(ClaimVolume("scratch")).Build();
  AssumePodVolumes(*pod0, "n", &s);
  const PersistentVolumeClaim* data0 = s.FindPersistentVolumeClaim("default", "data-0");
  EXPECT_EQ(data0->volume_name, "pv-0");
  EXPECT_TRUE(data0->bind_completed);
  ASSERT_TRUE(s.FindPersistentVolume("pv-0")->claim_ref.has_value());
  EXPECT_EQ(s.FindPersistentVolume("pv-0")->claim_ref->name, "data-0");
  EXPECT_EQ(s.FindPersistentVolumeClaim("default", "scratch")->selected_node, "n");

  const auto pod1 = PodBuilder(in, "p-1").Volume(ClaimVolume("data-1")).Build();
  VolumeBinding pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  ASSERT_TRUE(pl.PreFilter(cs, *pod1, s, &pfr).IsSuccess());
  EXPECT_EQ(pl.Filter(cs, *pod1, *s.FindNode("n")).Message(), VolumeBinding::kReasonBindConflict);
}

// Pods without a claim-backed volume: PreFilter skips and AssumePodVolumes
// binds nothing, before any claim lookup; a claim among other volumes is
// still checked and bound.
TEST(VolumeBindingTest, PodsWithoutClaims) {
  using Source = PodVolume::Source;
  struct Case {
    std::string name;
    std::vector<PodVolume> volumes;
    Code want_pre_filter;
    bool want_bound;  // data-0 bound to pv-0 after AssumePodVolumes
  };
  const std::vector<Case> cases = {
      {"no volume", {}, Code::kSkip, false},
      {"disk volumes only",
       {testing::DiskVolume(Source::kGCEPersistentDisk, "pd"),
        testing::DiskVolume(Source::kCSI, "csi.example.com")},
       Code::kSkip,
       false},
      {"a claim after a disk volume",
       {testing::DiskVolume(Source::kCSI, "csi.example.com"), ClaimVolume("data-0")},
       Code::kSuccess,
       true},
      {"an ephemeral volume without its claim",
       {testing::DiskVolume(Source::kISCSI, "iqn"), testing::EphemeralVolume("p", "scratch")},
       kReject,
       false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    s.UpsertStorageClass(MakeClass("wait-sc", VolumeBindingMode::kWaitForFirstConsumer));
    auto pv = MakePV("pv-0", "wait-sc");
    pv->capacity_bytes = kGi;
    s.UpsertPersistentVolume(pv);
    s.UpsertPersistentVolumeClaim(MakePVC("data-0", "", "wait-sc"));
    s.UpsertNode(NodeBuilder(in, "n").Build());
    PodBuilder pb(in, "p");
    for (const PodVolume& v : c.volumes) pb.Volume(v);
    const auto pod = pb.Build();
    VolumeBinding pl;
    pl.set_slot(0);
    CycleState cs(1);
    PreFilterResult pfr;
    EXPECT_EQ(pl.PreFilter(cs, *pod, s, &pfr).code(), c.want_pre_filter);
    AssumePodVolumes(*pod, "n", &s);
    EXPECT_EQ(s.FindPersistentVolumeClaim("default", "data-0")->volume_name == "pv-0",
              c.want_bound);
  }
}

}  // namespace
}  // namespace volume_binding_test
}  // namespace sched

#include "libsched/plugins/node_volume_limits.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/testing/builders.h"
#include "libsched/testing/volumes.h"

namespace sched {
namespace node_volume_limits_test {
namespace {

using testing::ClaimVolume;
using testing::DiskVolume;
using testing::EphemeralVolume;
using testing::MakeClass;
using testing::MakeCSINode;
using testing::MakePV;
using testing::MakePVC;
using testing::NodeBuilder;
using testing::PodBuilder;

constexpr const char* kEBS = "ebs.csi.aws.com";
constexpr const char* kGCE = "pd.csi.storage.gke.io";

// A cluster in the spirit of upstream's TestCSILimits fixtures: CSI PVs
// csi-ebs-{0..3} and csi-gce-0 bound to claims of the same names, an
// in-tree EBS PV bound to "inline-ebs-pv", unbound claims of an EBS class,
// of a missing class, and of an in-tree EBS class.
void AddObjects(ClusterState& s) {
  for (int i = 0; i < 4; ++i) {
    const std::string name = "csi-ebs-" + std::to_string(i);
    auto pv = MakePV(name);
    pv->csi_driver = kEBS;
    pv->csi_handle = "vol-" + std::to_string(i);
    s.UpsertPersistentVolume(pv);
    s.UpsertPersistentVolumeClaim(MakePVC(name, name));
  }
  auto gce = MakePV("csi-gce-0");
  gce->csi_driver = kGCE;
  gce->csi_handle = "gce-0";
  s.UpsertPersistentVolume(gce);
  s.UpsertPersistentVolumeClaim(MakePVC("csi-gce-0", "csi-gce-0"));
  auto in_tree = MakePV("in-tree-ebs");
  in_tree->in_tree_plugin = "kubernetes.io/aws-ebs";
  in_tree->csi_driver = kEBS;
  in_tree->csi_handle = "vol-in-tree";
  s.UpsertPersistentVolume(in_tree);
  s.UpsertPersistentVolumeClaim(MakePVC("in-tree-ebs", "in-tree-ebs"));
  s.UpsertStorageClass(MakeClass("csi-sc", VolumeBindingMode::kImmediate, kEBS));
  s.UpsertStorageClass(
      MakeClass("in-tree-sc", VolumeBindingMode::kImmediate, "kubernetes.io/aws-ebs"));
  for (const char* c : {"pending-0", "pending-1"})
    s.UpsertPersistentVolumeClaim(MakePVC(c, "", "csi-sc"));
  s.UpsertPersistentVolumeClaim(MakePVC("missing-sc", "", "no-such-class"));
  s.UpsertPersistentVolumeClaim(MakePVC("invalid-pv", "no-such-pv", "csi-sc"));
  s.UpsertPersistentVolumeClaim(MakePVC("in-tree-pending", "", "in-tree-sc"));
}

std::vector<PodVolume> Claims(const std::vector<std::string>& names) {
  std::vector<PodVolume> out;
  for (const std::string& n : names) out.push_back(ClaimVolume(n));
  return out;
}

// Binds a pod using `existing` to node-1, then runs PreFilter and (when it
// succeeds) Filter of `pod` on node-1.
Status FilterOnNode1(ClusterState& s, const std::vector<PodVolume>& existing, const Pod& pod) {
  PodBuilder e(s.interner(), "existing");
  e.NodeName("node-1");
  for (const PodVolume& v : existing) e.Volume(v);
  s.UpsertPod(e.Build());
  NodeVolumeLimits pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  if (Status pre = pl.PreFilter(cs, pod, s, &pfr); !pre.IsSuccess()) return pre;
  return pl.Filter(cs, pod, *s.FindNode("node-1"));
}

TEST(NodeVolumeLimitsTest, Filter) {
  const PodVolume inline_ebs =
      DiskVolume(PodVolume::Source::kAWSElasticBlockStore, "aws://us-east-1a/vol-inline");
  struct Case {
    std::string name;
    std::vector<PodVolume> pod;
    std::vector<PodVolume> existing;  // of one pod on the node
    int32_t ebs_limit;                // -1: the driver reports no limit
    bool csi_node = true;
    Code want = Code::kSuccess;
  };
  const std::vector<Case> cases = {
      {"fits when node volume limit >= new pods CSI volume", Claims({"csi-ebs-0", "csi-ebs-1"}),
       Claims({"csi-ebs-2", "csi-ebs-3"}), 4},
      {"doesn't when node volume limit <= pods CSI volume", Claims({"csi-ebs-0", "csi-ebs-1"}),
       Claims({"csi-ebs-2"}), 2, true, Code::kUnschedulable},
      {"volumes already attached count once", Claims({"csi-ebs-0", "csi-ebs-1"}),
       Claims({"csi-ebs-0", "csi-ebs-1"}), 2},
      {"should when driver does not support volume limits", Claims({"csi-ebs-0", "csi-ebs-1"}),
       Claims({"csi-ebs-2"}), -1},
      {"count pending PVCs towards volume limit <= pods CSI volume",
       Claims({"pending-0", "pending-1"}), Claims({"csi-ebs-2"}), 2, true, Code::kUnschedulable},
      {"count multiple pending pvcs towards volume limit >= pods CSI volume",
       Claims({"pending-0", "pending-1"}), Claims({"csi-ebs-2"}), 4},
      {"should count PVCs with invalid PV name but valid SC", Claims({"invalid-pv"}),
       Claims({"csi-ebs-2", "csi-ebs-3"}), 2, true, Code::kUnschedulable},
      {"don't count pvcs with missing SC towards volume limit", Claims({"missing-sc"}),
       Claims({"csi-ebs-2", "csi-ebs-3"}), 2},
      {"don't count pvcs with different type towards volume limit", Claims({"csi-gce-0"}),
       Claims({"csi-ebs-2", "csi-ebs-3"}), 2},
      {"should count in-tree volumes if migration is enabled", Claims({"in-tree-ebs"}),
       Claims({"csi-ebs-2", "csi-ebs-3"}), 2, true, Code::kUnschedulable},
      {"should count unbound in-tree volumes if migration is enabled", Claims({"in-tree-pending"}),
       Claims({"csi-ebs-2", "csi-ebs-3"}), 2, true, Code::kUnschedulable},
      {"should count in-tree inline volumes if migration is enabled",
       {inline_ebs},
       Claims({"csi-ebs-2", "csi-ebs-3"}),
       2,
       true,
       Code::kUnschedulable},
      {"nil csi node", {inline_ebs}, Claims({"csi-ebs-2", "csi-ebs-3"}), 2, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    AddObjects(s);
    s.UpsertNode(NodeBuilder(in, "node-1").Build());
    if (c.csi_node) s.UpsertCSINode(MakeCSINode("node-1", {{kEBS, c.ebs_limit}, {kGCE, 1}}));
    PodBuilder pb(in, "pod");
    for (const PodVolume& v : c.pod) pb.Volume(v);
    const Status st = FilterOnNode1(s, c.existing, *pb.Build());
    EXPECT_EQ(st.code(), c.want) << st.Message();
    if (c.want == Code::kUnschedulable) {
      EXPECT_EQ(st.Message(), NodeVolumeLimits::kReasonMaxVolumeCountExceeded);
    }
  }
}

// TestCSILimits' VolumeAttachment cases ("should count VolumeAttachments
// towards volume limit when no pods exist", "should schedule pod when
// VolumeAttachments count does not exceed limit") and the rules of
// getNodeVolumeAttachmentInfo: only the node's, with an attacher and a PV
// that has spec.csi; a volume a pod there uses counts once.
TEST(NodeVolumeLimitsTest, VolumeAttachments) {
  struct VA {
    std::string node = "node-1";
    std::string attacher = kEBS;
    std::optional<std::string> pv;
  };
  struct Case {
    std::string name;
    std::vector<VA> attachments;
    std::vector<PodVolume> existing;
    Code want;
  };
  const std::vector<Case> cases = {
      {"should count VolumeAttachments towards volume limit when no pods exist",
       {{.pv = "csi-ebs-2"}, {.pv = "csi-ebs-3"}},
       {},
       Code::kUnschedulable},
      {"should schedule pod when VolumeAttachments count does not exceed limit",
       {{.pv = "csi-ebs-2"}},
       {},
       Code::kSuccess},
      {"a volume a pod on the node uses counts once",
       {{.pv = "csi-ebs-2"}},
       Claims({"csi-ebs-2"}),
       Code::kSuccess},
      {"another node's attachment",
       {{.node = "node-2", .pv = "csi-ebs-2"}, {.pv = "csi-ebs-3"}},
       {},
       Code::kSuccess},
      {"no attacher",
       {{.attacher = "", .pv = "csi-ebs-2"}, {.pv = "csi-ebs-3"}},
       {},
       Code::kSuccess},
      {"no PV name", {{.pv = std::nullopt}, {.pv = "csi-ebs-3"}}, {}, Code::kSuccess},
      {"unknown PV", {{.pv = "no-such-pv"}, {.pv = "csi-ebs-3"}}, {}, Code::kSuccess},
      {"in-tree PV (no spec.csi)",
       {{.pv = "in-tree-ebs"}, {.pv = "csi-ebs-3"}},
       {},
       Code::kSuccess},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    AddObjects(s);
    s.UpsertNode(NodeBuilder(in, "node-1").Build());
    s.UpsertCSINode(MakeCSINode("node-1", {{kEBS, 2}}));
    int i = 0;
    for (const VA& a : c.attachments) {
      auto va = std::make_shared<VolumeAttachment>();
      va->name = "va-" + std::to_string(i++);
      va->node_name = a.node;
      va->attacher = a.attacher;
      va->persistent_volume_name = a.pv;
      s.UpsertVolumeAttachment(va);
    }
    const auto pod = PodBuilder(in, "pod").Volume(ClaimVolume("csi-ebs-0")).Build();
    EXPECT_EQ(FilterOnNode1(s, c.existing, *pod).code(), c.want);
  }
}

// PreFilter skips pods without attachable volumes ("skip Filter when the pod
// only uses secrets and configmaps"), not pods with claims.
TEST(NodeVolumeLimitsTest, PreFilterSkip) {
  ClusterState s;
  Interner& in = s.interner();
  NodeVolumeLimits pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  EXPECT_TRUE(pl.PreFilter(cs, *PodBuilder(in, "p").Build(), s, &pfr).IsSkip());
  const auto csi_only =
      PodBuilder(in, "q").Volume(DiskVolume(PodVolume::Source::kCSI, kEBS)).Build();
  EXPECT_TRUE(pl.PreFilter(cs, *csi_only, s, &pfr).IsSkip());
  const auto with_claim = PodBuilder(in, "r").Volume(ClaimVolume("c")).Build();
  EXPECT_TRUE(pl.PreFilter(cs, *with_claim, s, &pfr).IsSuccess());
}

// The ephemeral cases of TestCSILimits: a missing claim, a claim the pod
// does not own, and an owned claim counted like any other.
TEST(NodeVolumeLimitsTest, EphemeralVolumes) {
  struct Case {
    std::string name;
    bool create_claim;
    std::string owner_uid;
    Code want;
    std::string want_msg;
  };
  const std::vector<Case> cases = {
      {"ephemeral volume missing", false, "", Code::kUnschedulableAndUnresolvable,
       "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found"},
      {"ephemeral volume not owned", true, "other", Code::kError,
       "PVC test/abc-xyz was not created for pod test/abc (pod is not owner)"},
      {"ephemeral doesn't when node volume limit <= pods CSI volume", true, "12345",
       Code::kUnschedulable, std::string(NodeVolumeLimits::kReasonMaxVolumeCountExceeded)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    AddObjects(s);
    if (c.create_claim) {
      auto pvc = MakePVC("abc-xyz", "csi-ebs-0");
      pvc->ns = "test";
      pvc->controller_uid = c.owner_uid;
      s.UpsertPersistentVolumeClaim(pvc);
    }
    s.UpsertNode(NodeBuilder(in, "node-1").Build());
    s.UpsertCSINode(MakeCSINode("node-1", {{kEBS, 1}}));
    s.UpsertPod(
        PodBuilder(in, "existing").NodeName("node-1").Volume(ClaimVolume("csi-ebs-1")).Build());
    const auto pod =
        PodBuilder(in, "abc", "test").Uid("12345").Volume(EphemeralVolume("abc", "xyz")).Build();
    NodeVolumeLimits pl;
    pl.set_slot(0);
    CycleState cs(1);
    PreFilterResult pfr;
    ASSERT_TRUE(pl.PreFilter(cs, *pod, s, &pfr).IsSuccess());
    const Status st = pl.Filter(cs, *pod, *s.FindNode("node-1"));
    EXPECT_EQ(st.code(), c.want);
    EXPECT_EQ(st.Message(), c.want_msg);
  }
}

}  // namespace
}  // namespace node_volume_limits_test
}  // namespace sched

#include "libsched/plugins/volume_restrictions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libsched/testing/builders.h"
#include "libsched/testing/volumes.h"

namespace sched {
namespace volume_restrictions_test {
namespace {

using testing::ClaimVolume;
using testing::DiskVolume;
using testing::MakePVC;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::RBDVolume;
using Source = PodVolume::Source;

struct Result {
  Status pre_filter;
  Status filter;  // only when PreFilter succeeded
};

// PreFilter then Filter on node-1, where `existing` pods are bound.
Result RunPlugin(ClusterState& s, const Pod& pod) {
  VolumeRestrictions pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  Result r{pl.PreFilter(cs, pod, s, &pfr), Status()};
  if (r.pre_filter.IsSuccess()) r.filter = pl.Filter(cs, pod, *s.FindNode("node-1"));
  return r;
}

std::shared_ptr<const Pod> PodWith(Interner& in, const std::string& name,
                                   std::vector<PodVolume> volumes, const std::string& node = "") {
  PodBuilder b(in, name);
  if (!node.empty()) b.NodeName(node);
  for (PodVolume& v : volumes) b.Volume(std::move(v));
  return b.Build();
}

// Upstream's TestGCEDiskConflicts, TestAWSDiskConflicts,
// TestRBDDiskConflicts and TestISCSIDiskConflicts: each source with
// "nothing", "one state", "same state" and "different state".
TEST(VolumeRestrictionsTest, DiskConflicts) {
  struct Source2 {
    std::string name;
    PodVolume state, state2;
  };
  const std::vector<Source2> sources = {
      {"GCE", DiskVolume(Source::kGCEPersistentDisk, "foo"),
       DiskVolume(Source::kGCEPersistentDisk, "bar")},
      {"AWS", DiskVolume(Source::kAWSElasticBlockStore, "foo"),
       DiskVolume(Source::kAWSElasticBlockStore, "bar")},
      {"RBD", RBDVolume({"a", "b"}, "foo", "bar"), RBDVolume({"c", "d"}, "foo", "bar")},
      {"ISCSI", DiskVolume(Source::kISCSI, "iqn.2016-12.server:storage.target01"),
       DiskVolume(Source::kISCSI, "iqn.2017-12.server:storage.target01")},
  };
  for (const Source2& src : sources) {
    struct Case {
      std::string name;
      std::vector<PodVolume> pod;
      std::vector<PodVolume> existing;  // one pod on the node when non-empty
      bool want_skip;
      bool want_conflict;
    };
    const std::vector<Case> cases = {
        {"nothing", {}, {}, true, false},
        {"one state", {}, {src.state}, true, false},
        {"same state", {src.state}, {src.state}, false, true},
        {"different state", {src.state2}, {src.state}, false, false},
    };
    for (const Case& c : cases) {
      SCOPED_TRACE(src.name + ": " + c.name);
      ClusterState s;
      Interner& in = s.interner();
      s.UpsertNode(NodeBuilder(in, "node-1").Build());
      if (!c.existing.empty()) s.UpsertPod(PodWith(in, "existing", c.existing, "node-1"));
      const Result r = RunPlugin(s, *PodWith(in, "pod", c.pod));
      EXPECT_EQ(r.pre_filter.code(), c.want_skip ? Code::kSkip : Code::kSuccess);
      if (c.want_conflict) {
        EXPECT_EQ(r.filter.code(), Code::kUnschedulable);
        EXPECT_EQ(r.filter.Message(), VolumeRestrictions::kReasonDiskConflict);
      } else {
        EXPECT_TRUE(r.filter.IsSuccess()) << r.filter.Message();
      }
    }
  }
}

// The read-only rules of isVolumeConflict: GCE PD, RBD and iSCSI allow
// shared read-only mounts; AWS EBS never shares.
TEST(VolumeRestrictionsTest, ReadOnlyMounts) {
  struct Case {
    std::string name;
    PodVolume a, b;
    bool want_conflict;
  };
  const std::vector<Case> cases = {
      {"GCE both read-only", DiskVolume(Source::kGCEPersistentDisk, "d", true),
       DiskVolume(Source::kGCEPersistentDisk, "d", true), false},
      {"GCE one read-write", DiskVolume(Source::kGCEPersistentDisk, "d", true),
       DiskVolume(Source::kGCEPersistentDisk, "d", false), true},
      {"AWS both read-only", DiskVolume(Source::kAWSElasticBlockStore, "d", true),
       DiskVolume(Source::kAWSElasticBlockStore, "d", true), true},
      {"RBD both read-only", RBDVolume({"a"}, "p", "i", true), RBDVolume({"a"}, "p", "i", true),
       false},
      {"RBD other pool", RBDVolume({"a"}, "p", "i"), RBDVolume({"a"}, "q", "i"), false},
      {"ISCSI both read-only", DiskVolume(Source::kISCSI, "q", true),
       DiskVolume(Source::kISCSI, "q", true), false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    s.UpsertNode(NodeBuilder(in, "node-1").Build());
    s.UpsertPod(PodWith(in, "existing", {c.b}, "node-1"));
    const Result r = RunPlugin(s, *PodWith(in, "pod", {c.a}));
    EXPECT_EQ(r.filter.code(), c.want_conflict ? Code::kUnschedulable : Code::kSuccess);
  }
}

// Upstream's TestAccessModeConflicts.
TEST(VolumeRestrictionsTest, AccessModeConflicts) {
  const AccessModes rwop = access_mode::kReadWriteOncePod;
  struct Case {
    std::string name;
    std::vector<std::string> pod_claims;
    std::vector<std::vector<std::string>> existing;  // claims of pods on node-1
    std::vector<std::pair<std::string, AccessModes>> pvcs;
    Code want_pre_filter;
    std::string want_pre_filter_msg;
    Code want_filter;
  };
  const std::vector<Case> cases = {
      {"nothing", {}, {}, {}, Code::kSkip, "", Code::kSuccess},
      {"failed to get PVC",
       {"claim-with-rwop-1"},
       {},
       {},
       Code::kUnschedulableAndUnresolvable,
       "persistentvolumeclaim \"claim-with-rwop-1\" not found",
       Code::kSuccess},
      {"no access mode conflict",
       {"claim-with-rwop-1"},
       {{"claim-with-rwx"}},
       {{"claim-with-rwop-1", rwop}, {"claim-with-rwx", access_mode::kReadWriteMany}},
       Code::kSkip,
       "",
       Code::kSuccess},
      {"access mode conflict, unschedulable",
       {"claim-with-rwop-1"},
       {{"claim-with-rwop-1"}, {"claim-with-rwx"}},
       {{"claim-with-rwop-1", rwop}, {"claim-with-rwx", access_mode::kReadWriteMany}},
       Code::kSuccess,
       "",
       Code::kUnschedulable},
      {"two conflicts, unschedulable",
       {"claim-with-rwop-1", "claim-with-rwop-2"},
       {{"claim-with-rwop-1", "claim-with-rwop-2"}, {"claim-with-rwx"}},
       {{"claim-with-rwop-1", rwop},
        {"claim-with-rwop-2", rwop},
        {"claim-with-rwx", access_mode::kReadWriteMany}},
       Code::kSuccess,
       "",
       Code::kUnschedulable},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    s.UpsertNode(NodeBuilder(in, "node-1").Build());
    for (const auto& [name, modes] : c.pvcs)
      s.UpsertPersistentVolumeClaim(MakePVC(name, "", "", modes));
    for (size_t i = 0; i < c.existing.size(); ++i) {
      std::vector<PodVolume> vols;
      for (const std::string& claim : c.existing[i]) vols.push_back(ClaimVolume(claim));
      s.UpsertPod(PodWith(in, "existing-" + std::to_string(i), vols, "node-1"));
    }
    std::vector<PodVolume> vols;
    for (const std::string& claim : c.pod_claims) vols.push_back(ClaimVolume(claim));
    const Result r = RunPlugin(s, *PodWith(in, "pod", vols));
    EXPECT_EQ(r.pre_filter.code(), c.want_pre_filter);
    EXPECT_EQ(r.pre_filter.Message(), c.want_pre_filter_msg);
    EXPECT_EQ(r.filter.code(), c.want_filter);
    if (c.want_filter != Code::kSuccess) {
      EXPECT_EQ(r.filter.Message(), VolumeRestrictions::kReasonReadWriteOncePodConflict);
    }
  }
}

// AddPod / RemovePod keep the ReadWriteOncePod count right on a clone: a
// nominated pod using the claim adds a conflict; removing the user (a
// preemption victim) clears it, and the original state is untouched.
TEST(VolumeRestrictionsTest, PreFilterExtensions) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "node-1").Build());
  s.UpsertPersistentVolumeClaim(MakePVC("rwop", "", "", access_mode::kReadWriteOncePod));
  const auto user = PodWith(in, "user", {ClaimVolume("rwop")}, "node-1");
  s.UpsertPod(user);
  const auto pod = PodWith(in, "pod", {ClaimVolume("rwop")});
  const NodeInfo& node = *s.FindNode("node-1");

  VolumeRestrictions pl;
  pl.set_slot(0);
  CycleState cs(1);
  PreFilterResult pfr;
  ASSERT_TRUE(pl.PreFilter(cs, *pod, s, &pfr).IsSuccess());
  EXPECT_EQ(pl.Filter(cs, *pod, node).code(), Code::kUnschedulable);

  CycleState removed = cs.Clone();
  ASSERT_TRUE(pl.RemovePod(removed, *pod, *user, node).IsSuccess());
  EXPECT_TRUE(pl.Filter(removed, *pod, node).IsSuccess());
  EXPECT_EQ(pl.Filter(cs, *pod, node).code(), Code::kUnschedulable);

  ASSERT_TRUE(pl.AddPod(removed, *pod, *user, node).IsSuccess());
  EXPECT_EQ(pl.Filter(removed, *pod, node).code(), Code::kUnschedulable);
}

}  // namespace
}  // namespace volume_restrictions_test
}  // namespace sched

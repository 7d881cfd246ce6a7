#include "libsched/plugins/volume_zone.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"
#include "libsched/testing/volumes.h"

namespace sched {
namespace volume_zone_test {
namespace {

using testing::ClaimVolume;
using testing::MakeClass;
using testing::MakePV;
using testing::MakePVC;
using testing::NodeBuilder;
using testing::PodBuilder;

constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";
using Labels = std::map<std::string, std::string>;

struct Case {
  std::string name;
  std::string claim;  // "" for a pod without volumes
  Labels node_labels;
  Code want_pre_filter = Code::kSuccess;
  Code want_filter = Code::kSuccess;
  std::string want_msg = "";  // of the failing status
};

// Runs each case against PVs (name -> labels) bound to claims "PVC_<i>" as
// listed, plus the extra claims and classes of TestWithBinding.
void RunCases(const std::vector<std::pair<std::string, Labels>>& pvs,
              const std::vector<std::pair<std::string, std::string>>& claims,
              const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    for (const auto& [name, labels] : pvs) {
      auto pv = MakePV(name);
      std::vector<LabelSet::Entry> entries;
      for (const auto& [k, v] : labels) entries.emplace_back(in.Intern(k), in.Intern(v));
      pv->labels = LabelSet(entries);
      s.UpsertPersistentVolume(pv);
    }
    for (const auto& [claim, volume] : claims)
      s.UpsertPersistentVolumeClaim(MakePVC(claim, volume));
    auto wait = MakePVC("PVC_WaitSC", "", "Class_Wait");
    s.UpsertPersistentVolumeClaim(wait);
    s.UpsertPersistentVolumeClaim(MakePVC("PVC_ImmediateSC", "", "Class_Immediate"));
    s.UpsertPersistentVolumeClaim(MakePVC("PVC_NoSC", "", "Class_0"));
    s.UpsertPersistentVolumeClaim(MakePVC("PVC_EmptySC"));
    s.UpsertStorageClass(MakeClass("Class_Immediate", std::nullopt));
    s.UpsertStorageClass(MakeClass("Class_Wait", VolumeBindingMode::kWaitForFirstConsumer));
    NodeBuilder nb(in, "host1");
    for (const auto& [k, v] : c.node_labels) nb.Label(k, v);
    s.UpsertNode(nb.Build());
    PodBuilder pb(in, "pod_1");
    if (!c.claim.empty()) pb.Volume(ClaimVolume(c.claim));
    const auto pod = pb.Build();

    VolumeZone pl;
    pl.set_slot(0);
    CycleState cs(1);
    PreFilterResult pfr;
    const Status pre = pl.PreFilter(cs, *pod, s, &pfr);
    EXPECT_EQ(pre.code(), c.want_pre_filter) << pre.Message();
    if (c.want_pre_filter != Code::kSuccess) {
      if (c.want_pre_filter != Code::kSkip) {
        EXPECT_EQ(pre.Message(), c.want_msg);
      }
      continue;
    }
    const Status st = pl.Filter(cs, *pod, *s.FindNode("host1"));
    EXPECT_EQ(st.code(), c.want_filter);
    if (c.want_filter != Code::kSuccess) {
      EXPECT_EQ(st.Message(), VolumeZone::kReasonConflict);
    }
  }
}

constexpr Code kReject = Code::kUnschedulableAndUnresolvable;

// Upstream's TestSingleZone.
TEST(VolumeZoneTest, SingleZone) {
  const std::vector<std::pair<std::string, Labels>> pvs = {
      {"Vol_1", {{kBetaZone, "us-west1-a"}}},
      {"Vol_2", {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}},
      {"Vol_Stable_1", {{kZone, "us-west1-a"}}},
      {"Vol_Stable_2", {{kRegion, "us-west1"}, {"uselessLabel", "none"}}},
      {"Vol_Stable_3", {{kZone, "us-west1-a"}, {kRegion, "us-west1-a"}}},
  };
  const std::vector<std::pair<std::string, std::string>> claims = {
      {"PVC_1", "Vol_1"},
      {"PVC_2", "Vol_2"},
      {"PVC_4", "Vol_not_exist"},
      {"PVC_Stable_1", "Vol_Stable_1"},
      {"PVC_Stable_2", "Vol_Stable_2"},
      {"PVC_Stable_3", "Vol_Stable_3"},
  };
  RunCases(pvs, claims,
           {
               {"pod without volume", "", {{kBetaZone, "us-west1-a"}}, Code::kSkip},
               {"node without labels", "PVC_1", {}},
               {"beta zone label matched",
                "PVC_1",
                {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}},
               {"beta region label matched", "PVC_2", {{kBetaRegion, "us-west1"}}},
               {"beta region label doesn't match",
                "PVC_2",
                {{kBetaRegion, "no_us-west1"}},
                Code::kSuccess,
                kReject},
               {"beta zone label doesn't match",
                "PVC_1",
                {{kBetaZone, "no_us-west1-a"}},
                Code::kSuccess,
                kReject},
               {"zone label matched", "PVC_Stable_1", {{kZone, "us-west1-a"}}},
               {"region label matched", "PVC_Stable_2", {{kRegion, "us-west1"}}},
               {"region label doesn't match",
                "PVC_Stable_2",
                {{kRegion, "no_us-west1"}},
                Code::kSuccess,
                kReject},
               {"zone label doesn't match",
                "PVC_Stable_1",
                {{kZone, "no_us-west1-a"}},
                Code::kSuccess,
                kReject},
               {"pv with zone and region, node with only zone",
                "PVC_Stable_3",
                {{kZone, "us-west1-a"}},
                Code::kSuccess,
                kReject},
               {"pv with zone,node with beta zone",
                "PVC_Stable_1",
                {{kBetaZone, "us-west1-a"}},
                Code::kSuccess,
                kReject},
               {"pv with beta label,node with ga label, matched", "PVC_1", {{kZone, "us-west1-a"}}},
               {"pv with beta label,node with ga label, don't match",
                "PVC_1",
                {{kZone, "us-west1-b"}},
                Code::kSuccess,
                kReject},
               // The real lister's NotFound message.
               {"bound to a missing PV",
                "PVC_4",
                {},
                kReject,
                Code::kSuccess,
                "persistentvolume \"Vol_not_exist\" not found"},
           });
}

// Upstream's TestMultiZone: a "__"-separated PV label is a set of zones.
TEST(VolumeZoneTest, MultiZone) {
  const std::vector<std::pair<std::string, Labels>> pvs = {
      {"Vol_1", {{kBetaZone, "us-west1-a"}}},
      {"Vol_2", {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}},
      {"Vol_3", {{kBetaZone, "us-west1-c__us-west1-a"}}},
      {"Vol_Stable_1", {{kZone, "us-west1-a"}}},
      {"Vol_Stable_2", {{kZone, "us-west1-c__us-west1-a"}}},
  };
  const std::vector<std::pair<std::string, std::string>> claims = {
      {"PVC_1", "Vol_1"},
      {"PVC_2", "Vol_2"},
      {"PVC_3", "Vol_3"},
      {"PVC_Stable_1", "Vol_Stable_1"},
      {"PVC_Stable_2", "Vol_Stable_2"},
  };
  RunCases(pvs, claims,
           {
               {"node without labels", "PVC_3", {}},
               {"beta zone label matched", "PVC_3", {{kBetaZone, "us-west1-a"}}},
               {"beta zone label doesn't match",
                "PVC_1",
                {{kBetaZone, "us-west1-b"}},
                Code::kSuccess,
                kReject},
               {"zone label matched", "PVC_Stable_2", {{kZone, "us-west1-a"}}},
               {"zone label doesn't match",
                "PVC_Stable_2",
                {{kZone, "us-west1-b"}},
                Code::kSuccess,
                kReject},
           });
}

// Upstream's TestWithBinding: unbound claims by class.
TEST(VolumeZoneTest, WithBinding) {
  const Labels node = {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}};
  RunCases({{"Vol_1", {{kBetaZone, "us-west1-a"}}}}, {{"PVC_1", "Vol_1"}},
           {
               {"label zone failure domain matched", "PVC_1", node},
               {"unbound volume empty storage class", "PVC_EmptySC", node, kReject, Code::kSuccess,
                "PersistentVolumeClaim had no pv name and storageClass name"},
               // Upstream's fake lister words it "storageclasses..."; the
               // real one, which the scheduler uses, "storageclass...".
               {"unbound volume no storage class", "PVC_NoSC", node, kReject, Code::kSuccess,
                "storageclass.storage.k8s.io \"Class_0\" not found"},
               {"unbound volume immediate binding mode", "PVC_ImmediateSC", node, kReject,
                Code::kSuccess, "VolumeBindingMode not set for StorageClass \"Class_Immediate\""},
               {"unbound volume wait binding mode", "PVC_WaitSC", node, Code::kSkip},
               {"missing claim", "PVC_missing", node, kReject, Code::kSuccess,
                "persistentvolumeclaim \"PVC_missing\" not found"},
           });
}

}  // namespace
}  // namespace volume_zone_test
}  // namespace sched

// sched_engine_drain against the slow path: a twin engine deletes the
// nodes and their pods, then schedules the moving pods one by one with
// SCHED_SCHEDULE_ASSUME in queue order; they land on the same nodes, the
// same ones stay pending with the same FitError. PDB-blocked evictions,
// DaemonSet and mirror pods are reported; the engine is left as it was
// (state digest); bad requests name the field.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "capi/engine.h"
#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace drain_test {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EnginePtr;
using testing::EventJson;
using testing::Get;
using testing::NodeJson;
using testing::PdbJson;

CallResult CallDrain(sched_engine* e, const std::string& request) {
  return testing::CallWithInput(sched_engine_drain, e, request);
}

enum class Kind { kPlain, kDaemonSet, kMirror };

struct TestPod {
  std::string name;
  std::string cpu;
  std::string node;
  int priority = 0;
  Kind kind = Kind::kPlain;
  bool web = false;  // labelled app=web (the PDB's selector)
};

// The pod in namespace "ns"; bound to `node` when not empty.
std::string Json(const TestPod& p, const std::string& node) {
  std::string meta = R"("name":")" + p.name + R"(","namespace":"ns")";
  if (p.web) meta += R"(,"labels":{"app":"web"})";
  if (p.kind == Kind::kDaemonSet) {
    meta += R"(,"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"ds",)"
            R"("uid":"ds-uid","controller":true}])";
  }
  if (p.kind == Kind::kMirror) meta += R"(,"annotations":{"kubernetes.io/config.mirror":"x"})";
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{)" + meta + R"(},"spec":{)" + node_name +
         R"("priority":)" + std::to_string(p.priority) +
         R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":")" + p.cpu + R"("}}}]}})";
}

// Twelve nodes (cpu 1..4, two zones), each with a DaemonSet pod and a mix
// of pods of three priorities; two app=web; a mirror pod on n0.
std::vector<TestPod> Pods() {
  std::vector<TestPod> pods;
  for (int i = 0; i < 12; ++i) {
    const std::string n = "n" + std::to_string(i);
    pods.push_back({"ds-" + n, "100m", n, 0, Kind::kDaemonSet});
    pods.push_back({"a-" + n, std::to_string(200 + 100 * (i % 5)) + "m", n, i % 3});
    if (i % 2 == 0) pods.push_back({"b-" + n, "600m", n, 10 * (i % 4)});
    if (i == 1 || i == 2) pods.push_back({"web-" + n, "300m", n, 0, Kind::kPlain, true});
  }
  pods.push_back({"static-n0", "100m", "n0", 0, Kind::kMirror});
  return pods;
}

EnginePtr Cluster(const std::string& config, const std::vector<TestPod>& pods, int pdb_allowed) {
  sched_engine* raw = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  std::string events = "[" + EventJson("ADDED", PdbJson("web-pdb", pdb_allowed));
  for (int i = 0; i < 12; ++i) {
    events += "," + EventJson("ADDED", NodeJson("n" + std::to_string(i), std::to_string(1 + i % 4),
                                                R"("topology.kubernetes.io/zone":"z)" +
                                                    std::to_string(i % 2) + "\""));
  }
  for (const TestPod& p : pods) events += "," + EventJson("ADDED", Json(p, p.node));
  events += "]";
  EXPECT_EQ(CallApply(e.get(), events).status, SCHED_OK);
  return e;
}

std::string Request(const std::vector<std::string>& nodes) {
  std::string r = R"({"nodes":[)";
  for (size_t i = 0; i < nodes.size(); ++i) r += (i ? ",\"" : "\"") + nodes[i] + "\"";
  return r + "]}";
}

// What the slow path expects for one moving pod.
struct Expected {
  std::string pod;
  std::string node;  // "" when pending
  std::string message;
};

// The slow path: the nodes and every pod on them deleted, then the moving
// pods scheduled one by one (priority, then node order, then name).
std::vector<Expected> SlowDrain(sched_engine* e, const std::vector<TestPod>& pods,
                                const std::vector<std::string>& nodes) {
  std::string events = "[";
  std::vector<std::pair<size_t, const TestPod*>> movers;
  for (const TestPod& p : pods) {
    const auto at = std::find(nodes.begin(), nodes.end(), p.node);
    if (at == nodes.end()) continue;
    events += (events.size() > 1 ? "," : "") + EventJson("DELETED", Json(p, p.node));
    if (p.kind == Kind::kPlain) movers.emplace_back(at - nodes.begin(), &p);
  }
  for (const std::string& n : nodes) events += "," + EventJson("DELETED", NodeJson(n, "1"));
  events += "]";
  EXPECT_EQ(CallApply(e, events).status, SCHED_OK);
  std::sort(movers.begin(), movers.end(), [](const auto& a, const auto& b) {
    if (a.second->priority != b.second->priority) return a.second->priority > b.second->priority;
    if (a.first != b.first) return a.first < b.first;
    return a.second->name < b.second->name;
  });
  std::vector<Expected> out;
  for (const auto& [i, p] : movers) {
    const CallResult r = CallSchedule(e, Json(*p, ""), SCHED_SCHEDULE_ASSUME);
    EXPECT_EQ(r.status, SCHED_OK) << r.message;
    JsonDoc doc(cJSON_Parse(r.output.c_str()));
    const cJSON* node = Get(doc.get(), "node");
    out.push_back({"ns/" + p->name, cJSON_IsString(node) ? node->valuestring : "",
                   cJSON_IsString(node) ? "" : Get(doc.get(), "message")->valuestring});
  }
  return out;
}

TEST(DrainTest, MovesPodsAsDeletingTheNodesAndSchedulingThemOneByOne) {
  const std::vector<std::vector<std::string>> drains = {
      {"n0"},
      {"n1", "n2"},
      {"n7", "n0", "n5"},
      {"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"}};
  const std::vector<TestPod> pods = Pods();
  for (const std::string config : {R"({"seed":3})", R"({"seed":3,"equivalenceCache":true})"}) {
    for (const auto& nodes : drains) {
      EnginePtr asked = Cluster(config, pods, 5);
      EnginePtr slow = Cluster(config, pods, 5);
      const uint64_t before = asked->rep->StateDigest();
      const CallResult r = CallDrain(asked.get(), Request(nodes));
      ASSERT_EQ(r.status, SCHED_OK) << r.message;
      EXPECT_EQ(asked->rep->StateDigest(), before) << r.output;
      const std::vector<Expected> want = SlowDrain(slow.get(), pods, nodes);
      JsonDoc doc(cJSON_Parse(r.output.c_str()));
      const cJSON* got = Get(doc.get(), "pods");
      ASSERT_EQ(cJSON_GetArraySize(got), static_cast<int>(want.size())) << r.output;
      std::map<std::string, int> pending;
      bool any_pending = false;
      for (size_t k = 0; k < want.size(); ++k) {
        const cJSON* m = cJSON_GetArrayItem(got, static_cast<int>(k));
        EXPECT_STREQ(Get(m, "pod")->valuestring, want[k].pod.c_str()) << k;
        const cJSON* node = Get(m, "node");
        if (want[k].node.empty()) {
          any_pending = true;
          ++pending[Get(m, "from")->valuestring];
          EXPECT_TRUE(cJSON_IsNull(node)) << want[k].pod;
          EXPECT_STREQ(Get(m, "message")->valuestring, want[k].message.c_str());
        } else {
          ASSERT_TRUE(cJSON_IsString(node)) << want[k].pod << " " << r.output;
          EXPECT_STREQ(node->valuestring, want[k].node.c_str()) << want[k].pod;
        }
        EXPECT_EQ(Get(m, "blockingPDB"), nullptr);  // 5 disruptions allowed
      }
      const cJSON* n;
      cJSON_ArrayForEach(n, Get(doc.get(), "nodes")) {
        const std::string name = Get(n, "node")->valuestring;
        EXPECT_EQ(Get(n, "pending")->valuedouble, pending[name]) << name;
        EXPECT_EQ(cJSON_IsTrue(Get(n, "removable")), pending[name] == 0) << name;
      }
      EXPECT_EQ(cJSON_IsTrue(Get(doc.get(), "removable")), !any_pending);
      if (nodes.size() == 10) {
        EXPECT_TRUE(any_pending) << "the big drain should leave pods pending";
      }
    }
  }
}

TEST(DrainTest, LeavesDaemonSetAndMirrorPods) {
  const std::vector<TestPod> pods = Pods();
  EnginePtr e = Cluster(R"({"seed":3})", pods, 5);
  const CallResult r = CallDrain(e.get(), Request({"n0"}));
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  JsonDoc doc(cJSON_Parse(r.output.c_str()));
  const cJSON* left = Get(doc.get(), "left");
  ASSERT_EQ(cJSON_GetArraySize(left), 2) << r.output;
  EXPECT_STREQ(Get(cJSON_GetArrayItem(left, 0), "pod")->valuestring, "ns/ds-n0");
  EXPECT_STREQ(Get(cJSON_GetArrayItem(left, 0), "reason")->valuestring, "DaemonSet");
  EXPECT_STREQ(Get(cJSON_GetArrayItem(left, 1), "pod")->valuestring, "ns/static-n0");
  EXPECT_STREQ(Get(cJSON_GetArrayItem(left, 1), "reason")->valuestring, "MirrorPod");
  const cJSON* node = cJSON_GetArrayItem(Get(doc.get(), "nodes"), 0);
  EXPECT_EQ(Get(node, "left")->valuedouble, 2);
  EXPECT_EQ(Get(node, "moved")->valuedouble, 2);
}

// web-n1 and web-n2 are covered by web-pdb: the budget is used up node by
// node in the order given, by the nodes that can go (RemainingPdbTracker).
TEST(DrainTest, PdbsBlockEvictionsNodeByNode) {
  struct Case {
    int allowed;
    std::vector<std::string> nodes;
    std::vector<bool> removable;
    std::vector<std::string> blocked;  // pods with blockingPDB
  };
  const Case cases[] = {
      {0, {"n1"}, {false}, {"ns/web-n1"}},
      {0, {"n3"}, {true}, {}},
      {1, {"n1"}, {true}, {}},
      {1, {"n1", "n2"}, {true, false}, {"ns/web-n2"}},
      {1, {"n2", "n3", "n1"}, {true, true, false}, {"ns/web-n1"}},
      {2, {"n1", "n2"}, {true, true}, {}},
  };
  for (const Case& c : cases) {
    EnginePtr e = Cluster(R"({"seed":3})", Pods(), c.allowed);
    const CallResult r = CallDrain(e.get(), Request(c.nodes));
    ASSERT_EQ(r.status, SCHED_OK) << r.message;
    JsonDoc doc(cJSON_Parse(r.output.c_str()));
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      const cJSON* n = cJSON_GetArrayItem(Get(doc.get(), "nodes"), static_cast<int>(i));
      EXPECT_EQ(cJSON_IsTrue(Get(n, "removable")), c.removable[i]) << r.output;
    }
    std::vector<std::string> blocked;
    const cJSON* m;
    cJSON_ArrayForEach(m, Get(doc.get(), "pods")) {
      if (const cJSON* b = Get(m, "blockingPDB"); b != nullptr) {
        EXPECT_STREQ(b->valuestring, "ns/web-pdb");
        blocked.push_back(Get(m, "pod")->valuestring);
      }
    }
    EXPECT_EQ(blocked, c.blocked) << r.output;
  }
}

TEST(DrainTest, BadRequestsNameTheFieldAndChangeNothing) {
  EnginePtr e = Cluster(R"({"seed":3})", Pods(), 1);
  const uint64_t before = e->rep->StateDigest();
  struct Case {
    std::string request;
    const char* path;
  };
  const Case cases[] = {
      {"{}", "nodes"},
      {R"({"nodes":[]})", "nodes"},
      {R"({"nodes":"n1"})", "nodes"},
      {R"({"nodes":["n1",3]})", "nodes[1]"},
      {R"({"nodes":["n1",""]})", "nodes[1]"},
      {R"({"nodes":["n1","n1"]})", "nodes[1]"},
      {R"({"nodes":["n1","nope"]})", "nodes[1]"},
      {R"({"nodes":["n1"],"force":true})", "force"},
      {"[]", ""},
      {"{", ""},
  };
  for (const Case& c : cases) {
    const CallResult r = CallDrain(e.get(), c.request);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.request;
    if (*c.path != '\0') {
      EXPECT_EQ(r.path, c.path) << c.request << ": " << r.message;
    }
    EXPECT_EQ(e->rep->StateDigest(), before) << c.request;
  }
  char* out = nullptr;
  EXPECT_EQ(sched_engine_drain(nullptr, "{}", 2, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_drain(e.get(), "{}", 2, nullptr, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace drain_test
}  // namespace sched::capi

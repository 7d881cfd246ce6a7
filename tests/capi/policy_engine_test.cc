// Decisions a legacy Policy changes against the default profile, through
// the C ABI: alwaysCheckAllPredicates reports every reason, `order` picks
// the reason reported, a priority moves the pod; a bad Policy creates no
// engine.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace policy_engine_test {
namespace {

using testing::CallApply;
using testing::CallSchedule;
using testing::NodeJson;
using testing::PodJson;

struct EngineDeleter {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
using Engine = std::unique_ptr<sched_engine, EngineDeleter>;

Engine NewEngine(const std::string& config, const std::string& cluster) {
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &e, &err), SCHED_OK)
      << sched_error_message(err);
  sched_error_free(err);
  Engine engine(e);
  if (e != nullptr) {
    EXPECT_EQ(CallApply(e, cluster).status, SCHED_OK);
  }
  return engine;
}

JsonDoc Schedule(sched_engine* e, const std::string& pod, uint32_t flags) {
  const auto r = CallSchedule(e, pod, flags);
  EXPECT_EQ(r.status, SCHED_OK) << r.message;
  return JsonDoc(cJSON_Parse(r.output.c_str()));
}

// "plugin: reason, reason" of the one rejected node.
std::string NodeStatus(sched_engine* e, const std::string& pod) {
  JsonDoc r = Schedule(e, pod, SCHED_SCHEDULE_NODE_STATUSES);
  const cJSON* s = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r.get(), "nodeStatuses"), 0);
  if (s == nullptr) return "<none>";
  std::string out = cJSON_GetObjectItemCaseSensitive(s, "plugin")->valuestring;
  out += ":";
  const cJSON* reason;
  cJSON_ArrayForEach(reason, cJSON_GetObjectItemCaseSensitive(s, "reasons")) {
    out += std::string(" ") + reason->valuestring;
  }
  return out;
}

std::string Cluster(const std::vector<std::string>& objects) {
  std::string out = R"({"kind":"List","apiVersion":"v1","items":[)";
  for (size_t i = 0; i < objects.size(); ++i) out += (i ? "," : "") + objects[i];
  return out + "]}";
}

std::string Policy(const std::string& predicates, bool always_check_all) {
  return R"({"kind":"Policy","apiVersion":"v1","predicates":[)" + predicates +
         R"(],"priorities":[{"name":"EqualPriority","weight":1}],"alwaysCheckAllPredicates":)" +
         (always_check_all ? "true" : "false") + "}";
}

// A node short of cpu and without the rack label the Policy requires.
TEST(PolicyEngineTest, FilterOrderAndAlwaysCheckAllPredicates) {
  const std::string cluster = Cluster({NodeJson("n1", "1")});
  const std::string pod = PodJson("p", "2");
  const std::string fits = R"({"name":"PodFitsResources"})";
  const std::string rack =
      R"({"name":"RequireRack","argument":{"labelsPresence":{"labels":["rack"],"presence":true}}})";
  const std::string rack_first =
      R"({"name":"RequireRack","order":1,)"
      R"("argument":{"labelsPresence":{"labels":["rack"],"presence":true}}})";
  EXPECT_EQ(NodeStatus(NewEngine("{}", cluster).get(), pod), "NodeResourcesFit: Insufficient cpu");
  // predicateOrdering: PodFitsResources before CheckNodeLabelPresence.
  EXPECT_EQ(NodeStatus(NewEngine(Policy(fits + "," + rack, false), cluster).get(), pod),
            "NodeResourcesFit: Insufficient cpu");
  // `order` runs the label check first, so it is the reason reported.
  EXPECT_EQ(NodeStatus(NewEngine(Policy(fits + "," + rack_first, false), cluster).get(), pod),
            "NodeLabel: node(s) didn't have the requested labels");
  // alwaysCheckAllPredicates: both reasons, under the first plugin of the
  // most severe code (both unresolvable here: 2 cpu exceed the node's 1).
  EXPECT_EQ(NodeStatus(NewEngine(Policy(fits + "," + rack, true), cluster).get(), pod),
            "NodeResourcesFit: Insufficient cpu node(s) didn't have the "
            "requested labels");
  JsonDoc r = Schedule(NewEngine(Policy(fits + "," + rack, true), cluster).get(), pod, 0);
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "message")->valuestring,
               "0/1 nodes are available: 1 Insufficient cpu, 1 node(s) didn't have the "
               "requested "
               "labels. preemption: 0/1 nodes are available: 1 Preemption is not "
               "helpful for "
               "scheduling.");
}

// The default profile spreads to the emptier node; a Policy preferring the
// ssd label packs onto the busy ssd node, and its score plugins are the
// Policy's.
TEST(PolicyEngineTest, PriorityChangesThePlacement) {
  const std::string cluster = Cluster({NodeJson("ssd", "4", R"("disk-ssd":"true")"),
                                       NodeJson("plain", "4"), PodJson("busy", "3", "ssd")});
  const std::string pod = PodJson("p", "1");
  auto node_of = [&](const std::string& config) {
    Engine e = NewEngine(config, cluster);
    JsonDoc r = Schedule(e.get(), pod, SCHED_SCHEDULE_SCORES);
    std::string plugins;
    const cJSON* p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(
                              cJSON_GetObjectItemCaseSensitive(r.get(), "scores"), "plugins")) {
      plugins += std::string(plugins.empty() ? "" : ",") + p->valuestring;
    }
    return std::string(cJSON_GetObjectItemCaseSensitive(r.get(), "node")->valuestring) + " " +
           plugins;
  };
  // (Plugins whose PreScore skipped, having nothing to score, are not listed.)
  EXPECT_EQ(node_of("{}"),
            "plain TaintToleration,NodeResourcesFit,DynamicResources,"
            "NodeResourcesBalancedAllocation,ImageLocality");
  EXPECT_EQ(node_of(R"({"kind":"Policy","predicates":[{"name":"GeneralPredicates"}],
      "priorities":[{"name":"LeastRequestedPriority","weight":1},
        {"name":"PreferSSD","weight":2,"argument":{"labelPreference":{"label":"disk-ssd",
         "presence":true}}}]})"),
            "ssd NodeResourcesFit,NodeLabel");
  // MostRequestedPriority (NodeResourcesFit's MostAllocated) packs onto the
  // busy node.
  EXPECT_EQ(node_of(R"({"kind":"Policy","predicates":[{"name":"GeneralPredicates"}],
      "priorities":[{"name":"MostRequestedPriority","weight":1}]})"),
            "ssd NodeResourcesFit");
  // Without "priorities", v1.20's default set (in priority-name order),
  // legacy plugins included; they score both nodes alike here.
  EXPECT_EQ(node_of(R"({"kind":"Policy","predicates":[{"name":"GeneralPredicates"}]})"),
            "plain NodeResourcesBalancedAllocation,ImageLocality,NodeResourcesFit,"
            "NodePreferAvoidPods,SelectorSpread,TaintToleration");
}

// A bad Policy: no engine, the offending path, nothing leaked.
TEST(PolicyEngineTest, InvalidPolicyCreatesNoEngine) {
  const std::string config =
      R"({"kind":"Policy","predicates":[{"name":"HostName"},{"name":"HostName"},)"
      R"({"name":"HostName"},{"name":"NoSuchPredicate"}]})";
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &e, &err), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(e, nullptr);
  EXPECT_STREQ(sched_error_path(err), "predicates[3].name");
  sched_error_free(err);
}

}  // namespace
}  // namespace policy_engine_test
}  // namespace sched::capi

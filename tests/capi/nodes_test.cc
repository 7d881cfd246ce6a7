// sched_engine_nodes: per-node requested resources read from the engine's
// NodeInfos (assumed pods counted, deleted pods released, the request
// rules of the decoder applied), queries by name and label selector, and
// bad queries rejected with their path, leaving the engine as it was.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "capi/engine.h"
#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace nodes_test {
namespace {

using testing::BaseEngine;
using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EnginePtr;
using testing::EventJson;
using testing::NodeJson;
using testing::PodJson;

CallResult CallNodes(sched_engine* e, const std::string& query) {
  return testing::CallWithInput(sched_engine_nodes, e, query);
}

// The integer at `path` (members by name) of node `name` in a nodes
// document, or -1 when absent.
int64_t NodeValue(const std::string& doc, const std::string& name, std::vector<const char*> path) {
  JsonDoc j(cJSON_Parse(doc.c_str()));
  const cJSON* nodes = cJSON_GetObjectItemCaseSensitive(j.get(), "nodes");
  const cJSON* n;
  cJSON_ArrayForEach(n, nodes) {
    if (name != cJSON_GetObjectItemCaseSensitive(n, "name")->valuestring) continue;
    const cJSON* v = n;
    for (const char* key : path) v = cJSON_GetObjectItemCaseSensitive(v, key);
    return cJSON_IsNumber(v) ? static_cast<int64_t>(v->valuedouble) : -1;
  }
  return -1;
}

TEST(NodesTest, ReportsNodeInfoRequestsOfBoundAndAssumedPods) {
  sched_engine* raw = nullptr;
  ASSERT_EQ(sched_engine_new("{}", 2, &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  // n1 carries a pod whose init container asks for more than its
  // container, plus overhead: NodeInfo counts max(1000m, 500m) + 100m.
  const std::string init =
      R"("initContainers":[{"name":"i","resources":{"requests":{"cpu":"1"}}}],)"
      R"("overhead":{"cpu":"100m"},)";
  const std::string node1 = R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1",)"
                            R"("labels":{"pool":"a","z":"1"}},"status":{"allocatable":{"cpu":"4",)"
                            R"("memory":"8Gi","pods":"10","example.com/gpu":"2"}}})";
  ASSERT_EQ(CallApply(e.get(), "[" + EventJson("ADDED", node1) + "," +
                                   EventJson("ADDED", NodeJson("n2", "2", R"("pool":"b")")) + "," +
                                   EventJson("ADDED", PodJson("init", "500m", "n1", init)) + "]")
                .status,
            SCHED_OK);
  CallResult r = CallNodes(e.get(), "");
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  EXPECT_EQ(r.output, R"({"nodes":[{"name":"n1","labels":{"pool":"a","z":"1"},)"
                      R"("allocatable":{"milliCPU":4000,"memory":8589934592,"ephemeralStorage":0,)"
                      R"("allowedPodNumber":10,"scalarResources":{"example.com/gpu":2}},)"
                      R"("requested":{"milliCPU":1100,"memory":0,"ephemeralStorage":0,)"
                      R"("allowedPodNumber":0,"scalarResources":{}},)"
                      R"("nonZeroRequested":{"milliCPU":1100,"memory":209715200},"podCount":1},)"
                      R"({"name":"n2","labels":{"pool":"b"},)"
                      R"("allocatable":{"milliCPU":2000,"memory":68719476736,"ephemeralStorage":0,)"
                      R"("allowedPodNumber":110,"scalarResources":{}},)"
                      R"("requested":{"milliCPU":0,"memory":0,"ephemeralStorage":0,)"
                      R"("allowedPodNumber":0,"scalarResources":{}},)"
                      R"("nonZeroRequested":{"milliCPU":0,"memory":0},"podCount":0}]})");

  // An assumed pod counts on its node (only n1 has room for 3 CPUs).
  const CallResult s = CallSchedule(e.get(), PodJson("big", "2500m"), SCHED_SCHEDULE_ASSUME);
  ASSERT_NE(s.output.find(R"("node":"n1")"), std::string::npos) << s.output;
  r = CallNodes(e.get(), R"({"names":["n1"]})");
  EXPECT_EQ(NodeValue(r.output, "n1", {"requested", "milliCPU"}), 3600) << r.output;
  EXPECT_EQ(NodeValue(r.output, "n1", {"podCount"}), 2);

  // Deleting the bound pod releases its requests.
  ASSERT_EQ(CallApply(e.get(), EventJson("DELETED", PodJson("init", "500m", "n1", init))).status,
            SCHED_OK);
  r = CallNodes(e.get(), "{}");
  EXPECT_EQ(NodeValue(r.output, "n1", {"requested", "milliCPU"}), 2500) << r.output;
  EXPECT_EQ(NodeValue(r.output, "n1", {"podCount"}), 1);
  EXPECT_EQ(NodeValue(r.output, "n2", {"requested", "milliCPU"}), 0);
}

TEST(NodesTest, QueriesSelectByNameAndLabels) {
  EnginePtr e = BaseEngine();  // n0..n4, zone z0 for even, z1 for odd
  struct Case {
    const char* query;
    const char* want;  // the names, in order
  };
  const Case cases[] = {
      {"", "n0,n1,n2,n3,n4"},
      {"{}", "n0,n1,n2,n3,n4"},
      {R"({"names":["n3","missing","n1","n3"]})", "n1,n3"},
      {R"({"labelSelector":{"matchLabels":{"zone":"z1"}}})", "n1,n3"},
      {R"({"labelSelector":{"matchExpressions":[{"key":"zone","operator":"NotIn",)"
       R"("values":["z1"]}]}})",
       "n0,n2,n4"},
      {R"({"names":["n0","n1"],"labelSelector":{"matchLabels":{"zone":"z1"}}})", "n1"},
      {R"({"labelSelector":{"matchLabels":{"never-seen":"x"}}})", ""},
  };
  for (const Case& c : cases) {
    const CallResult r = CallNodes(e.get(), c.query);
    ASSERT_EQ(r.status, SCHED_OK) << c.query << ": " << r.message;
    JsonDoc j(cJSON_Parse(r.output.c_str()));
    std::string names;
    const cJSON* n;
    cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(j.get(), "nodes")) {
      names += (names.empty() ? "" : ",") +
               std::string(cJSON_GetObjectItemCaseSensitive(n, "name")->valuestring);
    }
    EXPECT_EQ(names, c.want) << c.query;
  }
}

TEST(NodesTest, BadQueriesNameTheFieldAndChangeNothing) {
  EnginePtr e = BaseEngine();
  Engine& rep = *e->rep;
  const uint64_t before = rep.StateDigest();
  char* stats = nullptr;
  ASSERT_EQ(sched_engine_stats(e.get(), &stats, nullptr), SCHED_OK);
  const std::string stats_before = stats;
  sched_free(stats);
  struct Case {
    const char* query;
    const char* path;
  };
  const Case cases[] = {
      {R"({"name":"n1"})", "name"},
      {R"({"names":"n1"})", "names"},
      {R"({"names":["n1",7]})", "names[1]"},
      {R"({"names":[""]})", "names[0]"},
      {R"({"labelSelector":[]})", "labelSelector"},
      {R"({"labelSelector":{"matchLabels":{"bad key!":"x"}}})",
       "labelSelector.matchLabels.bad key!"},
      {R"({"labelSelector":{"matchLabels":{"k":"bad value!"}}})", "labelSelector.matchLabels.k"},
      {R"({"labelSelector":{"matchExpressions":[{"key":"zone","operator":"In","values":["z0"]},)"
       R"({"key":"zone","operator":"Bogus"}]}})",
       "labelSelector.matchExpressions[1]"},
      {R"({"labelSelector":{"matchExpressions":[{"key":"new-key","operator":"In"}]}})",
       "labelSelector.matchExpressions[0]"},
      {R"({"labelSelector":{"matchLabels":{"k":"v"},"extra":1}})", "labelSelector.extra"},
      {R"({"labelSelector":{"matchExpressions":[{"key":"k","operator":"Exists","value":"x"}]}})",
       "labelSelector.matchExpressions[0].value"},
      {"[1]", ""},
      {"{", ""},
  };
  for (const Case& c : cases) {
    const CallResult r = CallNodes(e.get(), c.query);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.query;
    if (*c.path != '\0') {
      EXPECT_EQ(r.path, c.path) << c.query << ": " << r.message;
    }
    EXPECT_EQ(rep.StateDigest(), before) << c.query;
  }
  // A query that succeeds, with strings the engine never saw, leaves it
  // as it was too, its interner included.
  ASSERT_EQ(CallNodes(e.get(), R"({"names":["x"],"labelSelector":{"matchExpressions":[)"
                               R"({"key":"fresh","operator":"In","values":["new"]}]}})")
                .status,
            SCHED_OK);
  EXPECT_EQ(rep.StateDigest(), before);
  ASSERT_EQ(sched_engine_stats(e.get(), &stats, nullptr), SCHED_OK);
  EXPECT_EQ(stats, stats_before);
  sched_free(stats);
  // Argument checks.
  char* out = nullptr;
  EXPECT_EQ(sched_engine_nodes(nullptr, nullptr, 0, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_nodes(e.get(), nullptr, 0, nullptr, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_nodes(e.get(), nullptr, 3, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace nodes_test
}  // namespace sched::capi

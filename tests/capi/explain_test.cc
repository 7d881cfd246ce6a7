// sched_engine_explain: the JSON shape over a small cluster, agreement with
// sched_engine_schedule's scores, and an engine left exactly as it was
// (state digest, interner) by good and bad calls alike.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "capi/engine.h"
#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace explain_test {
namespace {

using testing::BaseEngine;
using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EnginePtr;
using testing::Get;
using testing::EventJson;
using testing::NodeJson;
using testing::PodJson;

CallResult CallExplain(sched_engine* e, const std::string& pod) {
  return testing::CallWithInput(sched_engine_explain, e, pod);
}

std::string Stats(sched_engine* e) {
  char* stats = nullptr;
  EXPECT_EQ(sched_engine_stats(e, &stats, nullptr), SCHED_OK);
  std::string s = stats;
  sched_free(stats);
  return s;
}

EnginePtr SmallEngine() {
  sched_engine* raw = nullptr;
  EXPECT_EQ(sched_engine_new(R"({"seed":3})", 10, &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  const std::string tainted =
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"gpu"},"spec":{"taints":)"
      R"([{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]},)"
      R"("status":{"allocatable":{"cpu":"16","memory":"64Gi","pods":"110"}}})";
  EXPECT_EQ(CallApply(e.get(), "[" + EventJson("ADDED", NodeJson("a", "2")) + "," +
                                   EventJson("ADDED", NodeJson("b", "4")) + "," +
                                   EventJson("ADDED", NodeJson("c", "1")) + "," +
                                   EventJson("ADDED", tainted) + "," +
                                   EventJson("ADDED", PodJson("busy", "1500m", "a")) + "]")
                .status,
            SCHED_OK);
  return e;
}

TEST(ExplainTest, ReportsVerdictsScoresReasonsAndNearestMisses) {
  EnginePtr e = SmallEngine();
  const CallResult r = CallExplain(e.get(), PodJson("p", "1200m"));
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  JsonDoc j(cJSON_Parse(r.output.c_str()));
  ASSERT_NE(j, nullptr) << r.output;
  EXPECT_STREQ(Get(j.get(), "pod")->valuestring, "ns/p");
  EXPECT_FALSE(cJSON_IsTrue(Get(j.get(), "error")));
  EXPECT_EQ(Get(j.get(), "numAllNodes")->valuedouble, 4);
  EXPECT_EQ(Get(j.get(), "feasibleNodes")->valuedouble, 1);
  EXPECT_STREQ(Get(j.get(), "message")->valuestring, "1/4 nodes are feasible.");
  // a lacks 700m, c lacks 200m: the smallest shortfall; gpu is tainted.
  const cJSON* misses = Get(j.get(), "nearestMisses");
  ASSERT_EQ(cJSON_GetArraySize(misses), 2) << r.output;
  EXPECT_STREQ(Get(cJSON_GetArrayItem(misses, 0), "text")->valuestring,
               "needs 200m more cpu on 2 nodes");
  const cJSON* shortfall = cJSON_GetArrayItem(Get(cJSON_GetArrayItem(misses, 0), "shortfalls"), 0);
  EXPECT_STREQ(Get(shortfall, "resource")->valuestring, "cpu");
  EXPECT_EQ(Get(shortfall, "amount")->valuedouble, 200);
  EXPECT_STREQ(Get(cJSON_GetArrayItem(misses, 1), "taint")->valuestring,
               "dedicated=gpu:NoSchedule");
  const cJSON* reasons = Get(j.get(), "reasons");
  ASSERT_EQ(cJSON_GetArraySize(reasons), 2);
  EXPECT_STREQ(Get(cJSON_GetArrayItem(reasons, 0), "reason")->valuestring, "Insufficient cpu");
  EXPECT_EQ(Get(cJSON_GetArrayItem(reasons, 0), "nodes")->valuedouble, 2);
  // Every node, in the node list's order, with each Filter's verdict; the
  // feasible one with a score per score plugin.
  const cJSON* nodes = Get(j.get(), "nodes");
  ASSERT_EQ(cJSON_GetArraySize(nodes), 4);
  const cJSON* n;
  int feasible = 0;
  const int num_score_plugins = cJSON_GetArraySize(Get(j.get(), "scorePlugins"));
  EXPECT_GT(num_score_plugins, 0);
  cJSON_ArrayForEach(n, nodes) {
    EXPECT_GT(cJSON_GetArraySize(Get(n, "filters")), 0);
    if (!cJSON_IsTrue(Get(n, "feasible"))) continue;
    ++feasible;
    EXPECT_STREQ(Get(n, "node")->valuestring, "b");
    EXPECT_EQ(cJSON_GetArraySize(Get(n, "scores")), num_score_plugins);
  }
  EXPECT_EQ(feasible, 1);
  EXPECT_LE(strlen(Get(j.get(), "summary")->valuestring), 1024u);
}

TEST(ExplainTest, TotalsAreTheScheduleCyclesScores) {
  EnginePtr e = SmallEngine();
  const std::string pod = PodJson("p", "500m");
  const CallResult x = CallExplain(e.get(), pod);
  const CallResult s = CallSchedule(e.get(), pod, SCHED_SCHEDULE_SCORES);
  ASSERT_EQ(x.status, SCHED_OK);
  ASSERT_EQ(s.status, SCHED_OK);
  JsonDoc xj(cJSON_Parse(x.output.c_str()));
  JsonDoc sj(cJSON_Parse(s.output.c_str()));
  // 4 nodes < 100: the cycle scores every feasible node too.
  const cJSON* scored;
  int compared = 0;
  cJSON_ArrayForEach(scored, Get(Get(sj.get(), "scores"), "nodes")) {
    const cJSON* n;
    cJSON_ArrayForEach(n, Get(xj.get(), "nodes")) {
      if (strcmp(Get(n, "node")->valuestring, Get(scored, "node")->valuestring) != 0) continue;
      EXPECT_EQ(Get(n, "totalScore")->valuedouble, Get(scored, "totalScore")->valuedouble);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 3);  // a, b, c (gpu is tainted)
}

TEST(ExplainTest, ChangesNothingGoodOrBad) {
  EnginePtr e = BaseEngine();
  Engine& rep = *e->rep;
  const uint64_t before = rep.StateDigest();
  const std::string stats_before = Stats(e.get());
  // New strings (labels, a toleration) are not kept.
  const std::string fresh = PodJson(
      "fresh", "1", "",
      R"("nodeSelector":{"never":"seen"},"tolerations":[{"key":"t","operator":"Exists"}],)");
  ASSERT_EQ(CallExplain(e.get(), fresh).status, SCHED_OK);
  ASSERT_EQ(CallExplain(e.get(), PodJson("p", "1")).status, SCHED_OK);
  EXPECT_EQ(rep.StateDigest(), before);
  EXPECT_EQ(Stats(e.get()), stats_before);
  struct Case {
    std::string pod;
    const char* path;
  };
  const Case cases[] = {
      {R"({"kind":"Node"})", "kind"},
      {PodJson("p", "lots"), "spec.containers[0].resources.requests.cpu"},
      {PodJson("p", "1", "", R"("schedulerName":"other",)"), "spec.schedulerName"},
      {"[", ""},
  };
  for (const Case& c : cases) {
    const CallResult r = CallExplain(e.get(), c.pod);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.pod;
    if (*c.path != '\0') {
      EXPECT_EQ(r.path, c.path) << r.message;
    }
    EXPECT_EQ(rep.StateDigest(), before) << c.pod;
  }
  EXPECT_EQ(Stats(e.get()), stats_before);
  char* out = nullptr;
  EXPECT_EQ(sched_engine_explain(nullptr, "{}", 2, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_explain(e.get(), "{}", 2, nullptr, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_explain(e.get(), nullptr, 3, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

TEST(ExplainTest, NoNodesIsAnErrorInTheDocument) {
  sched_engine* raw = nullptr;
  ASSERT_EQ(sched_engine_new("{}", 2, &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  const CallResult r = CallExplain(e.get(), PodJson("p", "1"));
  ASSERT_EQ(r.status, SCHED_OK);
  JsonDoc j(cJSON_Parse(r.output.c_str()));
  EXPECT_TRUE(cJSON_IsTrue(Get(j.get(), "error")));
  EXPECT_STREQ(Get(j.get(), "message")->valuestring, "no nodes available to schedule pods");
}

}  // namespace
}  // namespace explain_test
}  // namespace sched::capi

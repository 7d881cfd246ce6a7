// sched_engine_preempt against acting on a real schedule: on a twin
// engine, sched_engine_schedule of the same pod returns the same document
// (nominated node, victims), and once the victims are deleted the pod is
// scheduled on that node; the asked engine is left as it was (state
// digest); bad requests name the field.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <string>

#include "capi/engine.h"
#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace preempt_test {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EnginePtr;
using testing::EventJson;
using testing::Get;
using testing::NodeJson;
using testing::PodJson;
using testing::PriorityJson;

CallResult CallPreempt(sched_engine* e, const std::string& request) {
  return testing::CallWithInput(sched_engine_preempt, e, request);
}

// Six 2-cpu nodes, full: pods of priority 1..6 (two per node, 1 cpu each).
EnginePtr Cluster(const std::string& config) {
  sched_engine* raw = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  std::string events = "[";
  for (int i = 0; i < 6; ++i) {
    const std::string n = "n" + std::to_string(i);
    events += (i ? "," : "") + EventJson("ADDED", NodeJson(n, "2"));
    for (int k = 0; k < 2; ++k) {
      events += "," + EventJson("ADDED", PodJson("low-" + n + "-" + std::to_string(k), "1", n,
                                                 PriorityJson(1 + (i + k) % 6)));
    }
  }
  events += "," + EventJson("ADDED", testing::PdbJson("web-pdb", 0)) + "]";
  EXPECT_EQ(CallApply(e.get(), events).status, SCHED_OK);
  return e;
}

TEST(PreemptTest, EvictsWhatARealScheduleAndActingOnItEvicts) {
  const std::string pods[] = {
      PodJson("big", "2", "", PriorityJson(100)),  // two victims on one node
      PodJson("one", "1", "", PriorityJson(4)),    // one victim of priority < 4
      PodJson("never", "1", "", PriorityJson(100) + R"("preemptionPolicy":"Never",)"),
      PodJson("huge", "3", "", PriorityJson(100)),  // fits nowhere, even empty
      PodJson("low", "1", "", PriorityJson(1)),     // nothing lower to evict
  };
  for (const std::string config : {R"({"seed":9})", R"({"seed":9,"equivalenceCache":true})"}) {
    for (const std::string& pod : pods) {
      EnginePtr asked = Cluster(config);
      EnginePtr real = Cluster(config);
      const uint64_t before = asked->rep->StateDigest();
      const CallResult w = CallPreempt(asked.get(), R"({"pod":)" + pod + "}");
      ASSERT_EQ(w.status, SCHED_OK) << w.message;
      EXPECT_EQ(asked->rep->StateDigest(), before) << w.output;
      // Asking twice gives the same answer: nothing moved.
      EXPECT_EQ(CallPreempt(asked.get(), R"({"pod":)" + pod + "}").output, w.output);
      const CallResult s = CallSchedule(real.get(), pod, 0);
      ASSERT_EQ(s.status, SCHED_OK);
      EXPECT_EQ(w.output, s.output);
      JsonDoc doc(cJSON_Parse(s.output.c_str()));
      const cJSON* nominated = Get(doc.get(), "nominatedNodeName");
      if (nominated == nullptr) continue;
      // Act on it: delete the victims; the pod then fits on that node.
      std::string events = "[";
      const cJSON* v;
      cJSON_ArrayForEach(v, Get(doc.get(), "victims")) {
        events +=
            (events.size() > 1 ? "," : "") +
            EventJson("DELETED", PodJson(Get(v, "name")->valuestring, "1", nominated->valuestring));
      }
      ASSERT_EQ(CallApply(real.get(), events + "]").status, SCHED_OK);
      const CallResult after = CallSchedule(real.get(), pod, SCHED_SCHEDULE_ASSUME);
      JsonDoc aj(cJSON_Parse(after.output.c_str()));
      ASSERT_TRUE(cJSON_IsString(Get(aj.get(), "node"))) << after.output;
      EXPECT_STREQ(Get(aj.get(), "node")->valuestring, nominated->valuestring);
    }
  }
}

TEST(PreemptTest, ReportsVictimsOrNone) {
  EnginePtr e = Cluster(R"({"seed":9})");
  JsonDoc big(cJSON_Parse(
      CallPreempt(e.get(), R"({"pod":)" + PodJson("big", "2", "", PriorityJson(100)) + "}")
          .output.c_str()));
  EXPECT_EQ(cJSON_GetArraySize(Get(big.get(), "victims")), 2);
  EXPECT_TRUE(cJSON_IsNull(Get(big.get(), "node")));
  const std::string never_pod =
      PodJson("n", "1", "", PriorityJson(100) + R"("preemptionPolicy":"Never",)");
  JsonDoc never(
      cJSON_Parse(CallPreempt(e.get(), R"({"pod":)" + never_pod + "}").output.c_str()));
  EXPECT_EQ(Get(never.get(), "victims"), nullptr);
  EXPECT_EQ(Get(never.get(), "nominatedNodeName"), nullptr);
}

TEST(PreemptTest, BadRequestsNameTheFieldAndChangeNothing) {
  EnginePtr e = Cluster(R"({"seed":9})");
  const uint64_t before = e->rep->StateDigest();
  struct Case {
    std::string request;
    const char* path;
  };
  const Case cases[] = {
      {"{}", "pod"},
      {R"({"pod":{"kind":"Node"}})", "pod.kind"},
      {R"({"pod":)" + PodJson("p", "lots") + "}", "pod.spec.containers[0].resources.requests.cpu"},
      {R"({"pod":)" + PodJson("p", "1", "", R"("schedulerName":"other",)") + "}",
       "pod.spec.schedulerName"},
      {R"({"pod":)" + PodJson("p", "1") + R"(,"nodes":[]})", "nodes"},
      {"[]", ""},
  };
  for (const Case& c : cases) {
    const CallResult r = CallPreempt(e.get(), c.request);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.request;
    if (*c.path != '\0') {
      EXPECT_EQ(r.path, c.path) << r.message;
    }
    EXPECT_EQ(e->rep->StateDigest(), before) << c.request;
  }
  char* out = nullptr;
  EXPECT_EQ(sched_engine_preempt(nullptr, "{}", 2, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_preempt(e.get(), "{}", 2, nullptr, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace preempt_test
}  // namespace sched::capi

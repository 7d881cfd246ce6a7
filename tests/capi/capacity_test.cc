// sched_engine_capacity against the slow path: the same replicas scheduled
// one by one with SCHED_SCHEDULE_ASSUME on a twin engine land on the same
// nodes, and the next one fails there with the same message; the engine
// is left as it was (state digest, interner); bad requests name the field.
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
namespace capacity_test {
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

CallResult CallCapacity(sched_engine* e, const std::string& request) {
  return testing::CallWithInput(sched_engine_capacity, e, request);
}

// A cluster of uneven nodes (cpu 1..6, two zones) with pods bound on some.
EnginePtr Cluster(const std::string& config) {
  sched_engine* raw = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  std::string events = "[";
  for (int i = 0; i < 12; ++i) {
    const std::string n = "n" + std::to_string(i);
    events += (i ? "," : "") + EventJson("ADDED", NodeJson(n, std::to_string(1 + i % 6),
                                                           R"("topology.kubernetes.io/zone":"z)" +
                                                               std::to_string(i % 2) + "\""));
    if (i % 3 == 0) events += "," + EventJson("ADDED", PodJson("bound-" + n, "700m", n));
  }
  events += "]";
  EXPECT_EQ(CallApply(e.get(), events).status, SCHED_OK);
  return e;
}

// The replica i of `name` as sched_engine_capacity names it.
std::string Replica(const std::string& name, const std::string& cpu, int i) {
  return PodJson(name + "-capacity-" + std::to_string(i), cpu);
}

TEST(CapacityTest, PlacesReplicasAsSchedulingThemOneByOne) {
  for (const std::string config : {R"({"seed":5})", R"({"seed":5,"equivalenceCache":true})"}) {
    for (const std::string cpu : {"300m", "1", "2500m", "7"}) {
      EnginePtr asked = Cluster(config);
      EnginePtr slow = Cluster(config);
      const uint64_t before = asked->rep->StateDigest();
      const CallResult r = CallCapacity(asked.get(), R"({"pod":)" + PodJson("web", cpu) + "}");
      ASSERT_EQ(r.status, SCHED_OK) << r.message;
      EXPECT_EQ(asked->rep->StateDigest(), before) << cpu;
      JsonDoc doc(cJSON_Parse(r.output.c_str()));
      const int replicas = static_cast<int>(Get(doc.get(), "replicas")->valuedouble);
      EXPECT_FALSE(cJSON_IsTrue(Get(doc.get(), "capped")));
      const cJSON* placements = Get(doc.get(), "placements");
      ASSERT_EQ(cJSON_GetArraySize(placements), replicas);
      // The slow path: one call per replica, each assumed.
      for (int i = 0; i < replicas; ++i) {
        const CallResult s =
            CallSchedule(slow.get(), Replica("web", cpu, i), SCHED_SCHEDULE_ASSUME);
        JsonDoc sj(cJSON_Parse(s.output.c_str()));
        ASSERT_TRUE(cJSON_IsString(Get(sj.get(), "node"))) << config << " " << cpu << " " << i;
        EXPECT_STREQ(Get(sj.get(), "node")->valuestring,
                     cJSON_GetArrayItem(placements, i)->valuestring)
            << config << " " << cpu << " replica " << i;
      }
      // ... and one more does not fit, with the message capacity reported.
      const CallResult next =
          CallSchedule(slow.get(), Replica("web", cpu, replicas), SCHED_SCHEDULE_ASSUME);
      JsonDoc nj(cJSON_Parse(next.output.c_str()));
      EXPECT_TRUE(cJSON_IsNull(Get(nj.get(), "node"))) << next.output;
      EXPECT_STREQ(Get(nj.get(), "message")->valuestring, Get(doc.get(), "message")->valuestring);
      // Per-node counts add up.
      int sum = 0;
      const cJSON* n;
      cJSON_ArrayForEach(n, Get(doc.get(), "nodes")) sum += Get(n, "replicas")->valuedouble;
      EXPECT_EQ(sum, replicas);
    }
  }
}

TEST(CapacityTest, StopsAtTheCap) {
  EnginePtr e = Cluster(R"({"seed":5})");
  const CallResult r =
      CallCapacity(e.get(), R"({"maxReplicas":3,"pod":)" + PodJson("web", "100m") + "}");
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  JsonDoc doc(cJSON_Parse(r.output.c_str()));
  EXPECT_EQ(Get(doc.get(), "replicas")->valuedouble, 3);
  EXPECT_TRUE(cJSON_IsTrue(Get(doc.get(), "capped")));
  EXPECT_STREQ(Get(doc.get(), "message")->valuestring, "");
}

TEST(CapacityTest, BadRequestsNameTheFieldAndChangeNothing) {
  EnginePtr e = BaseEngine();
  Engine& rep = *e->rep;
  const uint64_t before = rep.StateDigest();
  ASSERT_EQ(
      CallCapacity(e.get(), R"({"maxReplicas":2,"pod":)" +
                                PodJson("fresh", "1", "", R"("nodeSelector":{"zone":"z1"},)") + "}")
          .status,
      SCHED_OK);
  EXPECT_EQ(rep.StateDigest(), before);
  struct Case {
    std::string request;
    const char* path;
  };
  const Case cases[] = {
      {"{}", "pod"},
      {R"({"pod":{"kind":"Node"}})", "pod.kind"},
      {R"({"pod":)" + PodJson("p", "lots") + "}", "pod.spec.containers[0].resources.requests.cpu"},
      {R"({"pod":)" + PodJson("p", "1", "n0") + "}", "pod.spec.nodeName"},
      {R"({"maxReplicas":0,"pod":)" + PodJson("p", "1") + "}", "maxReplicas"},
      {R"({"maxReplicas":100001,"pod":)" + PodJson("p", "1") + "}", "maxReplicas"},
      {R"({"replicas":1,"pod":)" + PodJson("p", "1") + "}", "replicas"},
      {"[]", ""},
  };
  for (const Case& c : cases) {
    const CallResult r = CallCapacity(e.get(), c.request);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.request;
    if (*c.path != '\0') {
      EXPECT_EQ(r.path, c.path) << r.message;
    }
    EXPECT_EQ(rep.StateDigest(), before) << c.request;
  }
  char* out = nullptr;
  EXPECT_EQ(sched_engine_capacity(nullptr, "{}", 2, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_capacity(e.get(), "{}", 2, nullptr, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace capacity_test
}  // namespace sched::capi

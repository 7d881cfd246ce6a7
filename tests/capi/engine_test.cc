// The engine through the C ABI: all-or-nothing apply, assume and the events
// that replace an assumed pod, terminal pods, profiles, determinism and
// concurrent calls.
#include <cJSON.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "sched/sched.h"

namespace {

struct CJsonDeleter {
  void operator()(cJSON* p) const { cJSON_Delete(p); }
};
using Json = std::unique_ptr<cJSON, CJsonDeleter>;

std::string Node(const std::string& name, const std::string& cpu) {
  return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name +
         R"("},"status":{"allocatable":{"cpu":")" + cpu + R"(","memory":"64Gi","pods":"110"}}})";
}

// A pod asking for `cpu`; bound when `node` is set.
std::string Pod(const std::string& name, const std::string& cpu, const std::string& node = "",
                const std::string& extra_spec = "") {
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns"},"spec":{)" + node_name + extra_spec +
         R"("containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu + R"("}}}]}})";
}

std::string Event(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}";
}

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override { engine_ = NewEngine("{}"); }
  void TearDown() override { sched_engine_free(engine_); }

  static sched_engine* NewEngine(const std::string& config) {
    sched_engine* e = nullptr;
    sched_error* err = nullptr;
    EXPECT_EQ(sched_engine_new(config.data(), config.size(), &e, &err), SCHED_OK)
        << sched_error_message(err);
    sched_error_free(err);
    return e;
  }

  // Applies `json`; on failure returns the error's "<code>: <message>".
  static std::string Apply(sched_engine* e, const std::string& json) {
    sched_error* err = nullptr;
    char* summary = nullptr;
    const sched_status st = sched_engine_apply(e, json.data(), json.size(), &summary, &err);
    std::string out = st == SCHED_OK ? summary : std::string(sched_status_name(st)) + ": " +
                                                     sched_error_message(err);
    sched_free(summary);
    sched_error_free(err);
    return out;
  }
  std::string Apply(const std::string& json) { return Apply(engine_, json); }

  static std::string ScheduleText(sched_engine* e, const std::string& pod, uint32_t flags) {
    char* result = nullptr;
    sched_error* err = nullptr;
    const sched_status st = sched_engine_schedule(e, pod.data(), pod.size(), flags, &result, &err);
    EXPECT_EQ(st, SCHED_OK) << sched_error_message(err);
    std::string out = result != nullptr ? result : "";
    sched_free(result);
    sched_error_free(err);
    return out;
  }
  std::string ScheduleText(const std::string& pod, uint32_t flags = 0) {
    return ScheduleText(engine_, pod, flags);
  }
  Json Schedule(const std::string& pod, uint32_t flags = 0) {
    const std::string text = ScheduleText(pod, flags);
    Json j(cJSON_Parse(text.c_str()));
    EXPECT_NE(j, nullptr) << text;
    return j;
  }
  // The chosen node, or "" when none.
  std::string NodeFor(const std::string& pod, uint32_t flags = 0) {
    Json r = Schedule(pod, flags);
    const cJSON* node = cJSON_GetObjectItemCaseSensitive(r.get(), "node");
    return cJSON_IsString(node) ? node->valuestring : "";
  }

  sched_engine* engine_ = nullptr;
};

TEST_F(EngineTest, FailedApplyChangesNothing) {
  ASSERT_EQ(Apply("[" + Event("ADDED", Node("n1", "4")) + "]"),
            R"({"applied":1,"ignored":{},"pendingPods":0})");
  const std::string probe = Pod("probe", "3");
  const std::string before = ScheduleText(probe, SCHED_SCHEDULE_NODE_STATUSES);
  EXPECT_NE(before.find(R"("node":"n1")"), std::string::npos) << before;

  // Each batch holds valid changes (a pod taking n1's cpu, a new node, a
  // deleted node) before its bad item.
  const std::vector<std::string> bad = {
      "[" + Event("ADDED", Pod("hog", "4", "n1")) + "," + Event("ADDED", Node("n2", "x")) + "]",
      "[" + Event("DELETED", Node("n1", "4")) + "," + Event("ADDED", R"({"kind":"Pod"})") + "]",
      "[" + Event("ADDED", Node("n3", "64")) + "," + Event("UPDATED", Node("n4", "1")) + "]",
      R"({"kind":"List","items":[)" + Pod("hog", "4", "n1") + R"(,{"kind":"Node"}]})",
      "[" + Event("ADDED", Pod("hog", "4", "n1")) + "] trailing",
  };
  for (const std::string& doc : bad) {
    EXPECT_EQ(Apply(doc).rfind("INVALID_ARGUMENT: ", 0), 0u) << doc;
    EXPECT_EQ(ScheduleText(probe, SCHED_SCHEDULE_NODE_STATUSES), before) << doc;
  }
}

TEST_F(EngineTest, PreemptionNominatesAndNamesVictimsWithoutChangingState) {
  Apply("[" + Event("ADDED", Node("n1", "2")) + "," +
        Event("ADDED", R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"low",
            "namespace":"ns","uid":"u-low"},"spec":{"nodeName":"n1","priority":1,
            "containers":[{"name":"c","resources":{"requests":{"cpu":"1500m"}}}]}})") +
        "]");
  const std::string high = Pod("high", "1", "", R"("priority":100,)");
  const std::string want =
      R"({"pod":"ns/high","node":null,"reason":"Unschedulable","message":"0/1 nodes are )"
      R"(available: 1 Insufficient cpu.","numAllNodes":1,"evaluatedNodes":1,"feasibleNodes":0,)"
      R"("assumed":false,"nominatedNodeName":"n1","victims":[{"namespace":"ns","name":"low",)"
      R"("uid":"u-low"}]})";
  // ASSUME does not assume a nominated pod, and the victim stays until the
  // caller deletes it: the same call gives the same answer.
  EXPECT_EQ(ScheduleText(high, SCHED_SCHEDULE_ASSUME), want);
  EXPECT_EQ(ScheduleText(high, SCHED_SCHEDULE_ASSUME), want);

  // A PDB with an empty selector covers no pod (LabelSelectorAsSelector).
  Apply(R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
      "metadata":{"name":"b","namespace":"ns"},"spec":{"selector":{}}})");
  EXPECT_EQ(ScheduleText(high), want);

  // Once the caller deletes the victim, the nominated pod fits there.
  Apply(Event("DELETED", Pod("low", "1500m", "n1")));
  Json r = Schedule(Pod("high", "1", "", R"("priority":100,)"));
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "node")->valuestring, "n1");
  EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(r.get(), "victims"), nullptr);
}

TEST_F(EngineTest, AssumeThenEventsReplaceOrRemoveTheAssumedPod) {
  Apply("[" + Event("ADDED", Node("n1", "2")) + "," + Event("ADDED", Node("n2", "2")) + "]");
  const std::string web = Pod("web", "1500m");
  const std::string chosen = NodeFor(web, SCHED_SCHEDULE_ASSUME);
  ASSERT_FALSE(chosen.empty());
  const std::string other = chosen == "n1" ? "n2" : "n1";
  // The assumed pod holds its node: a second such pod goes to the other.
  EXPECT_EQ(NodeFor(Pod("web2", "1500m")), other);

  // The binding event places web on the other node: the assumed copy goes.
  Apply(Event("MODIFIED", Pod("web", "1500m", other)));
  EXPECT_EQ(NodeFor(Pod("web3", "1500m")), chosen);

  // Deleting web frees both nodes.
  Apply(Event("DELETED", Pod("web", "1500m", other)));
  Json r = Schedule(Pod("web4", "1500m"));
  EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(r.get(), "feasibleNodes")->valuedouble, 2);
}

TEST_F(EngineTest, DeletingAPendingPodDropsItsAssumedCopy) {
  Apply(Event("ADDED", Node("n1", "2")));
  const std::string web = Pod("web", "1500m");
  ASSERT_EQ(NodeFor(web, SCHED_SCHEDULE_ASSUME), "n1");
  EXPECT_EQ(NodeFor(Pod("web2", "1500m")), "");
  // An update of the still-pending pod keeps the assumed copy...
  EXPECT_EQ(Apply(Event("MODIFIED", web)), R"({"applied":0,"ignored":{},"pendingPods":1})");
  EXPECT_EQ(NodeFor(Pod("web2", "1500m")), "");
  // ...its deletion drops it.
  Apply(Event("DELETED", web));
  EXPECT_EQ(NodeFor(Pod("web2", "1500m")), "n1");
}

TEST_F(EngineTest, TerminalPodsLeaveTheirNode) {
  Apply("[" + Event("ADDED", Node("n1", "2")) + "," + Event("ADDED", Pod("job", "2", "n1")) + "]");
  EXPECT_EQ(NodeFor(Pod("p", "1")), "");
  const std::string done = R"({"kind":"Pod","metadata":{"name":"job","namespace":"ns"},
      "spec":{"nodeName":"n1"},"status":{"phase":"Succeeded"}})";
  EXPECT_EQ(Apply(Event("MODIFIED", done)), R"({"applied":1,"ignored":{},"pendingPods":0})");
  EXPECT_EQ(NodeFor(Pod("p", "1")), "n1");
}

TEST_F(EngineTest, DeletingWhatIsMissingIsANoOp) {
  EXPECT_EQ(Apply("[" + Event("DELETED", Node("ghost", "1")) + "," +
                  Event("DELETED", Pod("ghost", "1", "ghost")) + "]"),
            R"({"applied":2,"ignored":{},"pendingPods":0})");
}

TEST_F(EngineTest, NoNodesIsUnschedulable) {
  Json r = Schedule(Pod("p", "1"));
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "reason")->valuestring,
               "Unschedulable");
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "message")->valuestring,
               "no nodes available to schedule pods");
}

TEST_F(EngineTest, NodeStatusesListEveryRejectedNode) {
  Apply("[" + Event("ADDED", Node("n1", "1")) + "," + Event("ADDED", Node("n2", "1")) + "," +
        Event("ADDED", Node("n3", "8")) + "]");
  Json r = Schedule(Pod("p", "2"), SCHED_SCHEDULE_NODE_STATUSES);
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "node")->valuestring, "n3");
  const cJSON* statuses = cJSON_GetObjectItemCaseSensitive(r.get(), "nodeStatuses");
  ASSERT_EQ(cJSON_GetArraySize(statuses), 2);
  for (const cJSON* s = statuses->child; s != nullptr; s = s->next) {
    EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(s, "plugin")->valuestring, "NodeResourcesFit");
    // 2 cpu exceed the node's allocatable: preemption cannot help.
    EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(s, "code")->valuestring,
                 "UnschedulableAndUnresolvable");
    const cJSON* reasons = cJSON_GetObjectItemCaseSensitive(s, "reasons");
    ASSERT_EQ(cJSON_GetArraySize(reasons), 1);
    EXPECT_STREQ(reasons->child->valuestring, "Insufficient cpu");
  }
  EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(r.get(), "message"), nullptr);
}

TEST_F(EngineTest, ScoresCoverEveryFeasibleNode) {
  Apply("[" + Event("ADDED", Node("n1", "4")) + "," + Event("ADDED", Node("n2", "8")) + "]");
  Json r = Schedule(Pod("p", "1"), SCHED_SCHEDULE_SCORES);
  const cJSON* scores = cJSON_GetObjectItemCaseSensitive(r.get(), "scores");
  ASSERT_NE(scores, nullptr);
  const int plugins = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(scores, "plugins"));
  EXPECT_GT(plugins, 0);
  const cJSON* nodes = cJSON_GetObjectItemCaseSensitive(scores, "nodes");
  ASSERT_EQ(cJSON_GetArraySize(nodes), 2);
  for (const cJSON* n = nodes->child; n != nullptr; n = n->next) {
    const cJSON* per_plugin = cJSON_GetObjectItemCaseSensitive(n, "scores");
    EXPECT_EQ(cJSON_GetArraySize(per_plugin), plugins);
    double sum = 0;
    for (const cJSON* s = per_plugin->child; s != nullptr; s = s->next) sum += s->valuedouble;
    EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(n, "totalScore")->valuedouble, sum);
  }
}

// Services arrive as events and select the peers of the default topology
// spread constraints; a deleted Service no longer does. List defaulting
// from pluginConfig turns a DoNotSchedule default into a filter.
std::string HostNode(const std::string& name) {
  return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name +
         R"("}},"status":{"allocatable":{"cpu":"4","memory":"64Gi","pods":"110"}}})";
}
std::string WebPod(const std::string& name, const std::string& node) {
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns","labels":{"app":"web"}},"spec":{)" + node_name +
         R"("containers":[{"name":"c"}]}})";
}
const char kWebService[] =
    R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"web","namespace":"ns"},)"
    R"("spec":{"selector":{"app":"web"}}})";

bool ScoredBy(const cJSON* result, const std::string& plugin) {
  const cJSON* plugins = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(result, "scores"), "plugins");
  for (const cJSON* p = plugins != nullptr ? plugins->child : nullptr; p != nullptr; p = p->next) {
    if (plugin == p->valuestring) return true;
  }
  return false;
}

TEST_F(EngineTest, ServicesDriveDefaultTopologySpread) {
  Apply("[" + Event("ADDED", HostNode("n1")) + "," + Event("ADDED", HostNode("n2")) + "," +
        Event("ADDED", WebPod("web-0", "n1")) + "]");
  EXPECT_FALSE(ScoredBy(Schedule(WebPod("web-1", ""), SCHED_SCHEDULE_SCORES).get(),
                        "PodTopologySpread"));
  EXPECT_EQ(Apply(Event("ADDED", kWebService)), R"({"applied":1,"ignored":{},"pendingPods":0})");
  Json r = Schedule(WebPod("web-1", ""), SCHED_SCHEDULE_SCORES);
  EXPECT_TRUE(ScoredBy(r.get(), "PodTopologySpread"));
  Apply(Event("DELETED", kWebService));
  EXPECT_FALSE(ScoredBy(Schedule(WebPod("web-1", ""), SCHED_SCHEDULE_SCORES).get(),
                        "PodTopologySpread"));

  sched_engine* e = NewEngine(R"({"profiles":[{"pluginConfig":[{"name":"PodTopologySpread",
      "args":{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,
      "topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule"}]}}]}]})");
  Apply(e, "[" + Event("ADDED", HostNode("n1")) + "," + Event("ADDED", HostNode("n2")) + "," +
               Event("ADDED", WebPod("web-0", "n1")) + "," + Event("ADDED", kWebService) +
               "," + Event("ADDED", WebPod("web-2", "n2")) + "," +
               Event("ADDED", WebPod("web-3", "n2")) + "]");
  // n2 (2 web pods) would skew 2 + 1 - 1 > 1: only n1 is feasible.
  const std::string text = ScheduleText(e, WebPod("web-1", ""), 0);
  EXPECT_NE(text.find(R"("node":"n1")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("feasibleNodes":1,)"), std::string::npos) << text;
  sched_engine_free(e);
}

TEST_F(EngineTest, ProfilesAreChosenBySchedulerName) {
  sched_engine* e = NewEngine(R"({"profiles":[{"schedulerName":"a"},{"schedulerName":"b"}]})");
  Apply(e, Event("ADDED", Node("n1", "4")));
  const std::string text =
      ScheduleText(e, Pod("p", "1", "", R"("schedulerName":"b",)"), 0);
  EXPECT_NE(text.find(R"("node":"n1")"), std::string::npos) << text;

  // The default scheduler is not among this engine's profiles.
  const std::string pod = Pod("p", "1");
  char* out = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_schedule(e, pod.data(), pod.size(), 0, &out, &err),
            SCHED_INVALID_ARGUMENT);
  EXPECT_STREQ(sched_error_message(err),
               "spec.schedulerName: no profile for schedulerName \"default-scheduler\"");
  sched_error_free(err);
  sched_engine_free(e);
}

TEST_F(EngineTest, SameSeedSameDecisions) {
  std::string nodes = "[";
  for (int i = 0; i < 10; ++i) {
    nodes += (i ? "," : "") + Event("ADDED", Node("n" + std::to_string(i), "4"));
  }
  nodes += "]";
  std::vector<std::string> runs[2];
  for (auto& run : runs) {
    sched_engine* e = NewEngine(R"({"seed":12345})");
    Apply(e, nodes);
    for (int i = 0; i < 20; ++i) {
      run.push_back(ScheduleText(e, Pod("p" + std::to_string(i), "100m"), SCHED_SCHEDULE_ASSUME));
    }
    sched_engine_free(e);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST_F(EngineTest, ConcurrentCallsAreSerialized) {
  Apply(Event("ADDED", Node("n1", "16")));
  constexpr int kThreads = 8;
  constexpr int kPerThread = 2;
  std::atomic<int> scheduled{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::string pod = Pod("p-" + std::to_string(t) + "-" + std::to_string(i), "1");
        char* out = nullptr;
        if (sched_engine_schedule(engine_, pod.data(), pod.size(), SCHED_SCHEDULE_ASSUME, &out,
                                  nullptr) == SCHED_OK &&
            std::string(out).find(R"("assumed":true)") != std::string::npos) {
          ++scheduled;
        }
        sched_free(out);
        const std::string unrelated = Event("ADDED", Node("x" + std::to_string(t), "0"));
        sched_engine_apply(engine_, unrelated.data(), unrelated.size(), nullptr, nullptr);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(scheduled.load(), kThreads * kPerThread);
  // Exactly the 16 cpus are taken.
  EXPECT_EQ(NodeFor(Pod("one-more", "1")), "");
}

TEST_F(EngineTest, RejectsDeepNesting) {
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  const std::string msg = Apply(deep);
  EXPECT_NE(msg.find("JSON nested deeper than 64 levels"), std::string::npos) << msg;
}

TEST_F(EngineTest, ScheduleRejectsOtherKinds) {
  const std::string node = Node("n1", "1");
  char* out = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_schedule(engine_, node.data(), node.size(), 0, &out, &err),
            SCHED_INVALID_ARGUMENT);
  EXPECT_STREQ(sched_error_path(err), "kind");
  sched_error_free(err);
}

}  // namespace

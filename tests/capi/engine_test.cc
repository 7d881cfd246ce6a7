// The engine through the C ABI: all-or-nothing apply, assume and the events
// that replace an assumed pod, terminal pods, profiles, determinism and
// concurrent calls.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace engine_test {
namespace {

using testing::EventJson;
using testing::Get;
using testing::NodeJson;
using testing::PodJson;

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
    std::string out = st == SCHED_OK
                          ? summary
                          : std::string(sched_status_name(st)) + ": " + sched_error_message(err);
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
  JsonDoc Schedule(const std::string& pod, uint32_t flags = 0) {
    const std::string text = ScheduleText(pod, flags);
    JsonDoc j(cJSON_Parse(text.c_str()));
    EXPECT_NE(j, nullptr) << text;
    return j;
  }
  // The chosen node, or "" when none.
  std::string NodeFor(const std::string& pod, uint32_t flags = 0) {
    JsonDoc r = Schedule(pod, flags);
    const cJSON* node = cJSON_GetObjectItemCaseSensitive(r.get(), "node");
    return cJSON_IsString(node) ? node->valuestring : "";
  }

  sched_engine* engine_ = nullptr;
};

TEST_F(EngineTest, FailedApplyChangesNothing) {
  ASSERT_EQ(Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "]"),
            R"({"applied":1,"ignored":{},"pendingPods":0})");
  const std::string probe = PodJson("probe", "3");
  const std::string before = ScheduleText(probe, SCHED_SCHEDULE_NODE_STATUSES);
  EXPECT_NE(before.find(R"("node":"n1")"), std::string::npos) << before;

  // Each batch holds valid changes (a pod taking n1's cpu, a new node, a
  // deleted node) before its bad item.
  const std::vector<std::string> bad = {
      "[" + EventJson("ADDED", PodJson("hog", "4", "n1")) + "," +
          EventJson("ADDED", NodeJson("n2", "x")) + "]",
      "[" + EventJson("DELETED", NodeJson("n1", "4")) + "," +
          EventJson("ADDED", R"({"kind":"Pod"})") + "]",
      "[" + EventJson("ADDED", NodeJson("n3", "64")) + "," +
          EventJson("UPDATED", NodeJson("n4", "1")) + "]",
      R"({"kind":"List","items":[)" + PodJson("hog", "4", "n1") + R"(,{"kind":"Node"}]})",
      "[" + EventJson("ADDED", PodJson("hog", "4", "n1")) + "] trailing",
  };
  for (const std::string& doc : bad) {
    EXPECT_EQ(Apply(doc).rfind("INVALID_ARGUMENT: ", 0), 0u) << doc;
    EXPECT_EQ(ScheduleText(probe, SCHED_SCHEDULE_NODE_STATUSES), before) << doc;
  }
}

TEST_F(EngineTest, PreemptionNominatesAndNamesVictimsWithoutChangingState) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "2")) + "," +
        EventJson("ADDED", R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"low",
            "namespace":"ns","uid":"u-low"},"spec":{"nodeName":"n1","priority":1,
            "containers":[{"name":"c","resources":{"requests":{"cpu":"1500m"}}}]}})") +
        "]");
  const std::string high = PodJson("high", "1", "", R"("priority":100,)");
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
  Apply(EventJson("DELETED", PodJson("low", "1500m", "n1")));
  JsonDoc r = Schedule(PodJson("high", "1", "", R"("priority":100,)"));
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "node")->valuestring, "n1");
  EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(r.get(), "victims"), nullptr);
}

TEST_F(EngineTest, AssumeThenEventsReplaceOrRemoveTheAssumedPod) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "2")) + "," +
        EventJson("ADDED", NodeJson("n2", "2")) + "]");
  const std::string web = PodJson("web", "1500m");
  const std::string chosen = NodeFor(web, SCHED_SCHEDULE_ASSUME);
  ASSERT_FALSE(chosen.empty());
  const std::string other = chosen == "n1" ? "n2" : "n1";
  // The assumed pod holds its node: a second such pod goes to the other.
  EXPECT_EQ(NodeFor(PodJson("web2", "1500m")), other);

  // The binding event places web on the other node: the assumed copy goes.
  Apply(EventJson("MODIFIED", PodJson("web", "1500m", other)));
  EXPECT_EQ(NodeFor(PodJson("web3", "1500m")), chosen);

  // Deleting web frees both nodes.
  Apply(EventJson("DELETED", PodJson("web", "1500m", other)));
  JsonDoc r = Schedule(PodJson("web4", "1500m"));
  EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(r.get(), "feasibleNodes")->valuedouble, 2);
}

TEST_F(EngineTest, DeletingAPendingPodDropsItsAssumedCopy) {
  Apply(EventJson("ADDED", NodeJson("n1", "2")));
  const std::string web = PodJson("web", "1500m");
  ASSERT_EQ(NodeFor(web, SCHED_SCHEDULE_ASSUME), "n1");
  EXPECT_EQ(NodeFor(PodJson("web2", "1500m")), "");
  // An update of the still-pending pod keeps the assumed copy...
  EXPECT_EQ(Apply(EventJson("MODIFIED", web)), R"({"applied":0,"ignored":{},"pendingPods":1})");
  EXPECT_EQ(NodeFor(PodJson("web2", "1500m")), "");
  // ...its deletion drops it.
  Apply(EventJson("DELETED", web));
  EXPECT_EQ(NodeFor(PodJson("web2", "1500m")), "n1");
}

TEST_F(EngineTest, TerminalPodsLeaveTheirNode) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "2")) + "," +
        EventJson("ADDED", PodJson("job", "2", "n1")) + "]");
  EXPECT_EQ(NodeFor(PodJson("p", "1")), "");
  const std::string done = R"({"kind":"Pod","metadata":{"name":"job","namespace":"ns"},
      "spec":{"nodeName":"n1"},"status":{"phase":"Succeeded"}})";
  EXPECT_EQ(Apply(EventJson("MODIFIED", done)), R"({"applied":1,"ignored":{},"pendingPods":0})");
  EXPECT_EQ(NodeFor(PodJson("p", "1")), "n1");
}

TEST_F(EngineTest, DeletingWhatIsMissingIsANoOp) {
  EXPECT_EQ(Apply("[" + EventJson("DELETED", NodeJson("ghost", "1")) + "," +
                  EventJson("DELETED", PodJson("ghost", "1", "ghost")) + "]"),
            R"({"applied":2,"ignored":{},"pendingPods":0})");
}

TEST_F(EngineTest, NoNodesIsUnschedulable) {
  JsonDoc r = Schedule(PodJson("p", "1"));
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "reason")->valuestring, "Unschedulable");
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "message")->valuestring,
               "no nodes available to schedule pods");
}

TEST_F(EngineTest, NodeStatusesListEveryRejectedNode) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "1")) + "," +
        EventJson("ADDED", NodeJson("n2", "1")) + "," + EventJson("ADDED", NodeJson("n3", "8")) +
        "]");
  JsonDoc r = Schedule(PodJson("p", "2"), SCHED_SCHEDULE_NODE_STATUSES);
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

// A PreFilterResult (NodeAffinity's matchFields on metadata.name; one value,
// as upstream's field selector requires) leaves n1 and n3 out: with no node
// chosen they are listed after the evaluated n2, with the status of the
// nodes PreFilter left out (no plugin, as upstream's absent-nodes status),
// and n2 once.
TEST_F(EngineTest, NodeStatusesListTheNodesPreFilterLeftOut) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "1")) + "," +
        EventJson("ADDED", NodeJson("n2", "8")) + "," + EventJson("ADDED", NodeJson("n3", "8")) +
        "]");
  const std::string affinity =
      R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
      R"({"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In",)"
      R"("values":["n2"]}]}]}}},)";
  JsonDoc r = Schedule(PodJson("p", "9", "", affinity), SCHED_SCHEDULE_NODE_STATUSES);
  ASSERT_TRUE(cJSON_IsNull(Get(r.get(), "node")));
  const cJSON* statuses = Get(r.get(), "nodeStatuses");
  std::vector<std::string> listed;
  for (const cJSON* s = statuses ? statuses->child : nullptr; s != nullptr; s = s->next) {
    listed.push_back(std::string(Get(s, "node")->valuestring) + " " +
                     Get(s, "code")->valuestring + " " + Get(s, "plugin")->valuestring + " " +
                     Get(s, "reasons")->child->valuestring);
  }
  const std::string absent = " UnschedulableAndUnresolvable  node(s) didn't satisfy plugin(s) [NodeAffinity]";
  EXPECT_EQ(listed, (std::vector<std::string>{
                        "n2 UnschedulableAndUnresolvable NodeResourcesFit Insufficient cpu",
                        "n1" + absent, "n3" + absent}));
  // The same verdicts, grouped.
  JsonDoc g = Schedule(PodJson("p", "9", "", affinity),
                       SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_NODE_STATUS_GROUPS);
  const cJSON* groups = Get(g.get(), "nodeStatusGroups");
  ASSERT_EQ(cJSON_GetArraySize(groups), 2);
  const cJSON* absent_nodes = Get(cJSON_GetArrayItem(groups, 1), "nodes");
  ASSERT_EQ(cJSON_GetArraySize(absent_nodes), 2);
  EXPECT_STREQ(absent_nodes->child->valuestring, "n1");
  EXPECT_STREQ(absent_nodes->child->next->valuestring, "n3");
}

TEST_F(EngineTest, ScoresCoverEveryFeasibleNode) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "," +
        EventJson("ADDED", NodeJson("n2", "8")) + "]");
  JsonDoc r = Schedule(PodJson("p", "1"), SCHED_SCHEDULE_SCORES);
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
  Apply("[" + EventJson("ADDED", HostNode("n1")) + "," + EventJson("ADDED", HostNode("n2")) + "," +
        EventJson("ADDED", WebPod("web-0", "n1")) + "]");
  EXPECT_FALSE(ScoredBy(Schedule(WebPod("web-1", ""), SCHED_SCHEDULE_SCORES).get(),
                        "PodTopologySpread"));
  EXPECT_EQ(Apply(EventJson("ADDED", kWebService)), R"({"applied":1,"ignored":{},"pendingPods":0})");
  JsonDoc r = Schedule(WebPod("web-1", ""), SCHED_SCHEDULE_SCORES);
  EXPECT_TRUE(ScoredBy(r.get(), "PodTopologySpread"));
  Apply(EventJson("DELETED", kWebService));
  EXPECT_FALSE(ScoredBy(Schedule(WebPod("web-1", ""), SCHED_SCHEDULE_SCORES).get(),
                        "PodTopologySpread"));

  sched_engine* e = NewEngine(R"({"profiles":[{"pluginConfig":[{"name":"PodTopologySpread",
      "args":{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,
      "topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule"}]}}]}]})");
  Apply(e, "[" + EventJson("ADDED", HostNode("n1")) + "," + EventJson("ADDED", HostNode("n2")) + "," +
               EventJson("ADDED", WebPod("web-0", "n1")) + "," + EventJson("ADDED", kWebService) +
               "," + EventJson("ADDED", WebPod("web-2", "n2")) + "," +
               EventJson("ADDED", WebPod("web-3", "n2")) + "]");
  // n2 (2 web pods) would skew 2 + 1 - 1 > 1: only n1 is feasible.
  const std::string text = ScheduleText(e, WebPod("web-1", ""), 0);
  EXPECT_NE(text.find(R"("node":"n1")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("feasibleNodes":1,)"), std::string::npos) << text;
  sched_engine_free(e);
}

TEST_F(EngineTest, ProfilesAreChosenBySchedulerName) {
  sched_engine* e = NewEngine(R"({"profiles":[{"schedulerName":"a"},{"schedulerName":"b"}]})");
  Apply(e, EventJson("ADDED", NodeJson("n1", "4")));
  const std::string text = ScheduleText(e, PodJson("p", "1", "", R"("schedulerName":"b",)"), 0);
  EXPECT_NE(text.find(R"("node":"n1")"), std::string::npos) << text;

  // The default scheduler is not among this engine's profiles.
  const std::string pod = PodJson("p", "1");
  char* out = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_schedule(e, pod.data(), pod.size(), 0, &out, &err),
            SCHED_INVALID_ARGUMENT);
  EXPECT_STREQ(sched_error_message(err),
               "spec.schedulerName: no profile for schedulerName \"default-scheduler\"");
  sched_error_free(err);
  sched_engine_free(e);
}

// InterPodAffinity through the ABI: Namespace events feed namespaceSelector,
// and an assumed pod's anti-affinity keeps the next replica off its node.
TEST_F(EngineTest, PodAffinityFollowsNamespacesAndAssumedPods) {
  auto node = [](const std::string& name) {
    return R"({"kind":"Node","metadata":{"name":")" + name +
           R"(","labels":{"host":")" + name +
           R"("}},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}})";
  };
  const std::string ns = R"({"kind":"Namespace","metadata":{"name":"ns","labels":{"t":"x"}}})";
  ASSERT_EQ(Apply("[" + EventJson("ADDED", node("n1")) + "," + EventJson("ADDED", node("n2")) + "," +
                  EventJson("ADDED", PodJson("db", "1", "n2")) + "," + EventJson("ADDED", ns) + "]"),
            R"({"applied":4,"ignored":{},"pendingPods":0})");
  // Near any pod of a namespace labelled t=x: db on n2.
  const std::string near = PodJson("near", "1", "", R"("affinity":{"podAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{},
      "namespaceSelector":{"matchLabels":{"t":"x"}},"topologyKey":"host"}]}},)");
  EXPECT_EQ(NodeFor(near), "n2");
  Apply(EventJson("DELETED", ns));
  JsonDoc r = Schedule(near);
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "message")->valuestring,
               "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. "
               "no new claims to deallocate, preemption: 0/2 nodes are available: 2 "
               "Preemption is not helpful for scheduling.");

  // One replica per host: the first is assumed on n1 (emptier than n2).
  auto replica = [](const std::string& name) {
    return R"({"kind":"Pod","metadata":{"name":")" + name +
           R"(","labels":{"app":"r"}},"spec":{"affinity":{"podAntiAffinity":{
           "requiredDuringSchedulingIgnoredDuringExecution":[{
           "labelSelector":{"matchLabels":{"app":"r"}},"topologyKey":"host"}]}},
           "containers":[{"name":"c"}]}})";
  };
  EXPECT_EQ(NodeFor(replica("r1"), SCHED_SCHEDULE_ASSUME), "n1");
  EXPECT_EQ(NodeFor(replica("r2"), SCHED_SCHEDULE_ASSUME), "n2");
  r = Schedule(replica("r3"));
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(r.get(), "message")->valuestring,
               "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. "
               "no new claims to deallocate, preemption: 0/2 nodes are available: 2 No "
               "preemption victims found for incoming pod.");
}

TEST_F(EngineTest, SameSeedSameDecisions) {
  std::string nodes = "[";
  for (int i = 0; i < 10; ++i) {
    nodes += (i ? "," : "") + EventJson("ADDED", NodeJson("n" + std::to_string(i), "4"));
  }
  nodes += "]";
  std::vector<std::string> runs[2];
  for (auto& run : runs) {
    sched_engine* e = NewEngine(R"({"seed":12345})");
    Apply(e, nodes);
    for (int i = 0; i < 20; ++i) {
      run.push_back(
          ScheduleText(e, PodJson("p" + std::to_string(i), "100m"), SCHED_SCHEDULE_ASSUME));
    }
    sched_engine_free(e);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST_F(EngineTest, ConcurrentCallsAreSerialized) {
  Apply(EventJson("ADDED", NodeJson("n1", "16")));
  constexpr int kThreads = 8;
  constexpr int kPerThread = 2;
  std::atomic<int> scheduled{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::string pod = PodJson("p-" + std::to_string(t) + "-" + std::to_string(i), "1");
        char* out = nullptr;
        if (sched_engine_schedule(engine_, pod.data(), pod.size(), SCHED_SCHEDULE_ASSUME, &out,
                                  nullptr) == SCHED_OK &&
            std::string(out).find(R"("assumed":true)") != std::string::npos) {
          ++scheduled;
        }
        sched_free(out);
        const std::string unrelated = EventJson("ADDED", NodeJson("x" + std::to_string(t), "0"));
        sched_engine_apply(engine_, unrelated.data(), unrelated.size(), nullptr, nullptr);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(scheduled.load(), kThreads * kPerThread);
  // Exactly the 16 cpus are taken.
  EXPECT_EQ(NodeFor(PodJson("one-more", "1")), "");
}

TEST_F(EngineTest, RejectsDeepNesting) {
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  const std::string msg = Apply(deep);
  EXPECT_NE(msg.find("JSON nested deeper than 64 levels"), std::string::npos) << msg;
}

TEST_F(EngineTest, ScheduleRejectsOtherKinds) {
  const std::string node = NodeJson("n1", "1");
  char* out = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_schedule(engine_, node.data(), node.size(), 0, &out, &err),
            SCHED_INVALID_ARGUMENT);
  EXPECT_STREQ(sched_error_path(err), "kind");
  sched_error_free(err);
}

// The queue through the engine: informer events become cluster events.
class EngineQueueTest : public EngineTest {
 protected:
  std::string Run(uint32_t max_cycles = 0) {
    char* out = nullptr;
    sched_error* err = nullptr;
    EXPECT_EQ(sched_engine_run(engine_, max_cycles, 0, &out, &err), SCHED_OK)
        << sched_error_message(err);
    std::string text = out != nullptr ? out : "";
    sched_free(out);
    sched_error_free(err);
    return text;
  }
  // String field `key` of the queue's entry for `pod` ("ns/name"), "" when
  // the pod is not queued or the entry has no such field.
  std::string QueueField(const std::string& pod, const char* key) {
    char* out = nullptr;
    EXPECT_EQ(sched_engine_queue(engine_, &out, nullptr), SCHED_OK);
    JsonDoc q(cJSON_Parse(out));
    sched_free(out);
    const cJSON* p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(q.get(), "pods")) {
      if (std::string(cJSON_GetObjectItemCaseSensitive(p, "pod")->valuestring) == pod) {
        const cJSON* v = cJSON_GetObjectItemCaseSensitive(p, key);
        return cJSON_IsString(v) ? v->valuestring : "";
      }
    }
    return "";
  }
  // The queue `pod` is in, or "" when it is not queued.
  std::string Where(const std::string& pod) { return QueueField(pod, "queue"); }
};

TEST_F(EngineQueueTest, BoundPodDeletionMovesPodsItMayHelp) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "," + EventJson("ADDED", PodJson("hog", "3", "n1")) + "," +
        EventJson("ADDED", PodJson("p", "2")) + "]");
  EXPECT_NE(Run().find(R"("reason":"Unschedulable")"), std::string::npos);
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  // A pending pod's deletion helps nobody; a bound pod's frees its room.
  Apply(EventJson("ADDED", PodJson("other", "1")));
  EXPECT_EQ(Where("ns/other"), "Active");
  Apply(EventJson("DELETED", PodJson("other", "1")));
  EXPECT_EQ(Where("ns/other"), "");
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("DELETED", PodJson("hog", "3", "n1")));
  EXPECT_EQ(Where("ns/p"), "Backoff");
  EXPECT_NE(Run(1).find(R"("node":"n1")"), std::string::npos);
  EXPECT_EQ(Where("ns/p"), "");
}

// Volume objects raise the events the volume plugins registered for: a
// missing claim (VolumeRestrictions' PreFilter) waits for a PVC Add, not a
// StorageClass; an unbound WaitForFirstConsumer claim (VolumeBinding) waits
// for a PV, and once placed the PV is bound to the claim.
TEST_F(EngineQueueTest, VolumeEventsMovePodsTheirPluginsRejected) {
  const std::string claim = R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data"}}],)";
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "," +
        EventJson("ADDED", PodJson("p", "1", "", claim)) + "]");
  EXPECT_NE(Run().find(R"(persistentvolumeclaim \"data\" not found)"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1",)"
                           R"("metadata":{"name":"local"},"provisioner":"kubernetes.io/no-provisioner",)"
                           R"("volumeBindingMode":"WaitForFirstConsumer"})"));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":)"
                           R"({"name":"data","namespace":"ns"},"spec":{"storageClassName":"local",)"
                           R"("accessModes":["ReadWriteOnce"]}})"));
  EXPECT_EQ(Where("ns/p"), "Backoff");
  ASSERT_EQ(testing::CallAdvanceClock(engine_, 20000).status, SCHED_OK);
  EXPECT_NE(Run().find("didn't find available persistent volumes to bind"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", R"({"kind":"PersistentVolume","apiVersion":"v1","metadata":{"name":"pv"},)"
                           R"("spec":{"storageClassName":"local","accessModes":["ReadWriteOnce"],)"
                           R"("capacity":{"storage":"1Gi"}},"status":{"phase":"Available"}})"));
  EXPECT_EQ(Where("ns/p"), "Backoff");
  ASSERT_EQ(testing::CallAdvanceClock(engine_, 20000).status, SCHED_OK);
  EXPECT_NE(Run().find(R"("node":"n1")"), std::string::npos);
  // The PV is taken: a second pod with another claim of the class finds none.
  Apply(EventJson("ADDED", R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":)"
                           R"({"name":"data2","namespace":"ns"},"spec":{"storageClassName":"local"}})"));
  const std::string claim2 = R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data2"}}],)";
  const testing::CallResult r = testing::CallSchedule(engine_, PodJson("q", "1", "", claim2), 0);
  EXPECT_NE(r.output.find("didn't find available persistent volumes to bind"), std::string::npos)
      << r.output;
}

// The volume events carry their objects to the plugins' hints: an unrelated
// claim, an unchanged StorageClass update or a PV update that leaves the
// topology labels alone moves nobody; the pod's own claim or a PV's zone
// change moves it.
TEST_F(EngineQueueTest, VolumeHintsMoveOnlyOnRelevantObjects) {
  auto pvc = [](const std::string& name, const std::string& spec) {
    return R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":{"name":")" + name +
           R"(","namespace":"ns"},"spec":{)" + spec + "}}";
  };
  const std::string local =
      R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1","metadata":{"name":"local"},)"
      R"("provisioner":"kubernetes.io/no-provisioner","volumeBindingMode":"WaitForFirstConsumer"})";
  const std::string claim =
      R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data"}}],)";
  // VolumeBinding: no PV for a WaitForFirstConsumer claim.
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4", R"("topology.kubernetes.io/zone":"z2")")) +
        "," + EventJson("ADDED", local) + "," +
        EventJson("ADDED", pvc("data", R"("storageClassName":"local")")) + "," +
        EventJson("ADDED", PodJson("p", "1", "", claim)) + "]");
  EXPECT_NE(Run().find("didn't find available persistent volumes to bind"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", pvc("other", R"("storageClassName":"local")")));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("MODIFIED", local));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("MODIFIED", pvc("data", R"("storageClassName":"local")")));
  EXPECT_EQ(Where("ns/p"), "Backoff");

  // VolumeZone: a bound PV in zone z1, the node in z2.
  auto pv = [](const std::string& labels) {
    return R"({"kind":"PersistentVolume","apiVersion":"v1","metadata":{"name":"pv-q","labels":{)" +
           labels +
           R"(}},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],)"
           R"("claimRef":{"namespace":"ns","name":"bound"}},"status":{"phase":"Bound"}})";
  };
  const std::string bound =
      R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":{"name":"bound",)"
      R"("namespace":"ns","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},)"
      R"("spec":{"volumeName":"pv-q","accessModes":["ReadWriteOnce"]}})";
  const std::string claim_q =
      R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"bound"}}],)";
  Apply("[" + EventJson("ADDED", pv(R"("topology.kubernetes.io/zone":"z1")")) + "," +
        EventJson("ADDED", bound) + "," + EventJson("ADDED", PodJson("q", "1", "", claim_q)) +
        "]");
  EXPECT_NE(Run().find("node(s) had no available volume zone"), std::string::npos);
  ASSERT_EQ(Where("ns/q"), "Unschedulable");
  Apply(EventJson("MODIFIED", pv(R"("topology.kubernetes.io/zone":"z1","team":"a")")));
  EXPECT_EQ(Where("ns/q"), "Unschedulable");
  Apply(EventJson("ADDED", pvc("third", R"("storageClassName":"local")")));
  EXPECT_EQ(Where("ns/q"), "Unschedulable");
  Apply(EventJson("MODIFIED", pv(R"("topology.kubernetes.io/zone":"z2")")));
  EXPECT_EQ(Where("ns/q"), "Backoff");
  ASSERT_EQ(testing::CallAdvanceClock(engine_, 20000).status, SCHED_OK);
  EXPECT_NE(Run().find(R"("node":"n1")"), std::string::npos);
}

// VolumeBinding's storage capacity check through apply: a claim of a class
// whose CSIDriver tracks capacity fits only where a CSIStorageCapacity has
// room; a capacity added later moves the pod (CSIStorageCapacity/Add).
TEST_F(EngineQueueTest, StorageCapacityGatesProvisioning) {
  const std::string claim =
      R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data"}}],)";
  auto capacity = [](const std::string& name, const std::string& zone, const std::string& size) {
    return R"({"kind":"CSIStorageCapacity","apiVersion":"storage.k8s.io/v1","metadata":{"name":")" +
           name + R"(","namespace":"kube-system"},"storageClassName":"fast",)" +
           R"("nodeTopology":{"matchLabels":{"zone":")" + zone + R"("}},"capacity":")" + size +
           R"("})";
  };
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4", R"("zone":"z1")")) + "," +
        EventJson("ADDED", NodeJson("n2", "4", R"("zone":"z2")")) + "," +
        EventJson("ADDED", R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1",)"
                           R"("metadata":{"name":"fast"},"provisioner":"csi.example.com",)"
                           R"("volumeBindingMode":"WaitForFirstConsumer"})") +
        "," +
        EventJson("ADDED", R"({"kind":"CSIDriver","apiVersion":"storage.k8s.io/v1",)"
                           R"("metadata":{"name":"csi.example.com"},"spec":{"storageCapacity":true}})") +
        "," + EventJson("ADDED", capacity("small", "z1", "1Gi")) + "," +
        EventJson("ADDED", R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":)"
                           R"({"name":"data","namespace":"ns"},"spec":{"storageClassName":"fast",)"
                           R"("resources":{"requests":{"storage":"5Gi"}}}})") +
        "," + EventJson("ADDED", PodJson("p", "1", "", claim)) + "]");
  EXPECT_NE(Run().find("2 node(s) did not have enough free storage"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", capacity("big", "z2", "10Gi")));
  EXPECT_EQ(Where("ns/p"), "Backoff");
  ASSERT_EQ(testing::CallAdvanceClock(engine_, 20000).status, SCHED_OK);
  EXPECT_NE(Run().find(R"("node":"n2")"), std::string::npos);
}

// NodeVolumeLimits counts VolumeAttachments; deleting one moves the pods it
// rejected (VolumeAttachment/Delete).
TEST_F(EngineQueueTest, VolumeAttachmentsCountTowardAttachLimits) {
  auto pv = [](const std::string& name) {
    return R"({"kind":"PersistentVolume","apiVersion":"v1","metadata":{"name":")" + name +
           R"("},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],)"
           R"("csi":{"driver":"ebs.csi.aws.com","volumeHandle":")" + name +
           R"("},"claimRef":{"namespace":"ns","name":")" + name + R"("}},"status":{"phase":"Bound"}})";
  };
  auto pvc = [](const std::string& name) {
    return R"({"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":{"name":")" + name +
           R"(","namespace":"ns","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},)"
           R"("spec":{"volumeName":")" + name + R"(","accessModes":["ReadWriteOnce"]}})";
  };
  const std::string va =
      R"({"kind":"VolumeAttachment","apiVersion":"storage.k8s.io/v1","metadata":{"name":"va-1"},)"
      R"("spec":{"attacher":"ebs.csi.aws.com","nodeName":"n1","source":{"persistentVolumeName":"pv-1"}}})";
  const std::string claim =
      R"("volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"pv-2"}}],)";
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "," +
        EventJson("ADDED", R"({"kind":"CSINode","apiVersion":"storage.k8s.io/v1","metadata":)"
                           R"({"name":"n1"},"spec":{"drivers":[{"name":"ebs.csi.aws.com",)"
                           R"("nodeID":"i-1","allocatable":{"count":1}}]}})") +
        "," + EventJson("ADDED", pv("pv-1")) + "," + EventJson("ADDED", pv("pv-2")) + "," +
        EventJson("ADDED", pvc("pv-2")) + "," + EventJson("ADDED", va) + "," +
        EventJson("ADDED", PodJson("p", "1", "", claim)) + "]");
  EXPECT_NE(Run().find("node(s) exceed max volume count"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("DELETED", va));
  EXPECT_EQ(Where("ns/p"), "Backoff");
  ASSERT_EQ(testing::CallAdvanceClock(engine_, 20000).status, SCHED_OK);
  EXPECT_NE(Run().find(R"("node":"n1")"), std::string::npos);
}

TEST_F(EngineQueueTest, NodeUpdatesMoveByKind) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "1")) + "," + EventJson("ADDED", PodJson("p", "2")) + "]");
  Run();
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  // A label change is not something NodeResourcesFit registered for.
  Apply(EventJson("MODIFIED", R"({"kind":"Node","metadata":{"name":"n1","labels":{"a":"b"}},)"
                          R"("status":{"allocatable":{"cpu":"1","memory":"64Gi","pods":"110"}}})"));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  // More cpu is.
  Apply(EventJson("MODIFIED", NodeJson("n1", "2")));
  EXPECT_EQ(Where("ns/p"), "Backoff");
}

// InterPodAffinity's hints: a pod kept out by an existing pod's label moves
// when that pod goes, not on unrelated pods or Services (it used to move on
// every event).
TEST_F(EngineQueueTest, InterPodAffinityHintsMoveOnlyOnRelevantPods) {
  auto labeled = [](const std::string& name, const std::string& app) {
    return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
           R"(","namespace":"ns","labels":{"app":")" + app +
           R"("}},"spec":{"nodeName":"n1","containers":[{"name":"c"}]}})";
  };
  const std::string anti =
      R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
      R"({"labelSelector":{"matchLabels":{"app":"db"}},"topologyKey":"kubernetes.io/hostname"}]}},)";
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4", R"("kubernetes.io/hostname":"n1")")) + "," +
        EventJson("ADDED", labeled("db", "db")) + "," +
        EventJson("ADDED", PodJson("p", "1", "", anti)) + "]");
  EXPECT_NE(Run().find("didn't match pod anti-affinity rules"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", labeled("web", "web")));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", R"({"kind":"Service","apiVersion":"v1","metadata":{"name":"s",)"
                           R"("namespace":"ns"},"spec":{"selector":{"app":"web"}}})"));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("DELETED", labeled("db", "db")));
  EXPECT_EQ(Where("ns/p"), "Backoff");
}

// A pod that only NodeAffinity's PreFilterResult kept out (pinned to a node
// that does not exist, as a DaemonSet pod can be) waits for NodeAffinity's
// events: upstream records the restricting plugin.
TEST_F(EngineQueueTest, PreFilterResultRestrictionRecordsThePlugin) {
  const std::string pin =
      R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
      R"({"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In",)"
      R"("values":["n2"]}]}]}}},)";
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "," +
        EventJson("ADDED", PodJson("p", "1", "", pin)) + "]");
  EXPECT_NE(Run().find("didn't satisfy plugin(s) [NodeAffinity]"), std::string::npos);
  ASSERT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", NodeJson("n3", "4")));
  EXPECT_EQ(Where("ns/p"), "Unschedulable");
  Apply(EventJson("ADDED", NodeJson("n2", "4")));
  EXPECT_EQ(Where("ns/p"), "Backoff");
}

// sched_engine_run's document holds each attempt's result, in order,
// exactly as sched_engine_schedule writes one (one writer for both).
TEST_F(EngineQueueTest, RunResultsAreScheduleResultsInOneArray) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "2")) + "," + EventJson("ADDED", PodJson("a", "1")) +
        "," + EventJson("ADDED", PodJson("b", "1")) + "]");
  EXPECT_EQ(Run(),
            R"({"results":[{"pod":"ns/a","node":"n1","reason":"Scheduled","numAllNodes":1,)"
            R"("evaluatedNodes":1,"feasibleNodes":1,"assumed":true},)"
            R"({"pod":"ns/b","node":"n1","reason":"Scheduled","numAllNodes":1,)"
            R"("evaluatedNodes":1,"feasibleNodes":1,"assumed":true}]})");
}

TEST_F(EngineQueueTest, GatedPodWaitsForItsGatesAndAssumedPodsLeaveTheQueue) {
  Apply(EventJson("ADDED", NodeJson("n1", "4")));
  Apply(EventJson("ADDED", PodJson("g", "1", "", R"("schedulingGates":[{"name":"x"}],)")));
  EXPECT_EQ(Where("ns/g"), "Unschedulable");
  EXPECT_EQ(Run(), R"({"results":[]})");
  Apply(EventJson("MODIFIED", PodJson("g", "1")));
  EXPECT_EQ(Where("ns/g"), "Active");
  // Placing the pod directly with ASSUME takes it out of the queue.
  EXPECT_EQ(NodeFor(PodJson("g", "1"), SCHED_SCHEDULE_ASSUME), "n1");
  EXPECT_EQ(Where("ns/g"), "");
  // Pods of a scheduler this engine has no profile for are not queued.
  Apply(EventJson("ADDED", PodJson("o", "1", "", R"("schedulerName":"other",)")));
  EXPECT_EQ(Where("ns/o"), "");
}

TEST_F(EngineQueueTest, BackoffComesFromTheConfig) {
  sched_engine_free(engine_);
  engine_ = NewEngine(R"({"podInitialBackoffSeconds":3,"podMaxBackoffSeconds":4})");
  Apply("[" + EventJson("ADDED", NodeJson("n1", "1")) + "," + EventJson("ADDED", PodJson("p", "2")) + "]");
  Run();
  char* out = nullptr;
  ASSERT_EQ(sched_engine_queue(engine_, &out, nullptr), SCHED_OK);
  EXPECT_NE(std::string(out).find(R"("backoffExpiresAtMillis":3000)"), std::string::npos) << out;
  sched_free(out);
}

}  // namespace
}  // namespace engine_test

namespace engine_test {
namespace {

// Preemption inside the queue's loop: the preemptor is nominated, its
// nomination keeps room on the node against lower-priority pods (the
// two-pass filter), and once the caller deletes the victim the pod's
// nominated node is tried first.
TEST_F(EngineQueueTest, PreemptionNominatesAndTheNominationHoldsTheRoom) {
  Apply("[" + EventJson("ADDED", NodeJson("n1", "4")) + "," + EventJson("ADDED", PodJson("low", "3", "n1")) + "," +
        EventJson("ADDED", PodJson("hi", "2", "", R"("priority":100,)")) + "]");
  const std::string first = Run();
  EXPECT_NE(first.find(R"("nominatedNodeName":"n1")"), std::string::npos) << first;
  EXPECT_NE(first.find(R"("name":"low")"), std::string::npos) << first;
  EXPECT_EQ(Where("ns/hi"), "Unschedulable");
  EXPECT_EQ(QueueField("ns/hi", "nominatedNodeName"), "n1");

  // The caller evicts the victim; a mid-priority pod arrives. With the
  // victim gone n1 has 4 cpu, but hi's nomination holds 2 of them.
  Apply("[" + EventJson("DELETED", PodJson("low", "3", "n1")) + "," +
        EventJson("ADDED", PodJson("mid", "3", "", R"("priority":50,)")) + "]");
  EXPECT_EQ(Where("ns/hi"), "Backoff");
  EXPECT_EQ(QueueField("ns/hi", "nominatedNodeName"), "n1");
  EXPECT_EQ(QueueField("ns/mid", "nominatedNodeName"), "");
  const std::string second = Run();  // activeQ holds only mid
  EXPECT_NE(second.find(R"("pod":"ns/mid")"), std::string::npos) << second;
  EXPECT_NE(second.find("Insufficient cpu"), std::string::npos) << second;

  // Backoff (1 s) ends strictly after its window (isPodBackingoff).
  ASSERT_EQ(sched_engine_advance_clock(engine_, 2000, nullptr), SCHED_OK);
  const std::string third = Run();
  EXPECT_NE(third.find(R"("pod":"ns/hi","node":"n1")"), std::string::npos) << third;
  EXPECT_NE(third.find(R"("evaluatedNodes":1)"), std::string::npos) << third;
}

}  // namespace
}  // namespace engine_test
}  // namespace sched::capi

// sched_engine_scale_up against the slow path: a twin engine given that
// many nodes of the template ("<template>-scaleup-<i>") fits every pod the
// estimate places when they are scheduled one by one with
// SCHED_SCHEDULE_ASSUME (existing placements first, then the estimate's
// order), and with one node fewer leaves one pending; pods no template
// helps come with the template node's FitError; the engine is left as it
// was; bad requests name the field.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "capi/engine.h"
#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace scale_up_test {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EnginePtr;
using testing::EventJson;
using testing::NodeJson;

CallResult CallScaleUp(sched_engine* e, const std::string& request) {
  return testing::CallWithInput(sched_engine_scale_up, e, request);
}

const cJSON* Get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

// A pod in "ns" with labels, asking for `cpu`; `extra_spec` ends in ','.
std::string Pod(const std::string& name, const std::string& cpu, const std::string& labels = "",
                const std::string& extra_spec = "", const std::string& node = "") {
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns","labels":{)" + labels + R"(}},"spec":{)" + node_name + extra_spec +
         R"("containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu + R"("}}}]}})";
}

constexpr char kSoloLabels[] = R"("app":"solo")";
constexpr char kSoloSpec[] =
    R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
    R"({"labelSelector":{"matchLabels":{"app":"solo"}},)"
    R"("topologyKey":"kubernetes.io/hostname"}]}},)";

// The template: 4 CPUs, a hostname label every new node replaces.
std::string Template(const std::string& name) {
  return NodeJson(name, "4", R"("kubernetes.io/hostname":")" + name + R"(","pool":"big")");
}

// Four nearly full nodes: 200m free each.
EnginePtr Cluster(const std::string& config, int new_nodes = 0) {
  sched_engine* raw = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &raw, nullptr), SCHED_OK);
  EnginePtr e(raw);
  std::string events = "[";
  for (int i = 0; i < 4; ++i) {
    const std::string n = "e" + std::to_string(i);
    events += (i ? "," : "") + EventJson("ADDED", NodeJson(n, "2")) + "," +
              EventJson("ADDED", Pod("bound-" + n, "1800m", "", "", n));
  }
  for (int i = 0; i < new_nodes; ++i) {
    const std::string n = "big-scaleup-" + std::to_string(i);
    events += "," + EventJson("ADDED",
                              NodeJson(n, "4",
                                       R"("kubernetes.io/hostname":")" + n + R"(","pool":"big")"));
  }
  events += "]";
  EXPECT_EQ(CallApply(e.get(), events).status, SCHED_OK);
  return e;
}

// Five 1-CPU pods, five 3-CPU pods, three 3-CPU pods apart from each other
// (hostname anti-affinity), two 100m pods that fit existing nodes, two pods
// no node of the template fits. First Fit Decreasing is optimal here: the
// 3-CPU pods take eight nodes, the 1-CPU pods fill five of them.
std::vector<std::string> Pending() {
  std::vector<std::string> pods;
  for (int i = 0; i < 5; ++i) pods.push_back(Pod("small-" + std::to_string(i), "1"));
  for (int i = 0; i < 5; ++i) pods.push_back(Pod("large-" + std::to_string(i), "3"));
  for (int i = 0; i < 3; ++i)
    pods.push_back(Pod("solo-" + std::to_string(i), "3", kSoloLabels, kSoloSpec));
  for (int i = 0; i < 2; ++i) pods.push_back(Pod("tiny-" + std::to_string(i), "100m"));
  for (int i = 0; i < 2; ++i)
    pods.push_back(Pod("ssd-" + std::to_string(i), "1", "", R"("nodeSelector":{"disk":"ssd"},)"));
  return pods;
}

std::string Request(const std::vector<std::string>& pods, const std::string& templates) {
  std::string r = R"({"pods":[)";
  for (size_t i = 0; i < pods.size(); ++i) r += (i ? "," : "") + pods[i];
  return r + R"(],"nodeTemplates":[)" + templates + "]}";
}

// Schedules `order` (pod names) one by one on `e`; returns how many fit.
int ScheduleInOrder(sched_engine* e, const std::map<std::string, std::string>& by_name,
                    const std::vector<std::string>& order) {
  int fit = 0;
  for (const std::string& name : order) {
    const CallResult s = CallSchedule(e, by_name.at(name), SCHED_SCHEDULE_ASSUME);
    JsonDoc sj(cJSON_Parse(s.output.c_str()));
    if (cJSON_IsString(Get(sj.get(), "node"))) ++fit;
  }
  return fit;
}

TEST(ScaleUpTest, NewNodesFitThePodsScheduledOneByOneAndOneFewerDoesNot) {
  for (const std::string config : {R"({"seed":5})", R"({"seed":5,"equivalenceCache":true})"}) {
    EnginePtr asked = Cluster(config);
    const uint64_t before = asked->rep->StateDigest();
    const std::vector<std::string> pods = Pending();
    const CallResult r =
        CallScaleUp(asked.get(), Request(pods, R"({"node":)" + Template("big") + "}"));
    ASSERT_EQ(r.status, SCHED_OK) << r.message;
    EXPECT_EQ(asked->rep->StateDigest(), before);
    JsonDoc doc(cJSON_Parse(r.output.c_str()));
    std::map<std::string, std::string> by_name;
    for (const std::string& p : pods) {
      JsonDoc pj(cJSON_Parse(p.c_str()));
      by_name["ns/" + std::string(Get(Get(pj.get(), "metadata"), "name")->valuestring)] = p;
    }
    std::vector<std::string> order;
    const cJSON* x;
    cJSON_ArrayForEach(x, Get(doc.get(), "existing")) order.push_back(Get(x, "pod")->valuestring);
    EXPECT_EQ(order, (std::vector<std::string>{"ns/tiny-0", "ns/tiny-1"})) << r.output;
    const cJSON* t = cJSON_GetArrayItem(Get(doc.get(), "templates"), 0);
    cJSON_ArrayForEach(x, Get(t, "placements")) order.push_back(Get(x, "pod")->valuestring);
    const int nodes = static_cast<int>(Get(t, "nodes")->valuedouble);
    EXPECT_EQ(nodes, 8) << r.output;  // 5 x (3 + 1), 3 x 3 (distinct hostnames)
    ASSERT_EQ(order.size(), pods.size() - 2) << r.output;
    // The slow path: that many nodes fit every placed pod ...
    EnginePtr twin = Cluster(config, nodes);
    EXPECT_EQ(ScheduleInOrder(twin.get(), by_name, order), static_cast<int>(order.size()));
    // ... and one fewer leaves at least one pending.
    EnginePtr fewer = Cluster(config, nodes - 1);
    EXPECT_LT(ScheduleInOrder(fewer.get(), by_name, order), static_cast<int>(order.size()));
    // The ssd pods: no template helps, with the template node's FitError.
    const cJSON* unhelped = Get(doc.get(), "unhelped");
    ASSERT_EQ(cJSON_GetArraySize(unhelped), 2) << r.output;
    const cJSON* u = cJSON_GetArrayItem(unhelped, 0);
    EXPECT_STREQ(Get(u, "pod")->valuestring, "ns/ssd-0");
    const cJSON* why = cJSON_GetArrayItem(Get(u, "reasons"), 0);
    EXPECT_STREQ(Get(why, "template")->valuestring, "big");
    EXPECT_STREQ(Get(why, "message")->valuestring,
                 "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.");
    const cJSON* pending = Get(t, "pending");
    ASSERT_EQ(cJSON_GetArraySize(pending), 2);
    EXPECT_STREQ(Get(cJSON_GetArrayItem(pending, 0), "reason")->valuestring, "NoFit");
  }
}

TEST(ScaleUpTest, MaxNodesStopsTheEstimate) {
  EnginePtr e = Cluster(R"({"seed":5})");
  std::vector<std::string> pods;
  for (int i = 0; i < 6; ++i) pods.push_back(Pod("p-" + std::to_string(i), "2"));
  const CallResult r =
      CallScaleUp(e.get(), Request(pods, R"({"maxNodes":2,"node":)" + Template("big") + "}"));
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  JsonDoc doc(cJSON_Parse(r.output.c_str()));
  const cJSON* t = cJSON_GetArrayItem(Get(doc.get(), "templates"), 0);
  EXPECT_EQ(Get(t, "nodes")->valuedouble, 2);
  EXPECT_EQ(cJSON_GetArraySize(Get(t, "placements")), 4);
  const cJSON* pending = Get(t, "pending");
  ASSERT_EQ(cJSON_GetArraySize(pending), 2);
  EXPECT_STREQ(Get(cJSON_GetArrayItem(pending, 0), "reason")->valuestring, "MaxNodes");
  EXPECT_EQ(cJSON_GetArraySize(Get(doc.get(), "unhelped")), 0);
}

TEST(ScaleUpTest, EachTemplateIsEstimatedOnItsOwn) {
  EnginePtr e = Cluster(R"({"seed":5})");
  std::vector<std::string> pods;
  for (int i = 0; i < 4; ++i) pods.push_back(Pod("p-" + std::to_string(i), "3"));
  const CallResult r =
      CallScaleUp(e.get(), Request(pods, R"({"node":)" + Template("big") + R"(},{"node":)" +
                                             NodeJson("huge", "8") + R"(},{"node":)" +
                                             NodeJson("mini", "1") + "}"));
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  JsonDoc doc(cJSON_Parse(r.output.c_str()));
  const cJSON* ts = Get(doc.get(), "templates");
  EXPECT_EQ(Get(cJSON_GetArrayItem(ts, 0), "nodes")->valuedouble, 4);
  EXPECT_EQ(Get(cJSON_GetArrayItem(ts, 1), "nodes")->valuedouble, 2);
  EXPECT_EQ(Get(cJSON_GetArrayItem(ts, 2), "nodes")->valuedouble, 0);
  EXPECT_STREQ(
      Get(cJSON_GetArrayItem(Get(cJSON_GetArrayItem(ts, 1), "newNodes"), 0), "node")->valuestring,
      "huge-scaleup-0");
  EXPECT_EQ(cJSON_GetArraySize(Get(doc.get(), "unhelped")), 0);  // two templates help
}

TEST(ScaleUpTest, BadRequestsNameTheFieldAndChangeNothing) {
  EnginePtr e = Cluster(R"({"seed":5})");
  Engine& rep = *e->rep;
  const uint64_t before = rep.StateDigest();
  const int64_t strings = rep.Lock().Stats().interner_strings;
  const std::string tmpl = R"({"node":)" + Template("big") + "}";
  const std::string pod = Pod("p", "1");
  struct Case {
    std::string request;
    const char* path;
  };
  const Case cases[] = {
      {"{}", "pods"},
      {R"({"pods":[]})", "nodeTemplates"},
      {R"({"pods":{},"nodeTemplates":[]})", "pods"},
      {R"({"pods":[],"nodeTemplates":[],"extra":1})", "extra"},
      {Request({R"({"kind":"Node"})"}, tmpl), "pods[0].kind"},
      {Request({Pod("p", "lots")}, tmpl), "pods[0].spec.containers[0].resources.requests.cpu"},
      {Request({Pod("p", "1", "", "", "e0")}, tmpl), "pods[0].spec.nodeName"},
      {Request({Pod("bound-e0", "1")}, tmpl), "pods[0].metadata.name"},
      {Request({pod, pod}, tmpl), "pods[1].metadata.name"},
      {Request({pod}, "{}"), "nodeTemplates[0].node"},
      {Request({pod}, R"({"node":{"kind":"Pod"}})"), "nodeTemplates[0].node.kind"},
      {Request({pod}, tmpl + "," + tmpl), "nodeTemplates[1].node.metadata.name"},
      {Request({pod}, R"({"maxNodes":0,"node":)" + Template("big") + "}"),
       "nodeTemplates[0].maxNodes"},
      {Request({pod}, R"({"maxNodes":10001,"node":)" + Template("big") + "}"),
       "nodeTemplates[0].maxNodes"},
      {Request({pod}, R"({"size":1,"node":)" + Template("big") + "}"), "nodeTemplates[0].size"},
      {Request({pod}, R"({"node":)" + NodeJson("e", "4") + "}"),
       "nodeTemplates[0].node.metadata.name"},
      {"[]", ""},
  };
  // A new node that would be named like an existing one ("e-scaleup-0").
  ASSERT_EQ(CallApply(e.get(), "[" + EventJson("ADDED", NodeJson("e-scaleup-0", "1")) + "]").status,
            SCHED_OK);
  const uint64_t with_node = rep.StateDigest();
  for (const Case& c : cases) {
    const CallResult r = CallScaleUp(e.get(), c.request);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.request;
    if (*c.path != '\0') {
      EXPECT_EQ(r.path, c.path) << r.message;
    }
    EXPECT_EQ(rep.StateDigest(), with_node) << c.request;
  }
  EXPECT_NE(before, with_node);
  EXPECT_EQ(rep.Lock().Stats().interner_strings, strings + 1);  // "e-scaleup-0" only
  char* out = nullptr;
  EXPECT_EQ(sched_engine_scale_up(nullptr, "{}", 2, &out, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(sched_engine_scale_up(e.get(), "{}", 2, nullptr, nullptr), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

TEST(ScaleUpTest, LeavesTheInternerAsItWas) {
  EnginePtr e = Cluster(R"({"seed":5})");
  Engine& rep = *e->rep;
  const int64_t strings = rep.Lock().Stats().interner_strings;
  const uint64_t before = rep.StateDigest();
  ASSERT_EQ(CallScaleUp(e.get(), Request(Pending(), R"({"node":)" + Template("big") + "}")).status,
            SCHED_OK);
  EXPECT_EQ(rep.Lock().Stats().interner_strings, strings);
  EXPECT_EQ(rep.StateDigest(), before);
}

}  // namespace
}  // namespace scale_up_test
}  // namespace sched::capi

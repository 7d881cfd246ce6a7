// Weeks of churn through the C API with the default config (the
// equivalence cache on, parallel): rounds of nodes removed and added (now
// and then the node index bound falls far under half: the arrays by node
// index are cut), bound pods deleted, pending pods retried (moved back by
// events and by the clock), pods that fit nowhere parked (the failure
// memo), preemptions acted on (the victims deleted, the nominated pod
// placed later), and every pod the engine places bound, as the API server
// would confirm it. After every round the engine must answer probe pods as
// a fresh engine given the same cluster does (nodes, bound pods, the PDB,
// pending pods with their nominations), up to its random draws (Canonical),
// and its interner must hold no more strings than the fresh engines did at
// the cluster's peak: what the history left behind does not grow with it.
#include <cJSON.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace soak_test {
namespace {

using testing::CallAdvanceClock;
using testing::CallApply;
using testing::CallQueue;
using testing::CallResult;
using testing::CallRun;
using testing::CallSchedule;
using testing::EnginePtr;
using testing::EventJson;
using testing::Get;

const std::string kConfig = "{}";
constexpr int kRounds = 80;
// Under 100 nodes every cycle filters and scores every node, so the fresh
// engine's answers differ only by its draws.
constexpr size_t kMaxNodes = 40;

// What a pod asks for.
enum class Size {
  kSmall,  // 1 cpu
  kWeb,    // 500m, app=web (the PDB's selector), spread over hostnames
  kLarge,  // 3 cpu
  kHuge,   // 64 cpu: fits nowhere
};

struct PodRec {
  Size size = Size::kSmall;
  int priority = 0;
  std::string node;  // bound to it; empty while pending
  int born = 0;      // the round that created it
};

struct NodeRec {
  int cpu = 2;
  int zone = 0;
};

const std::string kHostnameSpread =
    R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"kubernetes.io/hostname",)"
    R"("whenUnsatisfiable":"ScheduleAnyway","labelSelector":{"matchLabels":{"app":"web"}}}],)";

std::string PodDoc(const std::string& name, const PodRec& p) {
  const char* cpu[] = {"1", "500m", "3", "64"};
  std::string extra = testing::PriorityJson(p.priority);
  if (p.size == Size::kWeb) extra += kHostnameSpread;
  const std::string pod = testing::PodJson(name, cpu[static_cast<int>(p.size)], p.node, extra);
  return p.size == Size::kWeb ? testing::WithLabels(pod, R"("app":"web")") : pod;
}

std::string NodeDoc(const std::string& name, const NodeRec& n) {
  return testing::NodeJson(name, std::to_string(n.cpu),
                           R"("kubernetes.io/hostname":")" + name + R"(","zone":"z)" +
                               std::to_string(n.zone) + "\"");
}

const std::string kPdb = testing::PdbJson("web-pdb", 1);

std::string Array(const std::vector<std::string>& items) {
  std::string doc = "[";
  for (size_t i = 0; i < items.size(); ++i) doc += (i ? "," : "") + items[i];
  return doc + "]";
}

// A schedule result with what depends on the engine's draws taken out:
// the nodes' verdicts and scores by node name (the walk starts at a
// rotating index); of the chosen node, that it has the best total (ties
// are drawn); of preemption, the victims' count and priorities (which
// pickOneNodeForPreemption compares before the draw decides).
std::string Canonical(const CallResult& r, const std::map<std::string, PodRec>& pods) {
  if (r.status != SCHED_OK) return "status " + std::to_string(r.status) + ": " + r.message;
  JsonDoc doc(cJSON_Parse(r.output.c_str()));
  const cJSON* d = doc.get();
  auto text = [](const cJSON* v) {
    return cJSON_IsString(v) ? std::string(v->valuestring) : std::string("null");
  };
  auto number = [](const cJSON* v) { return std::to_string(static_cast<int64_t>(v->valuedouble)); };
  std::string out = text(Get(d, "reason")) + ": " + text(Get(d, "message")) + "; nodes " +
                    number(Get(d, "numAllNodes")) + ", evaluated " +
                    number(Get(d, "evaluatedNodes")) + ", feasible " +
                    number(Get(d, "feasibleNodes")) + "\n";
  std::map<std::string, std::string> verdicts;
  const cJSON* v;
  cJSON_ArrayForEach(v, Get(d, "nodeStatuses")) {
    std::string& line = verdicts[text(Get(v, "node"))];
    line = text(Get(v, "code")) + " " + text(Get(v, "plugin"));
    const cJSON* reason;
    cJSON_ArrayForEach(reason, Get(v, "reasons")) line += "; " + text(reason);
  }
  for (const auto& [node, line] : verdicts) out += node + ": " + line + "\n";
  const cJSON* scores = Get(d, "scores");
  std::map<std::string, int64_t> totals;
  cJSON_ArrayForEach(v, Get(scores, "plugins")) out += text(v) + " ";
  std::map<std::string, std::string> rows;
  cJSON_ArrayForEach(v, Get(scores, "nodes")) {
    const std::string node = text(Get(v, "node"));
    totals[node] = static_cast<int64_t>(Get(v, "totalScore")->valuedouble);
    std::string& row = rows[node];
    row = number(Get(v, "totalScore")) + " =";
    const cJSON* s;
    cJSON_ArrayForEach(s, Get(v, "scores")) row += " " + number(s);
  }
  out += "\n";
  for (const auto& [node, row] : rows) out += node + ": " + row + "\n";
  const std::string chosen = text(Get(d, "node"));
  if (totals.empty() || chosen == "null") {
    out += "chosen: " + chosen + "\n";
  } else {
    int64_t best = INT64_MIN;
    for (const auto& [node, total] : totals) best = std::max(best, total);
    out += totals.at(chosen) == best ? "chosen: a best node\n" : "chosen: " + chosen + "\n";
  }
  if (const cJSON* victims = Get(d, "victims")) {
    int count = 0;
    int64_t sum = 0;
    int top = INT32_MIN;
    cJSON_ArrayForEach(v, victims) {
      const int priority = pods.at(text(Get(v, "name"))).priority;
      ++count;
      sum += priority;
      top = std::max(top, priority);
    }
    out += "victims: " + std::to_string(count) + ", priorities " + std::to_string(sum) +
           ", highest " + std::to_string(top) + "\n";
  }
  return out;
}

struct Interned {
  int64_t strings = 0;
  int64_t released = 0;
};

Interned InternerOf(sched_engine* e) {
  char* out = nullptr;
  EXPECT_EQ(sched_engine_stats(e, &out, nullptr), SCHED_OK);
  JsonDoc doc(cJSON_Parse(out));
  sched_free(out);
  const cJSON* in = Get(doc.get(), "interner");
  return {static_cast<int64_t>(Get(in, "strings")->valuedouble),
          static_cast<int64_t>(Get(in, "released")->valuedouble)};
}

EnginePtr NewEngine() {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new(kConfig.data(), kConfig.size(), &e, nullptr), SCHED_OK);
  return EnginePtr(e);
}

// The probes, scheduled (not assumed) on both engines: one that fits, one
// spread, one that fits nowhere, and two that preempt when nodes are full
// (the lower one yields to the nominated higher ones).
const std::vector<std::pair<std::string, PodRec>> kProbes = {
    {"probe-small", {Size::kSmall, 0, "", 0}},  {"probe-web", {Size::kWeb, 0, "", 0}},
    {"probe-huge", {Size::kHuge, 0, "", 0}},    {"probe-high", {Size::kLarge, 1000, "", 0}},
    {"probe-mid", {Size::kLarge, 15, "", 0}},
};
constexpr uint32_t kProbeFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

// The cluster as the API server holds it, the engine beside it, and what
// the churn did so far.
class Soak {
 public:
  Soak() : engine_(NewEngine()) { Apply({EventJson("ADDED", kPdb)}); }

  void Round(int round);
  // The engine against a fresh one given the same cluster.
  void Check(int round);

  int far_falls = 0;
  int preemptions = 0;
  int placed_after_failing = 0;
  sched_engine* engine() { return engine_.get(); }

 private:
  void Apply(const std::vector<std::string>& events);
  void AddNode(std::vector<std::string>* events);
  // Its pods deleted first, as the API server's garbage collector does.
  // `name` by value: callers pass a key of nodes_, which this erases.
  void RemoveNode(std::string name, std::vector<std::string>* events);
  void AddPod(Size size, int priority, int round, std::vector<std::string>* events);
  // Runs the queue, binds the pods placed and deletes preemption's victims.
  void RunAndAct();
  int Draw(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }

  std::mt19937 rng_{20261129};
  EnginePtr engine_;
  std::map<std::string, NodeRec> nodes_;
  // The engine's node indexes, mirrored: the lowest free one is taken
  // (ClusterState), so removing the nodes at the top makes the bound fall.
  std::vector<std::string> slots_;  // "" free
  std::map<std::string, PodRec> pods_;
  std::set<std::string> failed_;  // pending pods whose cycle failed
  int names_ = 0;
  int64_t peak_strings_ = 0;  // the fresh engines' most
};

void Soak::Apply(const std::vector<std::string>& events) {
  if (events.empty()) return;
  const CallResult r = CallApply(engine_.get(), Array(events));
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
}

void Soak::AddNode(std::vector<std::string>* events) {
  const std::string name = "node-" + std::to_string(names_++);
  // Mostly too small for a large pod: those preempt on the others.
  const NodeRec n{Draw(3) == 0 ? 4 : 2, Draw(3)};
  nodes_[name] = n;
  const auto free = std::find(slots_.begin(), slots_.end(), "");
  if (free != slots_.end()) {
    *free = name;
  } else {
    slots_.push_back(name);
  }
  events->push_back(EventJson("ADDED", NodeDoc(name, n)));
}

void Soak::RemoveNode(std::string name, std::vector<std::string>* events) {
  for (auto it = pods_.begin(); it != pods_.end();) {
    if (it->second.node != name) {
      ++it;
      continue;
    }
    events->push_back(EventJson("DELETED", PodDoc(it->first, it->second)));
    it = pods_.erase(it);
  }
  events->push_back(EventJson("DELETED", NodeDoc(name, nodes_.at(name))));
  nodes_.erase(name);
  *std::find(slots_.begin(), slots_.end(), name) = "";
  while (!slots_.empty() && slots_.back().empty()) slots_.pop_back();
}

void Soak::AddPod(Size size, int priority, int round, std::vector<std::string>* events) {
  const std::string name = "pod-" + std::to_string(names_++);
  const PodRec p{size, priority, "", round};
  pods_[name] = p;
  events->push_back(EventJson("ADDED", PodDoc(name, p)));
}

void Soak::RunAndAct() {
  const CallResult run = CallRun(engine_.get(), 0, 0);
  ASSERT_EQ(run.status, SCHED_OK) << run.message;
  JsonDoc doc(cJSON_Parse(run.output.c_str()));
  std::vector<std::string> events;
  std::set<std::string> evicted;
  const cJSON* result;
  cJSON_ArrayForEach(result, Get(doc.get(), "results")) {
    const std::string name = std::string(Get(result, "pod")->valuestring).substr(3);  // "ns/"
    PodRec& p = pods_.at(name);
    const cJSON* node = Get(result, "node");
    if (cJSON_IsString(node)) {
      p.node = node->valuestring;
      events.push_back(EventJson("MODIFIED", PodDoc(name, p)));
      placed_after_failing += static_cast<int>(failed_.erase(name));
      continue;
    }
    failed_.insert(name);
    const cJSON* victims = Get(result, "victims");
    if (victims != nullptr) ++preemptions;
    const cJSON* v;
    cJSON_ArrayForEach(v, victims) {
      const std::string victim = Get(v, "name")->valuestring;
      if (evicted.insert(victim).second) {
        events.push_back(EventJson("DELETED", PodDoc(victim, pods_.at(victim))));
      }
    }
  }
  for (const std::string& victim : evicted) pods_.erase(victim);
  Apply(events);
}

void Soak::Round(int round) {
  std::vector<std::string> events;
  if (round % 10 == 9 && slots_.size() >= 8) {
    // Scale down far: the nodes at the lowest indexes stay.
    ++far_falls;
    const std::vector<std::string> top(slots_.begin() + 2 + Draw(3), slots_.end());
    for (const std::string& name : top) {
      if (!name.empty()) RemoveNode(name, &events);
    }
  } else if (round % 10 < 4) {
    for (int n = 3 + Draw(6); n > 0 && nodes_.size() < kMaxNodes; --n) AddNode(&events);
  } else {
    if (nodes_.size() > 3) {
      auto it = nodes_.begin();
      std::advance(it, Draw(static_cast<int>(nodes_.size())));
      RemoveNode(it->first, &events);
    }
    for (int n = 1 + Draw(2); n > 0 && nodes_.size() < kMaxNodes; --n) AddNode(&events);
  }
  // Bound pods deleted; pending ones whose owner gave up.
  for (auto it = pods_.begin(); it != pods_.end();) {
    const PodRec& p = it->second;
    const bool gone = p.node.empty() ? p.born + 8 <= round : Draw(10) == 0;
    if (!gone) {
      ++it;
      continue;
    }
    events.push_back(EventJson("DELETED", PodDoc(it->first, p)));
    failed_.erase(it->first);
    it = pods_.erase(it);
  }
  for (int n = 3 + Draw(5); n > 0; --n) AddPod(Size::kSmall, 10 * Draw(3), round, &events);
  for (int n = Draw(3); n > 0; --n) AddPod(Size::kWeb, 0, round, &events);
  if (round % 5 == 0) {
    for (int n = 0; n < 2; ++n) AddPod(Size::kHuge, 0, round, &events);  // one class
  }
  if (Draw(2) == 0) AddPod(Size::kLarge, 1000, round, &events);
  Apply(events);
  RunAndAct();
  // Past the backoff, and now and then past the 5 minutes after which
  // unschedulable pods are retried anyway.
  ASSERT_EQ(CallAdvanceClock(engine_.get(), round % 4 == 3 ? 301'000 : 11'000).status, SCHED_OK);
  RunAndAct();
}

void Soak::Check(int round) {
  // The nominations the engine holds, as the API server would have them
  // once the scheduler wrote them back.
  std::map<std::string, std::string> nominated;
  const CallResult queue = CallQueue(engine_.get());
  ASSERT_EQ(queue.status, SCHED_OK);
  JsonDoc doc(cJSON_Parse(queue.output.c_str()));
  const cJSON* q;
  cJSON_ArrayForEach(q, Get(doc.get(), "pods")) {
    if (const cJSON* node = Get(q, "nominatedNodeName")) {
      nominated[std::string(Get(q, "pod")->valuestring).substr(3)] = node->valuestring;
    }
  }
  std::vector<std::string> events = {EventJson("ADDED", kPdb)};
  for (const std::string& name : slots_) {
    if (!name.empty()) events.push_back(EventJson("ADDED", NodeDoc(name, nodes_.at(name))));
  }
  for (const auto& [name, p] : pods_) {
    const auto it = nominated.find(name);
    const std::string pod = PodDoc(name, p);
    events.push_back(EventJson(
        "ADDED", it == nominated.end() ? pod : testing::WithNominatedNode(pod, it->second)));
  }
  EnginePtr fresh = NewEngine();
  const CallResult applied = CallApply(fresh.get(), Array(events));
  ASSERT_EQ(applied.status, SCHED_OK) << applied.message;
  for (const auto& [name, p] : kProbes) {
    const std::string pod = PodDoc(name, p);
    EXPECT_EQ(Canonical(CallSchedule(engine_.get(), pod, kProbeFlags), pods_),
              Canonical(CallSchedule(fresh.get(), pod, kProbeFlags), pods_))
        << "round " << round << ", " << name;
  }
  const Interned soak = InternerOf(engine_.get());
  const Interned clean = InternerOf(fresh.get());
  peak_strings_ = std::max(peak_strings_, clean.strings);
  // Not the same cluster's count, but never past its peak: nothing keeps
  // the strings of gone objects (NominatedPodsByNode once kept the Nodes
  // of names once nominated, 17 strings past the peak in 400 rounds).
  EXPECT_LE(soak.strings, peak_strings_) << "round " << round;
  // Released strings are freed in batches (interner.h: 4096, or a quarter
  // of the held ones), so at most a batch and a round's wait.
  EXPECT_LE(soak.released, std::max<int64_t>(4096, soak.strings / 4) + peak_strings_)
      << "round " << round;
}

TEST(SoakTest, WeeksOfChurnAgreeWithAFreshEngine) {
  Soak soak;
  for (int round = 0; round < kRounds; ++round) {
    soak.Round(round);
    soak.Check(round);
    if (::testing::Test::HasFailure()) break;  // the first round that disagrees
  }
  // The history took the paths it is about.
  std::printf("far falls %d, preemptions %d, placed after failing %d\n", soak.far_falls,
              soak.preemptions, soak.placed_after_failing);
  EXPECT_GE(soak.far_falls, 5);
  EXPECT_GE(soak.preemptions, 10);
  EXPECT_GE(soak.placed_after_failing, 10);
  char* out = nullptr;
  ASSERT_EQ(sched_engine_stats(soak.engine(), &out, nullptr), SCHED_OK);
  JsonDoc stats(cJSON_Parse(out));
  sched_free(out);
  const cJSON* cache = Get(stats.get(), "equivalenceCache");
  EXPECT_GT(Get(cache, "hits")->valuedouble, 0);
  EXPECT_GT(Get(cache, "parked")->valuedouble, 0);  // the failure memo replayed
}

}  // namespace
}  // namespace soak_test
}  // namespace sched::capi

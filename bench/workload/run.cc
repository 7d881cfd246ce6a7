#include "run.h"

#include <cjson/cJSON.h>
#include <sched/sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

double Millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// User plus system CPU time of the process so far, in seconds.
double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

struct JsonDeleter {
  void operator()(cJSON* j) const { cJSON_Delete(j); }
};
using JsonPtr = std::unique_ptr<cJSON, JsonDeleter>;

[[noreturn]] void Fail(const char* call, sched_error* err) {
  std::string msg =
      std::string(call) + ": " + sched_error_message(err) + " at " + sched_error_path(err);
  sched_error_free(err);
  throw RunError(msg);
}

std::string StringMember(const cJSON* obj, const char* key) {
  cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

class Driver {
 public:
  Driver(Outcome* out, const std::string& config) : out_(out) {
    sched_error* err = nullptr;
    if (sched_engine_new(config.data(), config.size(), &engine_, &err) != SCHED_OK) {
      Fail("sched_engine_new", err);
    }
  }
  ~Driver() { sched_engine_free(engine_); }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  void Apply(const std::string& json) {
    sched_error* err = nullptr;
    if (sched_engine_apply(engine_, json.data(), json.size(), nullptr, &err) != SCHED_OK) {
      Fail("sched_engine_apply", err);
    }
  }

  // Upserts `objects` as one List, built in one allocation: the driver's
  // own copies count in the measured time (bench/RESULTS.md, round
  // twenty-one).
  void ApplyList(const std::vector<std::string>& objects) {
    constexpr std::string_view kHead = R"({"kind":"List","items":[)";
    size_t size = kHead.size() + objects.size() + 2;
    for (const std::string& o : objects) size += o.size();
    std::string list;
    list.reserve(size);
    list += kHead;
    for (size_t i = 0; i < objects.size(); ++i) {
      if (i > 0) list += ',';
      list += objects[i];
    }
    list += "]}";
    Apply(list);
  }

  // Submits `batch` and runs cycles until every pod of it is placed or the
  // queue has nothing left to try; returns how many are left. `measured`
  // counts its attempts and creates churn.
  int RunBatch(const PodBatch& batch, const std::optional<Churn>& churn, bool measured) {
    Clock::time_point next_churn = Clock::now();
    int churn_ticks = 0;
    std::vector<std::string> objects = batch.objects;
    objects.insert(objects.end(), batch.pods.begin(), batch.pods.end());
    ApplyList(objects);
    std::set<std::string> pending(batch.names.begin(), batch.names.end());
    int idle_rounds = 0;
    while (!pending.empty()) {
      if (measured && churn && Clock::now() >= next_churn) {
        ApplyChurn(ChurnTick(*churn, churn_ticks++));
        next_churn += std::chrono::milliseconds(churn->interval_ms);
      }
      Clock::time_point t0 = Clock::now();
      JsonPtr results = RunOne();
      double ms = Millis(Clock::now() - t0);
      if (cJSON_GetArraySize(results.get()) == 0) {
        // Only pods waiting for an event are left: let the queue's
        // unschedulable timeout (5 min) pass, a few times at most.
        if (++idle_rounds > 3) break;
        Advance(5 * 60 * 1000 + 1);
        continue;
      }
      const cJSON* r;
      cJSON_ArrayForEach(r, results.get()) {
        std::string pod = StringMember(r, "pod");
        bool mine = pending.count(pod) > 0;
        if (measured && mine) {
          ++out_->attempts;
          out_->attempt_ms.push_back(ms);
        }
        std::string node = StringMember(r, "node");
        if (!node.empty()) {
          Place(pod, node);
          if (mine) pending.erase(pod);
        } else if (cJSON* victims = cJSON_GetObjectItemCaseSensitive(r, "victims");
                   cJSON_GetArraySize(victims) > 0) {
          Evict(victims);
        }
      }
    }
    return static_cast<int>(pending.size());
  }

  // The rounds of plan.rollover (plan.h); returns the pods left unplaced.
  // `node_names` and `spare_names`: the names of plan.nodes and of the
  // rollover's spare nodes, read before the clock started.
  int RunRollover(const Plan& plan, const std::vector<std::string>& node_names,
                  const std::vector<std::string>& spare_names) {
    const Rollover& r = *plan.rollover;
    std::deque<const PodBatch*> live;
    for (const PodBatch& b : plan.init) live.push_back(&b);
    // Each live node's JSON and name.
    std::deque<std::pair<const std::string*, const std::string*>> nodes;
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
      nodes.emplace_back(&plan.nodes[i], &node_names[i]);
    }
    size_t spare = 0;
    int left = 0;
    for (const PodBatch& round : r.rounds) {
      left += RunBatch(round, std::nullopt, true);
      live.push_back(&round);
      std::string events = "[";
      for (const std::string& name : live.front()->names) AddPodDeletion(name, &events);
      for (const std::string& obj : live.front()->objects) AddEvent("DELETED", obj, &events);
      live.pop_front();
      // Each node drained this round (the first nodes of `nodes`) and its
      // pods, in name order (pods_on_): the driver's own time counts in the
      // measured CPU time, so no pass over every placement.
      const size_t drained =
          std::min(static_cast<size_t>(std::max(r.replace_nodes, 0)), r.spare_nodes.size() - spare);
      for (size_t i = 0; i < drained; ++i) {
        if (auto it = pods_on_.find(*nodes.front().second); it != pods_on_.end()) {
          for (const std::string& pod : it->second) AddPodDeletion(pod, &events);
        }
        AddEvent("DELETED", *nodes.front().first, &events);
        nodes.pop_front();
        nodes.emplace_back(&r.spare_nodes[spare], &spare_names[spare]);
        ++spare;
        AddEvent("ADDED", *nodes.back().first, &events);
      }
      events += ']';
      Apply(events);
      for (const std::string& e : deleted_) Unplace(e);
      deleted_.clear();
    }
    return left;
  }

 private:
  // Records the pod "ns/name" bound to `node` (placements and pods_on_).
  void Place(const std::string& pod, const std::string& node) {
    std::string& on = out_->placements[pod];
    if (!on.empty()) pods_on_[on].erase(pod);
    on = node;
    pods_on_[node].insert(pod);
  }

  // Forgets the pod "ns/name", if placed.
  void Unplace(const std::string& pod) {
    auto it = out_->placements.find(pod);
    if (it == out_->placements.end()) return;
    auto on = pods_on_.find(it->second);
    on->second.erase(pod);
    if (on->second.empty()) pods_on_.erase(on);
    out_->placements.erase(it);
  }

  // Appends a DELETED event of the pod "ns/name" (uid as plan.cc makes it).
  void AddPodDeletion(const std::string& pod, std::string* events) {
    const size_t slash = pod.find('/');
    const std::string_view ns = std::string_view(pod).substr(0, slash);
    const std::string_view name = std::string_view(pod).substr(slash + 1);
    if (events->size() > 1) *events += ',';
    *events += R"({"type":"DELETED","object":{"apiVersion":"v1","kind":"Pod",)";
    *events += R"("metadata":{"namespace":")";
    (*events += ns) += R"(","name":")";
    (*events += name) += R"(","uid":")";
    ((*events += ns) += '.') += name;
    *events += "\"}}}";
    deleted_.push_back(pod);
  }

  // Applies one churn tick's creations and deletions as watch events.
  void ApplyChurn(const std::vector<ChurnEvent>& tick) {
    std::string events = "[";
    for (const ChurnEvent& e : tick) {
      if (e.deleted) {
        AddEvent("DELETED", e.object, &events);
        if (e.kind == "Pod") Unplace(e.name);
        continue;
      }
      AddEvent("ADDED", e.object, &events);
      if (e.kind == "Pod") ++out_->churn_pods;
    }
    events += ']';
    Apply(events);
  }

  // Appends the watch event {"type":type,"object":object} to the array
  // `events` (its '[' written), without a temporary copy of the object.
  static void AddEvent(std::string_view type, const std::string& object, std::string* events) {
    if (events->size() > 1) *events += ',';
    (*events += R"({"type":")") += type;
    ((*events += R"(","object":)") += object) += '}';
  }

  JsonPtr RunOne() {
    char* json = nullptr;
    sched_error* err = nullptr;
    if (sched_engine_run(engine_, 1, 0, &json, &err) != SCHED_OK) Fail("sched_engine_run", err);
    JsonPtr doc(cJSON_Parse(json));
    sched_free(json);
    cJSON* results = cJSON_DetachItemFromObjectCaseSensitive(doc.get(), "results");
    if (results == nullptr) throw RunError("sched_engine_run: no results");
    return JsonPtr(results);
  }

  void Advance(uint64_t millis) {
    sched_error* err = nullptr;
    if (sched_engine_advance_clock(engine_, millis, &err) != SCHED_OK) {
      Fail("sched_engine_advance_clock", err);
    }
  }

  // Deletes the victims, as the preemption executor does through the API.
  void Evict(const cJSON* victims) {
    ++out_->preemptions;
    std::string events = "[";
    const cJSON* v;
    cJSON_ArrayForEach(v, victims) {
      std::string ns = StringMember(v, "namespace"), name = StringMember(v, "name");
      if (events.size() > 1) events += ',';
      events +=
          R"({"type":"DELETED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"namespace":")" +
          ns + R"(","name":")" + name + R"(","uid":")" + StringMember(v, "uid") + "\"}}}";
      Unplace(ns + "/" + name);
    }
    Apply(events + "]");
  }

  Outcome* out_;
  sched_engine* engine_ = nullptr;
  std::vector<std::string> deleted_;  // pods deleted by the events being built
  // The placed pods ("ns/name", in name order as placements) by node.
  std::unordered_map<std::string, std::set<std::string>> pods_on_;
};

// The metadata.name of each Node JSON.
std::vector<std::string> NodeNames(const std::vector<std::string>& nodes) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const std::string& json : nodes) {
    JsonPtr node(cJSON_Parse(json.c_str()));
    names.push_back(StringMember(cJSON_GetObjectItemCaseSensitive(node.get(), "metadata"), "name"));
  }
  return names;
}

}  // namespace

Outcome RunPlan(const Plan& plan, const std::string& config) {
  Outcome out;
  Driver driver(&out, config);
  driver.ApplyList(plan.nodes);
  if (!plan.namespaces.empty()) driver.ApplyList(plan.namespaces);
  for (const PodBatch& batch : plan.init) driver.RunBatch(batch, std::nullopt, false);
  std::vector<std::string> node_names, spare_names;
  if (plan.rollover) {
    node_names = NodeNames(plan.nodes);
    spare_names = NodeNames(plan.rollover->spare_nodes);
  }
  Clock::time_point start = Clock::now();
  double cpu_start = CpuSeconds();
  int left = plan.rollover ? driver.RunRollover(plan, node_names, spare_names)
                           : driver.RunBatch(plan.measured, plan.churn, true);
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  out.cpu_seconds = CpuSeconds() - cpu_start;
  out.scheduled = static_cast<int>(plan.measured.names.size()) - left;
  out.unscheduled = left;
  return out;
}

}  // namespace bench

#include "sim.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <iostream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "progress.h"

namespace schedsim {
namespace {

// kube-scheduler's podMaxInUnschedulablePodsDuration: unschedulable pods
// are retried after it even without an event. One more second, so the
// queue's whole-second windows have surely passed.
constexpr int64_t kUnschedulableRetryMillis = 5 * 60 * 1000 + 1000;
constexpr int64_t kSecondMillis = 1000;

std::string Str(const cJSON* v) { return cJSON_IsString(v) ? v->valuestring : ""; }

int64_t Millis(const cJSON* v) { return static_cast<int64_t>(cJSON_GetNumberValue(v)); }

// "namespace/name" of what has "namespace" and "name", as the engine keys pods.
std::string Key(const cJSON* named) {
  std::string ns = Str(Member(named, "namespace"));
  return (ns.empty() ? "default" : ns) + "/" + Str(Member(named, "name"));
}

// Maps "items[N].rest" of the applied List back to object N's place in the input.
Loc LocateItem(const std::vector<Loc>& items, const std::string& path) {
  constexpr std::string_view kItems = "items[";
  size_t n = 0;
  if (path.starts_with(kItems)) {
    const char* end = path.data() + path.size();
    auto [p, ec] = std::from_chars(path.data() + kItems.size(), end, n);
    if (ec == std::errc() && p != end && *p == ']' && n < items.size()) {
      std::string_view rest(p + 1, static_cast<size_t>(end - p - 1));
      if (rest.starts_with('.')) rest.remove_prefix(1);
      return items[n].Append(std::string(rest));
    }
  }
  return Loc{"the cluster", 0, path};
}

// What the queue holds after a run, as far as the loop cares.
struct QueueState {
  int64_t now = 0;
  bool active = false;
  std::optional<int64_t> first_backoff_end;   // earliest backoffExpiresAtMillis
  std::optional<int64_t> last_unschedulable;  // latest queuedAtMillis of an ungated pod
};

QueueState ReadQueue(const cJSON* q) {
  QueueState s;
  s.now = Millis(Member(q, "nowMillis"));
  const cJSON* pods = Member(q, "pods");
  for (const cJSON* p = pods != nullptr ? pods->child : nullptr; p != nullptr; p = p->next) {
    std::string where = Str(Member(p, "queue"));
    if (where == "Active") {
      s.active = true;
    } else if (where == "Backoff") {
      int64_t end = Millis(Member(p, "backoffExpiresAtMillis"));
      s.first_backoff_end = std::min(s.first_backoff_end.value_or(end), end);
    } else if (where == "Unschedulable" && Member(p, "gatingPlugin") == nullptr) {
      int64_t at = Millis(Member(p, "queuedAtMillis"));
      s.last_unschedulable = std::max(s.last_unschedulable.value_or(at), at);
    }
  }
  return s;
}

// Upstream's message for a pod a PreEnqueue gate holds back
// (schedulinggates/scheduling_gates.go): the gate names as Go prints a slice.
std::string GatedMessage(const cJSON* pod) {
  std::string names;
  const cJSON* gates = Member(Member(pod, "spec"), "schedulingGates");
  for (const cJSON* g = gates != nullptr ? gates->child : nullptr; g != nullptr; g = g->next) {
    names += (names.empty() ? "" : " ") + Str(Member(g, "name"));
  }
  if (names.empty()) return "";
  return "waiting for scheduling gates: [" + names + "]";
}

class Simulation {
 public:
  Simulation(const Cluster& c, const SimOptions& o)
      : c_(c), o_(o), engine_(o.config, o.config_file, o.seed), progress_(c.pending.size()) {
    for (const InputObject& obj : c.resident) {
      if (obj.kind == "Pod") pods_[Key(Member(obj.json, "metadata"))] = obj.json;
    }
    for (const PendingPod& p : c.pending) pods_[p.key] = p.json;
  }

  SimResult Run() {
    r_.ignored = Load();
    r_.other_schedulers = c_.other_schedulers;
    auto start = std::chrono::steady_clock::now();
    Loop();
    Finish();
    r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(r_);
  }

 private:
  // Loads nodes, bound pods, other objects and the pending pods (which join
  // the queue) in one call; returns the engine's counts of ignored kinds.
  JsonPtr Load() {
    JsonPtr list(cJSON_CreateObject());
    cJSON_AddStringToObject(list.get(), "apiVersion", "v1");
    cJSON_AddStringToObject(list.get(), "kind", "List");
    cJSON* items = cJSON_AddArrayToObject(list.get(), "items");
    std::vector<Loc> locs;
    for (const InputObject& o : c_.resident) {
      cJSON_AddItemReferenceToArray(items, o.json);
      locs.push_back(o.loc);
    }
    for (const PendingPod& p : c_.pending) {
      cJSON_AddItemReferenceToArray(items, p.json);
      locs.push_back(p.loc);
    }
    JsonPtr summary = engine_.Apply(
        Print(list.get()), [&](const std::string& path) { return LocateItem(locs, path); });
    cJSON* ignored = cJSON_DetachItemFromObjectCaseSensitive(summary.get(), "ignored");
    return JsonPtr(cJSON_IsObject(ignored) ? ignored : cJSON_CreateObject());
  }

  // Runs the queue dry; moves the clock to the next backoff expiry while
  // pods back off; when only unschedulable pods are left and the pass since
  // the last such retry placed or evicted something, moves it past the
  // 5-minute retry, else stops.
  void Loop() {
    const uint64_t budget = kMinCycleBudget + kMaxCyclesPerPod * c_.pending.size();
    bool progress = false;
    for (;;) {
      progress |= RunCycles();
      if (cycles_ > budget) {
        std::cerr << "schedsim: warning: stopped after " << cycles_
                  << " scheduling cycles; the outcome may be incomplete\n";
        return;
      }
      QueueState q = ReadQueue(engine_.Queue().get());
      if (q.active) continue;  // evictions moved pods
      if (q.first_backoff_end) {
        // Backoff ends once the clock's whole second has passed its expiry.
        engine_.AdvanceClock(static_cast<uint64_t>(
            std::max(*q.first_backoff_end + kSecondMillis - q.now, kSecondMillis)));
        continue;
      }
      if (!q.last_unschedulable || !progress) return;
      progress = false;
      engine_.AdvanceClock(static_cast<uint64_t>(
          std::max(*q.last_unschedulable + kUnschedulableRetryMillis - q.now, kSecondMillis)));
    }
  }

  // One sched_engine_run and the evictions its preemptions call for;
  // whether anything was placed or evicted.
  bool RunCycles() {
    uint32_t flags = o_.explain.empty() ? 0 : SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;
    JsonPtr results = engine_.Run(flags);
    bool progress = false;
    std::vector<std::string> victims;
    for (const cJSON* res = results->child; res != nullptr; res = res->next) {
      ++cycles_;
      std::string key = Str(Member(res, "pod"));
      Outcome& oc = OutcomeFor(key);
      oc.node = Str(Member(res, "node"));
      oc.message = oc.node.empty() ? Str(Member(res, "message")) : "";
      progress |= !oc.node.empty();
      if (key == o_.explain) r_.explain.reset(cJSON_Duplicate(res, true));
      if (const cJSON* nominated = Member(res, "nominatedNodeName")) {
        Preemption& p = r_.preemptions.emplace_back(Preemption{key, Str(nominated), {}});
        const cJSON* vs = Member(res, "victims");
        for (const cJSON* v = vs != nullptr ? vs->child : nullptr; v != nullptr; v = v->next) {
          p.victims.push_back(Key(v));  // {"namespace","name","uid"}
        }
        victims.insert(victims.end(), p.victims.begin(), p.victims.end());
      }
      progress_.Update(outcomes_.size());
    }
    if (!victims.empty()) Evict(victims);
    return progress || !victims.empty();
  }

  // Deletes the victims as the API server would report it: DELETED events
  // carrying the objects the simulation applied.
  void Evict(const std::vector<std::string>& victims) {
    JsonPtr events(cJSON_CreateArray());
    for (const std::string& key : victims) {
      auto it = pods_.find(key);
      if (it == pods_.end()) {
        throw EngineError("preemption victim " + key + " is no pod of the input");
      }
      cJSON* e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "type", "DELETED");
      cJSON_AddItemReferenceToObject(e, "object", it->second);
      cJSON_AddItemToArray(events.get(), e);
      evicted_.insert(key);
    }
    engine_.Apply(Print(events.get()), [](const std::string& path) {
      return Loc{"eviction", 0, path};
    });
  }

  Outcome& OutcomeFor(const std::string& key) {
    auto [it, inserted] = index_.try_emplace(key, outcomes_.size());
    if (inserted) outcomes_.push_back(Outcome{key, "", ""});
    return outcomes_[it->second];
  }

  // Pods that never had a cycle get the reason; evicted pods are gone.
  void Finish() {
    for (const PendingPod& p : c_.pending) {
      if (index_.contains(p.key)) continue;
      std::string message = GatedMessage(p.json);
      if (message.empty()) message = "not scheduled: the engine's queue never offered it";
      OutcomeFor(p.key).message = message;
    }
    for (Outcome& oc : outcomes_) {
      if (!evicted_.contains(oc.pod)) r_.outcomes.push_back(std::move(oc));
    }
  }

  const Cluster& c_;
  const SimOptions& o_;
  SimEngine engine_;
  Progress progress_;
  SimResult r_;
  std::unordered_map<std::string, cJSON*> pods_;   // every pod applied, by key
  std::vector<Outcome> outcomes_;                  // by first cycle
  std::unordered_map<std::string, size_t> index_;  // outcomes_ index by pod key
  std::unordered_set<std::string> evicted_;
  uint64_t cycles_ = 0;
};

}  // namespace

SimResult Simulate(const Cluster& c, const SimOptions& o) {
  auto explained = [&](const PendingPod& p) { return p.key == o.explain; };
  if (!o.explain.empty() && std::none_of(c.pending.begin(), c.pending.end(), explained)) {
    throw InputError("--explain: no pending pod " + o.explain + " in the input");
  }
  return Simulation(c, o).Run();
}

}  // namespace schedsim

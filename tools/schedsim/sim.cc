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
  uint64_t active_count = 0;
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
      ++s.active_count;
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
  Simulation(const Cluster& c, const SimOptions& o, const volatile std::sig_atomic_t* stop)
      : c_(c),
        o_(o),
        stop_(stop),
        engine_(o.config, o.config_file, o.seed),
        progress_(c.pending.size(), o.progress) {
    for (const InputObject& obj : c.resident) {
      if (obj.kind == "Pod") {
        pods_[Key(Member(obj.json, "metadata"))] = obj.json;
        ++r_.bound_pods;
      }
      r_.nodes += obj.kind == "Node";
    }
    r_.explain.resize(o.explain.size());
    for (const PendingPod& p : c.pending) pods_[p.key] = p.json;
  }

  SimResult Run() {
    r_.ignored.reset(cJSON_CreateObject());
    r_.other_schedulers = c_.other_schedulers;
    std::vector<Item> first, rest;
    for (const InputObject& o : c_.resident) first.push_back({o.json, &o.loc});
    const PendingPod* held = nullptr;  // `schedsim explain`'s pod
    for (const PendingPod& p : c_.pending) {
      if (p.key == o_.explain_after) {
        held = &p;
        continue;
      }
      (p.daemon ? first : rest).push_back({p.json, &p.loc});
    }
    const bool daemons = first.size() > c_.resident.size();
    Send(first);
    // Before: the bound pods (the daemon pods just sent are pending).
    JsonPtr before = engine_.Nodes();
    auto start = std::chrono::steady_clock::now();
    // The DaemonSet controller's pods are on their nodes before the others
    // compete for room.
    if (daemons) Loop();
    if (!Stopped()) {
      Send(rest);
      Loop();
    }
    std::string scale_up;  // the request, built before Finish moves outcomes_
    if (!o_.scale_up_templates.empty() && !Stopped()) scale_up = ScaleUpRequest();
    Finish(held);
    if (!scale_up.empty()) r_.explanation = engine_.ScaleUp(scale_up);
    if (held != nullptr && !Stopped()) {
      r_.explanation = o_.capacity ? engine_.Capacity(Print(held->json), o_.max_replicas)
                                   : engine_.Explain(Print(held->json));
    }
    if (!o_.drain_nodes.empty() && !Stopped()) r_.explanation = engine_.Drain(o_.drain_nodes);
    r_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    JsonPtr after = engine_.Nodes();
    const std::string label = ChoosePoolLabel(before.get(), o_.pool_label);
    r_.utilization = PoolUtilization(label, before.get(), after.get());
    return std::move(r_);
  }

 private:
  struct Item {
    const cJSON* json;
    const Loc* loc;
  };

  // Applies `items` as Lists of at most o_.batch_bytes bytes and
  // kBatchItems items each (the engine bounds one document), in order;
  // adds the engine's counts of ignored kinds to r_.ignored.
  void Send(const std::vector<Item>& items) {
    std::string doc;
    std::vector<Loc> locs;
    auto flush = [&] {
      if (locs.empty()) return;
      doc += "]}";
      JsonPtr summary =
          engine_.Apply(doc, [&](const std::string& path) { return LocateItem(locs, path); });
      AddCounts(r_.ignored.get(), Member(summary.get(), "ignored"));
      doc.clear();
      locs.clear();
    };
    for (const Item& item : items) {
      std::string text = Print(item.json);
      if (!locs.empty() &&
          (doc.size() + text.size() + 2 > o_.batch_bytes || locs.size() >= kBatchItems)) {
        flush();
      }
      doc += locs.empty() ? R"({"apiVersion":"v1","kind":"List","items":[)" : ",";
      doc += text;
      locs.push_back(*item.loc);
    }
    flush();
  }

  // Adds the {"Kind":N} counts of `from` to `to`.
  static void AddCounts(cJSON* to, const cJSON* from) {
    if (!cJSON_IsObject(from)) return;
    for (const cJSON* k = from->child; k != nullptr; k = k->next) {
      cJSON* have = cJSON_GetObjectItemCaseSensitive(to, k->string);
      if (have == nullptr) {
        cJSON_AddNumberToObject(to, k->string, cJSON_GetNumberValue(k));
      } else {
        cJSON_SetNumberValue(have, cJSON_GetNumberValue(have) + cJSON_GetNumberValue(k));
      }
    }
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
      if (Stopped()) return;
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

  bool Stopped() {
    if (stop_ == nullptr || *stop_ == 0) return false;
    r_.interrupted = true;
    return true;
  }

  // sched_engine_run until activeQ is empty, as one call with max_cycles
  // 0 would, but in slices so that the progress line moves and Ctrl-C is
  // seen: while activeQ holds A pods, a slice pops at most min(A, slice_)
  // (with max_cycles > 0 the engine would pop a pod still backing off once
  // activeQ is empty; popping no more than A never gets there); the last
  // call is max_cycles 0, which flushes the pods whose backoff ended and
  // drains the rest. Slices grow until one takes about kSliceSeconds, so
  // reading the queue between them costs little. Whether anything was
  // placed or evicted.
  bool RunCycles() {
    bool progress = false;
    for (;;) {
      const uint64_t active = ReadQueue(engine_.Queue().get()).active_count;
      const uint32_t max_cycles =
          active == 0 ? 0 : static_cast<uint32_t>(std::min<uint64_t>(active, slice_));
      auto start = std::chrono::steady_clock::now();
      progress |= RunSlice(max_cycles);
      if (std::chrono::steady_clock::now() - start < kSliceSeconds && slice_ < kMaxSlice) {
        slice_ *= 2;
      }
      progress_.Update(outcomes_.size());
      if (max_cycles == 0 || Stopped()) return progress;
    }
  }

  // One sched_engine_run of at most max_cycles cycles (0: until activeQ is
  // empty) and the evictions its preemptions call for.
  bool RunSlice(uint32_t max_cycles) {
    uint32_t flags = o_.explain.empty() ? 0 : SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;
    JsonPtr results = engine_.Run(max_cycles, flags);
    bool progress = false;
    std::vector<std::string> victims;
    for (const cJSON* res = results->child; res != nullptr; res = res->next) {
      ++cycles_;
      std::string key = Str(Member(res, "pod"));
      Outcome& oc = OutcomeFor(key);
      oc.node = Str(Member(res, "node"));
      oc.message = oc.node.empty() ? Str(Member(res, "message")) : "";
      progress |= !oc.node.empty();
      for (size_t i = 0; i < o_.explain.size(); ++i) {
        if (key == o_.explain[i]) r_.explain[i].reset(cJSON_Duplicate(res, true));
      }
      if (const cJSON* nominated = Member(res, "nominatedNodeName")) {
        Preemption& p = r_.preemptions.emplace_back(Preemption{key, Str(nominated), {}});
        const cJSON* vs = Member(res, "victims");
        for (const cJSON* v = vs != nullptr ? vs->child : nullptr; v != nullptr; v = v->next) {
          p.victims.push_back(Key(v));  // {"namespace","name","uid"}
        }
        victims.insert(victims.end(), p.victims.begin(), p.victims.end());
      }
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
  // The pods the run left pending (not evicted) and the templates, as a
  // sched_engine_scale_up request.
  std::string ScaleUpRequest() const {
    std::string req = R"({"pods":[)";
    bool first = true;
    for (const Outcome& oc : outcomes_) {
      if (!oc.node.empty() || evicted_.contains(oc.pod)) continue;
      req += (first ? "" : ",") + Print(pods_.at(oc.pod));
      first = false;
    }
    req += R"(],"nodeTemplates":[)";
    for (size_t i = 0; i < o_.scale_up_templates.size(); ++i) {
      req += (i ? "," : "") + std::string(R"({"maxNodes":)") + std::to_string(o_.max_nodes) +
             R"(,"node":)" + o_.scale_up_templates[i] + "}";
    }
    return req + "]}";
  }

  void Finish(const PendingPod* held) {
    for (const PendingPod& p : c_.pending) {
      if (index_.contains(p.key) || &p == held) continue;
      std::string message = GatedMessage(p.json);
      if (message.empty()) {
        message = r_.interrupted ? "not scheduled: interrupted before its turn"
                                 : "not scheduled: the engine's queue never offered it";
      }
      OutcomeFor(p.key).message = message;
    }
    for (Outcome& oc : outcomes_) {
      if (!evicted_.contains(oc.pod)) r_.outcomes.push_back(std::move(oc));
    }
  }

  const Cluster& c_;
  const SimOptions& o_;
  const volatile std::sig_atomic_t* stop_;
  SimEngine engine_;
  Progress progress_;
  SimResult r_;
  std::unordered_map<std::string, cJSON*> pods_;   // every pod applied, by key
  std::vector<Outcome> outcomes_;                  // by first cycle
  std::unordered_map<std::string, size_t> index_;  // outcomes_ index by pod key
  std::unordered_set<std::string> evicted_;
  uint64_t cycles_ = 0;
  uint32_t slice_ = kFirstSlice;  // cycles per sched_engine_run, grown by RunCycles
};

}  // namespace

SimResult Simulate(const Cluster& c, const SimOptions& o, const volatile std::sig_atomic_t* stop) {
  std::vector<std::string> keys = o.explain;
  if (!o.explain_after.empty()) keys.push_back(o.explain_after);
  for (const std::string& key : keys) {
    auto explained = [&](const PendingPod& p) { return p.key == key; };
    if (std::none_of(c.pending.begin(), c.pending.end(), explained)) {
      throw InputError((key != o.explain_after ? "--explain"
                        : o.capacity           ? "capacity"
                                               : "explain") +
                       std::string(": no pending pod ") + key + " in the input");
    }
  }
  return Simulation(c, o, stop).Run();
}

}  // namespace schedsim

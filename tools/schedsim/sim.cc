#include "sim.h"

#include <sched/sched.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <memory>
#include <string_view>

#include "progress.h"

namespace schedsim {
namespace {

struct EngineFree {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
struct ErrorFree {
  void operator()(sched_error* e) const { sched_error_free(e); }
};
using EnginePtr = std::unique_ptr<sched_engine, EngineFree>;
using ErrorPtr = std::unique_ptr<sched_error, ErrorFree>;

// A string the library returned.
struct LibString {
  char* p = nullptr;
  ~LibString() { sched_free(p); }
};

// Throws unless `st` is SCHED_OK. Invalid input becomes an InputError at
// the place `locate` finds for the engine's error path.
template <class Locate>
void Check(sched_status st, sched_error* raw, Locate&& locate) {
  ErrorPtr err(raw);
  if (st == SCHED_OK) return;
  std::string msg = err ? sched_error_message(err.get()) : sched_status_name(st);
  std::string path = err ? sched_error_path(err.get()) : "";
  if (st != SCHED_INVALID_ARGUMENT) {
    throw EngineError(std::string(sched_status_name(st)) + ": " + msg);
  }
  // The engine's message reads "<path>: <detail>"; the path is ours to place.
  if (!path.empty() && msg.starts_with(path + ": ")) msg.erase(0, path.size() + 2);
  throw InputError(locate(path), msg);
}

// Maps "items[N].rest" of the applied List back to object N's place in the input.
Loc LocateResident(const std::vector<InputObject>& resident, const std::string& path) {
  constexpr std::string_view kItems = "items[";
  size_t n = 0;
  if (path.starts_with(kItems)) {
    const char* end = path.data() + path.size();
    auto [p, ec] = std::from_chars(path.data() + kItems.size(), end, n);
    if (ec == std::errc() && p != end && *p == ']' && n < resident.size()) {
      std::string_view rest(p + 1, static_cast<size_t>(end - p - 1));
      if (rest.starts_with('.')) rest.remove_prefix(1);
      return resident[n].loc.Append(std::string(rest));
    }
  }
  return Loc{"the cluster", 0, path};
}

EnginePtr NewEngine(const SimOptions& o) {
  // A decimal string carries the whole uint64 range; a JSON number would not.
  std::string config = o.seed ? "{\"seed\":\"" + std::to_string(*o.seed) + "\"}" : "{}";
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  sched_status st = sched_engine_new(config.data(), config.size(), &e, &err);
  Check(st, err, [](const std::string& path) { return Loc{"engine config", 0, path}; });
  return EnginePtr(e);
}

// Loads nodes, bound pods and other objects in one call; returns the
// engine's counts of the kinds it ignored.
JsonPtr Load(sched_engine* e, const std::vector<InputObject>& resident) {
  JsonPtr list(cJSON_CreateObject());
  cJSON_AddStringToObject(list.get(), "apiVersion", "v1");
  cJSON_AddStringToObject(list.get(), "kind", "List");
  cJSON* items = cJSON_AddArrayToObject(list.get(), "items");
  for (const InputObject& o : resident) cJSON_AddItemReferenceToArray(items, o.json);
  std::string text = Print(list.get());
  LibString summary;
  sched_error* err = nullptr;
  sched_status st = sched_engine_apply(e, text.data(), text.size(), &summary.p, &err);
  Check(st, err, [&](const std::string& path) { return LocateResident(resident, path); });
  JsonPtr parsed(cJSON_Parse(summary.p));
  cJSON* ignored = cJSON_DetachItemFromObjectCaseSensitive(parsed.get(), "ignored");
  return JsonPtr(cJSON_IsObject(ignored) ? ignored : cJSON_CreateObject());
}

}  // namespace

SimResult Simulate(const Cluster& c, const SimOptions& o) {
  auto explained = [&](const PendingPod& p) { return p.key == o.explain; };
  if (!o.explain.empty() && std::none_of(c.queue.begin(), c.queue.end(), explained)) {
    throw InputError("--explain: no pending pod " + o.explain + " in the input");
  }
  EnginePtr engine = NewEngine(o);
  SimResult r;
  r.ignored = Load(engine.get(), c.resident);
  r.other_schedulers = c.other_schedulers;

  auto start = std::chrono::steady_clock::now();
  Progress progress(c.queue.size());
  r.outcomes.reserve(c.queue.size());
  for (const PendingPod& p : c.queue) {
    bool explain = p.key == o.explain;
    uint32_t flags = SCHED_SCHEDULE_ASSUME;
    if (explain) flags |= SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;
    std::string text = Print(p.json);
    LibString out;
    sched_error* err = nullptr;
    sched_status st =
        sched_engine_schedule(engine.get(), text.data(), text.size(), flags, &out.p, &err);
    Check(st, err, [&](const std::string& path) { return p.loc.Append(path); });
    JsonPtr result(cJSON_Parse(out.p));
    if (result == nullptr) throw EngineError("unreadable schedule result for " + p.key);
    cJSON* node = Member(result.get(), "node");
    cJSON* message = Member(result.get(), "message");
    Outcome& oc = r.outcomes.emplace_back();
    oc.pod = p.key;
    if (cJSON_IsString(node)) oc.node = node->valuestring;
    if (oc.node.empty() && cJSON_IsString(message)) oc.message = message->valuestring;
    if (explain) r.explain = std::move(result);
    progress.Update(r.outcomes.size());
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace schedsim

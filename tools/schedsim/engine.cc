#include "engine.h"

namespace schedsim {
namespace {

struct ErrorFree {
  void operator()(sched_error* e) const { sched_error_free(e); }
};
using ErrorPtr = std::unique_ptr<sched_error, ErrorFree>;

// A string the library returned.
struct LibString {
  char* p = nullptr;
  ~LibString() { sched_free(p); }
};

Loc Nowhere(const std::string& path) { return Loc{"the engine", 0, path}; }

// Throws unless `st` is SCHED_OK. Invalid input becomes an InputError at
// the place `locate` finds for the engine's error path.
void Check(sched_status st, sched_error* raw, const Locate& locate) {
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

JsonPtr Parse(const LibString& s, const char* what) {
  JsonPtr v(s.p != nullptr ? cJSON_Parse(s.p) : nullptr);
  if (v == nullptr) throw EngineError(std::string("unreadable ") + what + " from the engine");
  return v;
}

// The array member `key` of the engine's document `s`.
JsonPtr ArrayMember(const LibString& s, const char* key, const char* what) {
  JsonPtr parsed = Parse(s, what);
  cJSON* array = cJSON_DetachItemFromObjectCaseSensitive(parsed.get(), key);
  if (!cJSON_IsArray(array)) {
    cJSON_Delete(array);
    throw EngineError(std::string(what) + " without \"" + key + "\"");
  }
  return JsonPtr(array);
}

}  // namespace

SimEngine::SimEngine(const cJSON* config, const std::string& config_file,
                     std::optional<uint64_t> seed) {
  JsonPtr c(config != nullptr ? cJSON_Duplicate(config, true) : cJSON_CreateObject());
  if (c == nullptr) throw std::bad_alloc();
  if (seed) {
    // A decimal string carries the whole uint64 range; a JSON number would not.
    cJSON_DeleteItemFromObjectCaseSensitive(c.get(), "seed");
    cJSON_AddStringToObject(c.get(), "seed", std::to_string(*seed).c_str());
  }
  const std::string text = Print(c.get());
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  sched_status st = sched_engine_new(text.data(), text.size(), &e, &err);
  const std::string where = config != nullptr ? config_file : "engine config";
  Check(st, err, [&](const std::string& path) { return Loc{where, 0, path}; });
  engine_.reset(e);
}

JsonPtr SimEngine::Apply(const std::string& json, const Locate& locate) {
  LibString summary;
  sched_error* err = nullptr;
  sched_status st = sched_engine_apply(engine_.get(), json.data(), json.size(), &summary.p, &err);
  Check(st, err, locate);
  return Parse(summary, "apply summary");
}

JsonPtr SimEngine::Run(uint32_t max_cycles, uint32_t flags) {
  LibString out;
  sched_error* err = nullptr;
  sched_status st = sched_engine_run(engine_.get(), max_cycles, flags, &out.p, &err);
  Check(st, err, Nowhere);
  return ArrayMember(out, "results", "run result");
}

JsonPtr SimEngine::Schedule(const std::string& pod, uint32_t flags) {
  LibString out;
  sched_error* err = nullptr;
  sched_status st =
      sched_engine_schedule(engine_.get(), pod.data(), pod.size(), flags, &out.p, &err);
  Check(st, err, Nowhere);
  return Parse(out, "schedule result");
}

JsonPtr SimEngine::Explain(const std::string& pod) {
  LibString out;
  sched_error* err = nullptr;
  sched_status st = sched_engine_explain(engine_.get(), pod.data(), pod.size(), &out.p, &err);
  Check(st, err, Nowhere);
  return Parse(out, "explanation");
}

JsonPtr SimEngine::Capacity(const std::string& pod, uint64_t max_replicas) {
  const std::string request =
      R"({"maxReplicas":)" + std::to_string(max_replicas) + R"(,"pod":)" + pod + "}";
  LibString out;
  sched_error* err = nullptr;
  sched_status st =
      sched_engine_capacity(engine_.get(), request.data(), request.size(), &out.p, &err);
  Check(st, err, Nowhere);
  return Parse(out, "capacity");
}

JsonPtr SimEngine::Drain(const std::vector<std::string>& nodes) {
  JsonPtr request(cJSON_CreateObject());
  cJSON* names = cJSON_AddArrayToObject(request.get(), "nodes");
  for (const std::string& n : nodes) cJSON_AddItemToArray(names, cJSON_CreateString(n.c_str()));
  const std::string body = Print(request.get());
  LibString out;
  sched_error* err = nullptr;
  sched_status st = sched_engine_drain(engine_.get(), body.data(), body.size(), &out.p, &err);
  Check(st, err, Nowhere);
  return Parse(out, "drain");
}

JsonPtr SimEngine::ScaleUp(const std::string& request) {
  LibString out;
  sched_error* err = nullptr;
  sched_status st =
      sched_engine_scale_up(engine_.get(), request.data(), request.size(), &out.p, &err);
  Check(st, err, Nowhere);
  return Parse(out, "scale-up");
}

void SimEngine::AdvanceClock(uint64_t millis) {
  sched_error* err = nullptr;
  sched_status st = sched_engine_advance_clock(engine_.get(), millis, &err);
  Check(st, err, Nowhere);
}

JsonPtr SimEngine::Queue() {
  LibString out;
  sched_error* err = nullptr;
  sched_status st = sched_engine_queue(engine_.get(), &out.p, &err);
  Check(st, err, Nowhere);
  return Parse(out, "queue");
}

JsonPtr SimEngine::Nodes() {
  LibString out;
  sched_error* err = nullptr;
  sched_status st = sched_engine_nodes(engine_.get(), nullptr, 0, &out.p, &err);
  Check(st, err, Nowhere);
  return ArrayMember(out, "nodes", "nodes");
}

}  // namespace schedsim

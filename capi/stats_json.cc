#include "capi/stats_json.h"

#include <utility>

#include "capi/json_writer.h"

namespace sched::capi {

std::string StatsJson(const EngineStats& stats) {
  const EcacheStats& c = stats.ecache;
  JsonWriter w;
  w.BeginObject().Key("equivalenceCache").BeginObject();
  w.Key("enabled").Bool(stats.ecache_enabled);
  w.Key("hits").Int(static_cast<int64_t>(c.hits));
  w.Key("misses").Int(static_cast<int64_t>(c.misses));
  w.Key("bypasses").Int(static_cast<int64_t>(c.bypasses));
  w.Key("scoreBypasses").Int(static_cast<int64_t>(c.score_bypasses));
  w.Key("repairs").Int(static_cast<int64_t>(c.repairs));
  w.Key("reused").Int(static_cast<int64_t>(c.reused));
  w.Key("parked").Int(static_cast<int64_t>(c.parked));
  w.EndObject();
  w.Key("interner").BeginObject();
  w.Key("strings").Int(stats.interner_strings);
  w.Key("bytes").Int(stats.interner_bytes);
  w.Key("released").Int(stats.interner_released);
  w.EndObject().EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi

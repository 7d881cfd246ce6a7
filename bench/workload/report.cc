#include "report.h"

#include <cjson/cJSON.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

namespace bench {
namespace {

struct JsonDeleter {
  void operator()(cJSON* j) const { cJSON_Delete(j); }
};
using JsonPtr = std::unique_ptr<cJSON, JsonDeleter>;

double Num(const cJSON* obj, const char* key) {
  cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

std::string Str(const cJSON* obj, const char* key) {
  cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

double Round3(double x) { return std::round(x * 1000) / 1000; }

}  // namespace

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p / 100 * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

std::string ReportJson(const std::string& impl, const Plan& plan, const Outcome& out,
                       double peak_rss_mib) {
  JsonPtr j(cJSON_CreateObject());
  cJSON* o = j.get();
  cJSON_AddStringToObject(o, "impl", impl.c_str());
  cJSON_AddStringToObject(o, "workload", plan.workload.c_str());
  cJSON_AddNumberToObject(o, "nodes", static_cast<double>(plan.nodes.size()));
  cJSON_AddStringToObject(o, "entry", plan.entry.c_str());
  cJSON_AddNumberToObject(o, "scale", plan.scale);
  size_t init = 0;
  for (const PodBatch& b : plan.init) init += b.pods.size();
  cJSON_AddNumberToObject(o, "initPods", static_cast<double>(init));
  cJSON_AddNumberToObject(o, "measurePods", static_cast<double>(plan.measured.pods.size()));
  cJSON_AddNumberToObject(o, "scheduled", out.scheduled);
  cJSON_AddNumberToObject(o, "unscheduled", out.unscheduled);
  cJSON_AddNumberToObject(o, "attempts", out.attempts);
  cJSON_AddNumberToObject(o, "preemptions", out.preemptions);
  cJSON_AddNumberToObject(o, "churnPods", out.churn_pods);
  cJSON_AddNumberToObject(o, "seconds", Round3(out.seconds));
  cJSON_AddNumberToObject(o, "podsPerSecond",
                          Round3(out.seconds > 0 ? out.scheduled / out.seconds : 0));
  cJSON_AddNumberToObject(o, "cpuSeconds", Round3(out.cpu_seconds));
  cJSON_AddNumberToObject(o, "podsPerCpuSecond",
                          Round3(out.cpu_seconds > 0 ? out.scheduled / out.cpu_seconds : 0));
  std::vector<double> ms = out.attempt_ms;
  cJSON_AddNumberToObject(o, "p50Ms", Round3(Percentile(ms, 50)));
  cJSON_AddNumberToObject(o, "p99Ms", Round3(Percentile(ms, 99)));
  cJSON_AddNumberToObject(o, "peakRssMiB", Round3(peak_rss_mib));

  std::map<std::string, int> per_node;
  std::map<std::string, int> per_zone;
  for (const auto& [pod, node] : out.placements) {
    ++per_node[node];
    if (auto z = plan.node_zone.find(node); z != plan.node_zone.end()) ++per_zone[z->second];
  }
  std::map<int, int> histogram;  // pods on a node -> nodes
  histogram[0] = static_cast<int>(plan.nodes.size() - per_node.size());
  for (const auto& [node, n] : per_node) ++histogram[n];
  cJSON* h = cJSON_AddObjectToObject(o, "podsPerNode");
  for (const auto& [k, n] : histogram) {
    if (n > 0) cJSON_AddNumberToObject(h, std::to_string(k).c_str(), n);
  }
  cJSON* z = cJSON_AddObjectToObject(o, "podsPerZone");
  for (const auto& [zone, n] : per_zone) cJSON_AddNumberToObject(z, zone.c_str(), n);

  char* s = cJSON_PrintUnformatted(o);
  std::string line(s);
  cJSON_free(s);
  return line;
}

std::string Table(const std::vector<std::string>& report_lines) {
  std::string out;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-14s %-31s %6s %10s %9s %9s %9s %8s %11s\n", "impl", "workload",
                "nodes", "pods/s", "p50 ms", "p99 ms", "RSS MiB", "placed", "preemptions");
  out += buf;
  for (const std::string& line : report_lines) {
    JsonPtr j(cJSON_Parse(line.c_str()));
    std::string placed = std::to_string(static_cast<int>(Num(j.get(), "scheduled"))) + "/" +
                         std::to_string(static_cast<int>(Num(j.get(), "measurePods")));
    std::snprintf(buf, sizeof buf, "%-14s %-31s %6.0f %10.1f %9.3f %9.3f %9.1f %8s %11.0f\n",
                  Str(j.get(), "impl").c_str(), Str(j.get(), "workload").c_str(),
                  Num(j.get(), "nodes"), Num(j.get(), "podsPerSecond"), Num(j.get(), "p50Ms"),
                  Num(j.get(), "p99Ms"), Num(j.get(), "peakRssMiB"), placed.c_str(),
                  Num(j.get(), "preemptions"));
    out += buf;
  }
  return out;
}

}  // namespace bench

#include "output.h"

#include <cstdio>
#include <string>

#include "columns.h"
#include "explain.h"

namespace schedsim {
namespace {

std::string Rate(const SimResult& r) {
  double rate = r.seconds > 0 ? static_cast<double>(r.outcomes.size()) / r.seconds : 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", rate);
  return buf;
}

}  // namespace

void PrintJson(std::ostream& out, const SimResult& r) {
  out << "{\n  \"placements\": [";
  const char* sep = "\n";
  for (const Outcome& o : r.outcomes) {
    if (o.node.empty()) continue;
    out << sep << "    {\"pod\": " << Quote(o.pod) << ", \"node\": " << Quote(o.node) << "}";
    sep = ",\n";
  }
  out << (*sep == ',' ? "\n  ]" : "]") << ",\n  \"unschedulable\": [";
  sep = "\n";
  for (const Outcome& o : r.outcomes) {
    if (!o.node.empty()) continue;
    out << sep << "    {\"pod\": " << Quote(o.pod) << ", \"message\": " << Quote(o.message) << "}";
    sep = ",\n";
  }
  out << (*sep == ',' ? "\n  ]" : "]") << ",\n  \"ignored\": {";
  sep = "";
  for (const cJSON* k = r.ignored->child; k != nullptr; k = k->next) {
    out << sep << Quote(k->string) << ": " << Print(k);
    sep = ", ";
  }
  out << "}";
  if (!r.other_schedulers.empty()) {
    out << ",\n  \"otherSchedulers\": {";
    sep = "";
    for (const auto& [name, n] : r.other_schedulers) {
      out << sep << Quote(name) << ": " << n;
      sep = ", ";
    }
    out << "}";
  }
  if (!r.preemptions.empty()) {
    out << ",\n  \"preemptions\": [";
    sep = "\n";
    for (const Preemption& p : r.preemptions) {
      out << sep << "    {\"pod\": " << Quote(p.pod) << ", \"nominatedNodeName\": " << Quote(p.node)
          << ", \"victims\": [";
      const char* vsep = "";
      for (const std::string& v : p.victims) {
        out << vsep << Quote(v);
        vsep = ", ";
      }
      out << "]}";
      sep = ",\n";
    }
    out << "\n  ]";
  }
  if (r.explain) out << ",\n  \"explain\": " << Print(r.explain.get());
  out << "\n}\n";
}

void PrintTable(std::ostream& out, const SimResult& r) {
  std::vector<Row> rows{{"POD", "NODE", "MESSAGE"}};
  size_t placed = 0;
  for (const Outcome& o : r.outcomes) {
    rows.push_back({o.pod, o.node.empty() ? "-" : o.node, o.message});
    placed += !o.node.empty();
  }
  WriteColumns(out, rows);
  out << "\nplaced " << placed << ", pending " << r.outcomes.size() - placed << ", " << Rate(r)
      << " pods/s\n";
  if (cJSON_GetArraySize(r.ignored.get()) > 0) {
    out << "ignored:";
    const char* sep = " ";
    for (const cJSON* k = r.ignored->child; k != nullptr; k = k->next) {
      out << sep << k->string << " " << Print(k);
      sep = ", ";
    }
    out << "\n";
  }
  if (!r.other_schedulers.empty()) {
    out << "left to other schedulers:";
    const char* sep = " ";
    for (const auto& [name, n] : r.other_schedulers) {
      out << sep << name << " " << n;
      sep = ", ";
    }
    out << "\n";
  }
  for (const Preemption& p : r.preemptions) {
    out << "preemption: " << p.pod << " nominated to " << p.node << ", evicted ";
    const char* sep = "";
    for (const std::string& v : p.victims) {
      out << sep << v;
      sep = ", ";
    }
    out << (p.victims.empty() ? "nothing\n" : "\n");
  }
  if (r.explain) {
    out << "\n";
    PrintExplain(out, r.explain.get());
  }
}

}  // namespace schedsim

#include "output.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "columns.h"
#include "explain.h"

namespace schedsim {
namespace {

// An unschedulable message and the pods that got it.
struct Reason {
  std::string message;
  std::vector<const Outcome*> pods;  // in SimResult's order
};

// The distinct messages of the unschedulable pods, most pods first (then
// by message): one FitError usually stands for many pods.
std::vector<Reason> Reasons(const SimResult& r) {
  std::map<std::string, std::vector<const Outcome*>> by_message;
  for (const Outcome& o : r.outcomes) {
    if (o.node.empty()) by_message[o.message].push_back(&o);
  }
  std::vector<Reason> reasons;
  for (auto& [message, pods] : by_message) reasons.push_back({message, std::move(pods)});
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const Reason& a, const Reason& b) { return a.pods.size() > b.pods.size(); });
  return reasons;
}

size_t Placed(const SimResult& r) {
  return static_cast<size_t>(std::count_if(r.outcomes.begin(), r.outcomes.end(),
                                           [](const Outcome& o) { return !o.node.empty(); }));
}

// A per-mille share as a percentage with one decimal ("12.5"), or "" when none.
std::string Percent(const Amount& a) {
  const std::optional<int64_t> pm = a.PerMille();
  if (!pm) return "";
  return std::to_string(*pm / 10) + "." + std::to_string(*pm % 10);
}

// `v` in `unit`s with `suffix`: whole when exact, else to one decimal.
std::string InUnit(int64_t v, int64_t unit, const std::string& suffix) {
  if (v % unit == 0) return std::to_string(v / unit) + suffix;
  __extension__ typedef __int128 Wide;
  const auto tenths = static_cast<int64_t>((Wide{v} * 10 + unit / 2) / unit);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + suffix;
}

// "requested/allocatable" of `resource` in one unit: CPU in cores when
// both are whole, else millicores ("1500m/4000m"); bytes (memory,
// hugepages) in the largest binary unit of which the larger of the two
// holds at least ten ("68.2Gi/1959.9Gi"); counts as they are.
std::string Fraction(const std::string& resource, const Amount& a) {
  if (resource == "cpu") {
    if (a.requested % 1000 == 0 && a.allocatable % 1000 == 0) {
      return std::to_string(a.requested / 1000) + "/" + std::to_string(a.allocatable / 1000);
    }
    return std::to_string(a.requested) + "m/" + std::to_string(a.allocatable) + "m";
  }
  if (resource == "memory" || resource.starts_with("hugepages-")) {
    static const char* const kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    const int64_t top = std::max(a.requested, a.allocatable);
    int i = 0;
    while (i < 6 && top / 10 >= (int64_t{1} << (10 * (i + 1)))) ++i;
    const int64_t unit = int64_t{1} << (10 * i);
    return InUnit(a.requested, unit, kSuffixes[i]) + "/" +
           InUnit(a.allocatable, unit, kSuffixes[i]);
  }
  return std::to_string(a.requested) + "/" + std::to_string(a.allocatable);
}

void PrintAmounts(std::ostream& out, const PoolUsage& p, bool after) {
  out << "{";
  const char* sep = "";
  for (const ResourceUsage& u : p.resources) {
    const Amount& a = after ? u.after : u.before;
    const std::string pct = Percent(a);
    out << sep << Quote(u.resource) << ": {\"requested\": " << a.requested
        << ", \"allocatable\": " << a.allocatable
        << ", \"percent\": " << (pct.empty() ? "null" : pct) << "}";
    sep = ", ";
  }
  out << "}";
}

void PrintUtilizationJson(std::ostream& out, const Utilization& u) {
  out << ",\n  \"utilization\": {\"poolLabel\": " << (u.label.empty() ? "null" : Quote(u.label))
      << ", \"pools\": [";
  const char* sep = "\n";
  for (const PoolUsage& p : u.pools) {
    out << sep << "    {\"pool\": " << Quote(p.pool) << ", \"nodes\": " << p.nodes
        << ", \"before\": ";
    PrintAmounts(out, p, false);
    out << ", \"after\": ";
    PrintAmounts(out, p, true);
    out << "}";
    sep = ",\n";
  }
  out << (*sep == ',' ? "\n  ]}" : "]}");
}

// "1500m/4000m (37.5%)"
std::string Cell(const std::string& resource, const Amount& a) {
  const std::string pct = Percent(a);
  return Fraction(resource, a) + (pct.empty() ? "" : " (" + pct + "%)");
}

void PrintUtilizationTable(std::ostream& out, const Utilization& u) {
  if (u.pools.empty()) return;
  out << (u.label.empty() ? "utilization, all nodes (no pool label; see --pool-label)"
                          : "utilization by " + u.label)
      << ", requested/allocatable:\n";
  std::vector<Row> rows{{"POOL", "NODES", "RESOURCE", "BEFORE", "AFTER"}};
  for (const PoolUsage& p : u.pools) {
    for (const ResourceUsage& r : p.resources) {
      rows.push_back({p.pool, std::to_string(p.nodes), r.resource, Cell(r.resource, r.before),
                      Cell(r.resource, r.after)});
    }
  }
  WriteColumns(out, rows);
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
  const size_t placed = Placed(r);
  out << ",\n  \"summary\": {\"nodes\": " << r.nodes << ", \"boundPods\": " << r.bound_pods
      << ", \"pending\": " << r.outcomes.size() << ", \"placed\": " << placed
      << ", \"unschedulable\": " << r.outcomes.size() - placed
      << ", \"preemptions\": " << r.preemptions.size()
      << (r.interrupted ? ", \"interrupted\": true}" : "}");
  out << ",\n  \"unschedulableReasons\": [";
  sep = "\n";
  for (const Reason& reason : Reasons(r)) {
    out << sep << "    {\"message\": " << Quote(reason.message)
        << ", \"pods\": " << reason.pods.size() << "}";
    sep = ",\n";
  }
  out << (*sep == ',' ? "\n  ]" : "]");
  PrintUtilizationJson(out, r.utilization);
  if (!r.explain.empty()) {
    // "explain" (the first) predates repeatable --explain; "explains" has all.
    out << ",\n  \"explain\": " << (r.explain[0] ? Print(r.explain[0].get()) : "null");
    out << ",\n  \"explains\": [";
    sep = "";
    for (const JsonPtr& e : r.explain) {
      out << sep << (e ? Print(e.get()) : "null");
      sep = ", ";
    }
    out << "]";
  }
  out << "\n}\n";
}

void PrintTable(std::ostream& out, const SimResult& r) {
  std::vector<Row> rows{{"POD", "NODE", "MESSAGE"}};
  std::map<std::string, const std::string*> first;  // message -> its first pod
  for (const Outcome& o : r.outcomes) {
    std::string message = o.message;
    if (!o.node.empty()) {
      // no message
    } else if (auto [it, inserted] = first.try_emplace(o.message, &o.pod); !inserted) {
      message = "(same as " + *it->second + ")";
    }
    rows.push_back({o.pod, o.node.empty() ? "-" : o.node, message});
  }
  WriteColumns(out, rows);
  const size_t placed = Placed(r);
  out << "\nplaced " << placed << ", pending " << r.outcomes.size() - placed << "\n";
  out << "cluster: " << r.nodes << " nodes, " << r.bound_pods << " bound pods; "
      << r.outcomes.size() << " pods scheduled, " << r.preemptions.size() << " preemptions"
      << (r.interrupted ? " (interrupted: partial)" : "") << "\n";
  std::vector<Reason> reasons = Reasons(r);
  if (!reasons.empty()) {
    out << "unschedulable, by message:\n";
    std::vector<Row> counts{{"PODS", "MESSAGE"}};
    for (const Reason& reason : reasons) {
      counts.push_back({std::to_string(reason.pods.size()), reason.message});
    }
    WriteColumns(out, counts);
  }
  PrintUtilizationTable(out, r.utilization);
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
  for (const JsonPtr& e : r.explain) {
    if (!e) continue;  // never had a cycle: its row says why
    out << "\n";
    PrintExplain(out, e.get());
  }
}

}  // namespace schedsim

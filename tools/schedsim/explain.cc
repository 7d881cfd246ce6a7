#include "explain.h"

#include <algorithm>
#include <string>
#include <vector>

#include "columns.h"
#include "json.h"

namespace schedsim {
namespace {

// The first element of an array or object (nullptr when absent).
const cJSON* First(const cJSON* v) { return v != nullptr ? v->child : nullptr; }

std::string Text(const cJSON* v) {
  if (v == nullptr) return "";
  return cJSON_IsString(v) ? v->valuestring : Print(v);
}

}  // namespace

void PrintExplain(std::ostream& out, const cJSON* r) {
  out << "explain " << Text(Member(r, "pod")) << ": ";
  if (const cJSON* node = Member(r, "node")) {
    out << "scheduled on " << Text(node);
  } else {
    out << Text(Member(r, "reason")) << ": " << Text(Member(r, "message"));
  }
  out << " (" << Text(Member(r, "numAllNodes")) << " nodes, " << Text(Member(r, "evaluatedNodes"))
      << " evaluated, " << Text(Member(r, "feasibleNodes")) << " feasible)\n";

  const cJSON* statuses = Member(r, "nodeStatuses");
  if (cJSON_GetArraySize(statuses) > 0) {
    std::vector<Row> rows{{"NODE", "PLUGIN", "CODE", "REASONS"}};
    for (const cJSON* s = First(statuses); s != nullptr; s = s->next) {
      std::string reasons;
      for (const cJSON* reason = First(Member(s, "reasons")); reason; reason = reason->next) {
        reasons += (reasons.empty() ? "" : ", ") + Text(reason);
      }
      rows.push_back({Text(Member(s, "node")), Text(Member(s, "plugin")), Text(Member(s, "code")),
                      reasons});
    }
    out << "\n";
    WriteColumns(out, rows);
  }

  // Feasible nodes, best first: total, then each plugin's weighted score.
  const cJSON* scores = Member(r, "scores");
  const cJSON* nodes = Member(scores, "nodes");
  if (cJSON_GetArraySize(nodes) > 0) {
    Row header{"NODE", "TOTAL"};
    for (const cJSON* p = First(Member(scores, "plugins")); p != nullptr; p = p->next) {
      header.push_back(Text(p));
    }
    std::vector<const cJSON*> sorted;
    for (const cJSON* n = First(nodes); n != nullptr; n = n->next) sorted.push_back(n);
    auto total = [](const cJSON* n) { return cJSON_GetNumberValue(Member(n, "totalScore")); };
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const cJSON* a, const cJSON* b) { return total(a) > total(b); });
    std::vector<Row> rows{header};
    for (const cJSON* n : sorted) {
      Row row{Text(Member(n, "node")), Text(Member(n, "totalScore"))};
      for (const cJSON* s = First(Member(n, "scores")); s != nullptr; s = s->next) {
        row.push_back(Text(s));
      }
      rows.push_back(std::move(row));
    }
    out << "\n";
    WriteColumns(out, rows);
  }
}

}  // namespace schedsim

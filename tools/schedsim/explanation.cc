#include "explanation.h"

#include <algorithm>
#include <string>
#include <vector>

#include "columns.h"
#include "json.h"

namespace schedsim {
namespace {

const cJSON* First(const cJSON* v) { return v != nullptr ? v->child : nullptr; }

std::string Text(const cJSON* v) {
  if (v == nullptr) return "";
  return cJSON_IsString(v) ? v->valuestring : Print(v);
}

std::string Joined(const cJSON* array) {
  std::string s;
  for (const cJSON* v = First(array); v != nullptr; v = v->next) {
    s += (s.empty() ? "" : ", ") + Text(v);
  }
  return s;
}

}  // namespace

void PrintExplanation(std::ostream& out, const cJSON* doc) {
  out << "explain " << Text(Member(doc, "pod")) << ": " << Text(Member(doc, "message")) << "\n";
  out << "summary: " << Text(Member(doc, "summary")) << "\n";

  if (cJSON_GetArraySize(Member(doc, "reasons")) > 0) {
    std::vector<Row> rows{{"NODES", "REASON"}};
    for (const cJSON* r = First(Member(doc, "reasons")); r != nullptr; r = r->next) {
      rows.push_back({Text(Member(r, "nodes")), Text(Member(r, "reason"))});
    }
    out << "\n";
    WriteColumns(out, rows);
  }
  if (cJSON_GetArraySize(Member(doc, "nearestMisses")) > 0) {
    std::vector<Row> rows{{"NODES", "NEAREST MISS", "PLUGIN", "EXAMPLE"}};
    for (const cJSON* m = First(Member(doc, "nearestMisses")); m != nullptr; m = m->next) {
      rows.push_back({Text(Member(m, "nodes")), Text(Member(m, "text")), Text(Member(m, "plugin")),
                      Text(Member(m, "exampleNode"))});
    }
    out << "\n";
    WriteColumns(out, rows);
  }

  const cJSON* nodes = Member(doc, "nodes");
  if (cJSON_GetArraySize(nodes) > 0) {
    std::vector<Row> rows{{"NODE", "VERDICT", "PLUGIN", "REASONS", "ALSO REJECTED BY"}};
    for (const cJSON* n = First(nodes); n != nullptr; n = n->next) {
      const bool feasible = cJSON_IsTrue(Member(n, "feasible"));
      // Filter plugins that reject the node besides the cycle's verdict.
      std::string also;
      for (const cJSON* f = First(Member(n, "filters")); f != nullptr; f = f->next) {
        if (Text(Member(f, "code")) == "Success") continue;
        if (Text(Member(f, "plugin")) == Text(Member(n, "plugin"))) continue;
        also += (also.empty() ? "" : ", ") + Text(Member(f, "plugin"));
      }
      rows.push_back({Text(Member(n, "node")), feasible ? "feasible" : Text(Member(n, "code")),
                      Text(Member(n, "plugin")), Joined(Member(n, "reasons")), also});
    }
    out << "\n";
    WriteColumns(out, rows);
  }

  // Feasible nodes, best first.
  std::vector<const cJSON*> scored;
  for (const cJSON* n = First(nodes); n != nullptr; n = n->next) {
    if (cJSON_IsTrue(Member(n, "feasible"))) scored.push_back(n);
  }
  if (scored.empty() || cJSON_GetArraySize(Member(doc, "scorePlugins")) == 0) return;
  auto total = [](const cJSON* n) { return cJSON_GetNumberValue(Member(n, "totalScore")); };
  std::stable_sort(scored.begin(), scored.end(),
                   [&](const cJSON* a, const cJSON* b) { return total(a) > total(b); });
  Row header{"NODE", "TOTAL"};
  for (const cJSON* p = First(Member(doc, "scorePlugins")); p != nullptr; p = p->next) {
    header.push_back(Text(Member(p, "name")) + "x" + Text(Member(p, "weight")));
  }
  std::vector<Row> rows{header};
  for (const cJSON* n : scored) {
    Row row{Text(Member(n, "node")), Text(Member(n, "totalScore"))};
    for (const cJSON* s = First(Member(n, "scores")); s != nullptr; s = s->next) {
      row.push_back(Text(Member(s, "weighted")) + " (" + Text(Member(s, "raw")) + "/" +
                    Text(Member(s, "normalized")) + ")");
    }
    rows.push_back(std::move(row));
  }
  out << "\nscores: weighted (raw/normalized)\n";
  WriteColumns(out, rows);
}

void PrintCapacity(std::ostream& out, const cJSON* doc) {
  out << "capacity " << Text(Member(doc, "pod")) << ": " << Text(Member(doc, "replicas"))
      << " more replicas fit" << (cJSON_IsTrue(Member(doc, "capped")) ? " (capped)" : "") << "\n";
  if (!Text(Member(doc, "message")).empty())
    out << "next: " << Text(Member(doc, "message")) << "\n";
  if (cJSON_GetArraySize(Member(doc, "nodes")) == 0) return;
  std::vector<Row> rows{{"NODE", "REPLICAS"}};
  for (const cJSON* n = First(Member(doc, "nodes")); n != nullptr; n = n->next) {
    rows.push_back({Text(Member(n, "node")), Text(Member(n, "replicas"))});
  }
  out << "\n";
  WriteColumns(out, rows);
}

void PrintDrain(std::ostream& out, const cJSON* doc) {
  out << "drain: " << (cJSON_IsTrue(Member(doc, "removable")) ? "removable" : "not removable")
      << "\n\n";
  std::vector<Row> nodes{{"NODE", "REMOVABLE", "MOVED", "PENDING", "BLOCKED", "LEFT"}};
  for (const cJSON* n = First(Member(doc, "nodes")); n != nullptr; n = n->next) {
    nodes.push_back({Text(Member(n, "node")), cJSON_IsTrue(Member(n, "removable")) ? "yes" : "no",
                     Text(Member(n, "moved")), Text(Member(n, "pending")),
                     Text(Member(n, "blocked")), Text(Member(n, "left"))});
  }
  WriteColumns(out, nodes);
  if (cJSON_GetArraySize(Member(doc, "pods")) > 0) {
    std::vector<Row> pods{{"POD", "FROM", "TO", "NOTE"}};
    for (const cJSON* p = First(Member(doc, "pods")); p != nullptr; p = p->next) {
      const cJSON* to = Member(p, "node");
      std::string note = Text(Member(p, "message"));
      if (const cJSON* pdb = Member(p, "blockingPDB"); pdb != nullptr) {
        note = "eviction blocked by PDB " + Text(pdb) + (note.empty() ? "" : "; " + note);
      }
      pods.push_back({Text(Member(p, "pod")), Text(Member(p, "from")),
                      cJSON_IsString(to) ? to->valuestring : "<pending>", note});
    }
    out << "\n";
    WriteColumns(out, pods);
  }
  if (cJSON_GetArraySize(Member(doc, "left")) > 0) {
    std::vector<Row> left{{"LEFT", "ON", "REASON"}};
    for (const cJSON* p = First(Member(doc, "left")); p != nullptr; p = p->next) {
      left.push_back({Text(Member(p, "pod")), Text(Member(p, "from")), Text(Member(p, "reason"))});
    }
    out << "\n";
    WriteColumns(out, left);
  }
}

void PrintScaleUp(std::ostream& out, const cJSON* doc) {
  out << "existing nodes: " << cJSON_GetArraySize(Member(doc, "existing")) << " pods fit\n";
  for (const cJSON* t = First(Member(doc, "templates")); t != nullptr; t = t->next) {
    out << "\ntemplate " << Text(Member(t, "template")) << ": " << Text(Member(t, "nodes"))
        << " new nodes for " << cJSON_GetArraySize(Member(t, "placements")) << " pods\n";
    std::vector<Row> rows{{"NODE", "PODS"}};
    for (const cJSON* n = First(Member(t, "newNodes")); n != nullptr; n = n->next)
      rows.push_back({Text(Member(n, "node")), Text(Member(n, "pods"))});
    if (rows.size() > 1) WriteColumns(out, rows);
    std::vector<Row> pending{{"PENDING", "REASON", "MESSAGE"}};
    for (const cJSON* p = First(Member(t, "pending")); p != nullptr; p = p->next)
      pending.push_back(
          {Text(Member(p, "pod")), Text(Member(p, "reason")), Text(Member(p, "message"))});
    if (pending.size() > 1) WriteColumns(out, pending);
  }
  if (cJSON_GetArraySize(Member(doc, "unhelped")) == 0) return;
  out << "\nno template helps:\n";
  std::vector<Row> rows{{"POD", "TEMPLATE", "MESSAGE"}};
  for (const cJSON* u = First(Member(doc, "unhelped")); u != nullptr; u = u->next) {
    for (const cJSON* w = First(Member(u, "reasons")); w != nullptr; w = w->next)
      rows.push_back(
          {Text(Member(u, "pod")), Text(Member(w, "template")), Text(Member(w, "message"))});
  }
  WriteColumns(out, rows);
}

}  // namespace schedsim

#include "utilization.h"

#include <algorithm>
#include <map>
#include <set>

#include "json.h"

namespace schedsim {
namespace {

// A number of the engine's document; 0 when absent (a scalar resource one
// side does not name).
int64_t Int(const cJSON* v) {
  return cJSON_IsNumber(v) ? static_cast<int64_t>(cJSON_GetNumberValue(v)) : 0;
}

int64_t Saturating(int64_t a, int64_t b) {
  int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

std::string PoolOf(const cJSON* node, const std::string& label) {
  if (label.empty()) return std::string(kAllPool);
  const cJSON* v = Member(Member(node, "labels"), label.c_str());
  return cJSON_IsString(v) ? v->valuestring : std::string(kNoPool);
}

// A pool's sums per resource name, at one moment.
using Sums = std::map<std::string, Amount>;

void AddNode(const cJSON* node, Sums& sums) {
  const cJSON* alloc = Member(node, "allocatable");
  const cJSON* req = Member(node, "requested");
  auto add = [&](const std::string& name, int64_t requested, int64_t allocatable) {
    Amount& a = sums[name];
    a.requested = Saturating(a.requested, requested);
    a.allocatable = Saturating(a.allocatable, allocatable);
  };
  add("cpu", Int(Member(req, "milliCPU")), Int(Member(alloc, "milliCPU")));
  add("memory", Int(Member(req, "memory")), Int(Member(alloc, "memory")));
  add("pods", Int(Member(node, "podCount")), Int(Member(alloc, "allowedPodNumber")));
  // Every scalar either side names; zero sums NodeInfo keeps for resources
  // no pod requests any more are dropped when the rows are made.
  const cJSON* ra = Member(req, "scalarResources");
  const cJSON* aa = Member(alloc, "scalarResources");
  for (const cJSON* s = aa != nullptr ? aa->child : nullptr; s != nullptr; s = s->next) {
    add(s->string, Int(Member(ra, s->string)), Int(s));
  }
  for (const cJSON* s = ra != nullptr ? ra->child : nullptr; s != nullptr; s = s->next) {
    if (Member(aa, s->string) == nullptr) add(s->string, Int(s), 0);
  }
}

struct Pool {
  int64_t nodes = 0;
  Sums before, after;
};

}  // namespace

std::optional<int64_t> Amount::PerMille() const {
  if (allocatable <= 0) return std::nullopt;
  __extension__ typedef __int128 Wide;
  return static_cast<int64_t>((Wide{requested} * 1000 + allocatable / 2) / allocatable);
}

std::string ChoosePoolLabel(const cJSON* nodes, const std::string& flag) {
  if (!flag.empty()) return flag;
  for (std::string_view key : kPoolLabels) {
    const std::string k(key);
    for (const cJSON* n = nodes != nullptr ? nodes->child : nullptr; n != nullptr; n = n->next) {
      if (Member(Member(n, "labels"), k.c_str()) != nullptr) return k;
    }
  }
  return "";
}

Utilization PoolUtilization(const std::string& label, const cJSON* before, const cJSON* after) {
  std::map<std::string, Pool> pools;
  for (const cJSON* n = before != nullptr ? before->child : nullptr; n != nullptr; n = n->next) {
    Pool& p = pools[PoolOf(n, label)];
    ++p.nodes;
    AddNode(n, p.before);
  }
  for (const cJSON* n = after != nullptr ? after->child : nullptr; n != nullptr; n = n->next) {
    AddNode(n, pools[PoolOf(n, label)].after);
  }
  Utilization u{label, {}};
  for (auto& [name, p] : pools) {
    PoolUsage& out = u.pools.emplace_back(PoolUsage{name, p.nodes, {}});
    for (const char* fixed : {"cpu", "memory", "pods"}) {
      out.resources.push_back({fixed, p.before[fixed], p.after[fixed]});
    }
    std::set<std::string> scalars;
    for (const Sums* sums : {&p.before, &p.after}) {
      for (const auto& [resource, amount] : *sums) scalars.insert(resource);
    }
    for (const char* fixed : {"cpu", "memory", "pods"}) scalars.erase(fixed);
    for (const std::string& resource : scalars) {
      const Amount b = p.before[resource];
      const Amount a = p.after[resource];
      if (b.requested || b.allocatable || a.requested || a.allocatable) {
        out.resources.push_back({resource, b, a});
      }
    }
  }
  // "(none)" sorts before letters; it reads better last.
  std::stable_partition(u.pools.begin(), u.pools.end(),
                        [](const PoolUsage& p) { return p.pool != kNoPool; });
  return u;
}

}  // namespace schedsim

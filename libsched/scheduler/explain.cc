// Scheduler::Explain and the Explanation's text. A member of Scheduler (it
// reuses RunPreFilters) kept out of scheduler.cc: nothing here runs on the
// scheduling path.
#include "libsched/scheduler/explain.h"

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include "libsched/scheduler/scheduler.h"

namespace sched {
namespace {

// NodeResourcesFit's reasons (fit.go): "Too many pods", "Insufficient <name>".
constexpr std::string_view kFitPlugin = "NodeResourcesFit";
constexpr std::string_view kTooManyPods = "Too many pods";
constexpr std::string_view kInsufficient = "Insufficient ";
constexpr std::string_view kTaintPlugin = "TaintToleration";

PluginVerdict ToVerdict(const Status& s, std::string_view plugin) {
  PluginVerdict v;
  v.plugin = std::string(plugin);
  v.code = s.code();
  for (std::string_view r : s.reasons()) v.reasons.emplace_back(r);
  return v;
}

__extension__ typedef __int128 I128;  // as node_resources_fit.cc

int64_t Clamp(I128 v) {
  if (v > INT64_MAX) return INT64_MAX;
  if (v < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// request - (allocatable - requested) on `ni` for one NodeResourcesFit
// reason; false for a reason that names no resource the state knows.
bool ShortfallFor(std::string_view reason, const Pod& pod, const NodeInfo& ni,
                  const Interner& interner, Shortfall* out) {
  const Resource& alloc = ni.node()->allocatable;
  const Resource& used = ni.requested();
  const Resource& req = pod.requests;
  auto lack = [](int64_t request, int64_t allocatable, int64_t requested) {
    return Clamp(static_cast<I128>(request) - (static_cast<I128>(allocatable) - requested));
  };
  if (reason == kTooManyPods) {
    *out = {"pods", lack(1, alloc.allowed_pods, static_cast<int64_t>(ni.pods().size()))};
    return true;
  }
  if (!reason.starts_with(kInsufficient)) return false;
  const std::string_view name = reason.substr(kInsufficient.size());
  if (name == "cpu") {
    *out = {"cpu", lack(req.milli_cpu, alloc.milli_cpu, used.milli_cpu)};
  } else if (name == "memory") {
    *out = {"memory", lack(req.memory, alloc.memory, used.memory)};
  } else if (name == "ephemeral-storage") {
    *out = {"ephemeral-storage",
            lack(req.ephemeral_storage, alloc.ephemeral_storage, used.ephemeral_storage)};
  } else {
    const Atom a = interner.Find(name);
    if (a == kNoAtom) return false;
    *out = {std::string(name), lack(req.Scalar(a), alloc.Scalar(a), used.Scalar(a))};
  }
  return true;
}

std::string_view EffectName(TaintEffect e) {
  switch (e) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
    case TaintEffect::kNone:
      break;
  }
  return "";
}

// The first NoSchedule/NoExecute taint of the node that no toleration of
// the pod tolerates, as "key=value:Effect" (kubectl's form); empty if none.
std::string UntoleratedTaint(const Pod& pod, const Node& node, const Interner& in) {
  for (const Taint& t : node.taints) {
    if (t.effect != TaintEffect::kNoSchedule && t.effect != TaintEffect::kNoExecute) continue;
    const bool tolerated = std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                                       [&](const Toleration& tol) { return tol.Tolerates(t); });
    if (tolerated) continue;
    std::string s = in.Str(t.key);
    if (t.value != kNoAtom && !in.Str(t.value).empty()) s += "=" + in.Str(t.value);
    return s + ":" + std::string(EffectName(t.effect));
  }
  return "";
}

std::string NodesText(int64_t n) { return std::to_string(n) + (n == 1 ? " node" : " nodes"); }

std::string NearMissText(const NearMiss& m) {
  if (!m.shortfalls.empty()) {
    std::string s = "needs ";
    for (size_t i = 0; i < m.shortfalls.size(); ++i) {
      if (i > 0) s += " and ";
      s += FormatShortfall(m.shortfalls[i]) + " more " + m.shortfalls[i].resource;
    }
    return s + " on " + NodesText(m.nodes);
  }
  if (!m.taint.empty()) return "does not tolerate taint " + m.taint + " on " + NodesText(m.nodes);
  std::string s = m.plugin + ":";
  for (size_t i = 0; i < m.reasons.size(); ++i) s += (i ? ", " : " ") + m.reasons[i];
  return s + " on " + NodesText(m.nodes);
}

// Nodes that exactly one Filter plugin rejects, grouped by plugin, reasons
// and (TaintToleration) the taint; shortfalls are the minimum per resource.
std::vector<NearMiss> NearestMisses(const Pod& pod, const ClusterState& state,
                                    const std::vector<NodeExplanation>& nodes) {
  std::vector<NearMiss> out;
  std::map<std::string, size_t> index;  // group key -> out[i]
  const auto& list = state.NodeList();
  for (size_t n = 0; n < nodes.size(); ++n) {
    const NodeExplanation& ne = nodes[n];
    const PluginVerdict* only = nullptr;
    int rejecting = 0;
    for (const PluginVerdict& v : ne.filters) {
      if (v.code == Code::kSuccess) continue;
      ++rejecting;
      only = &v;
    }
    if (rejecting != 1 || ne.verdict.code == Code::kSuccess) continue;
    const NodeInfo& ni = *list[n];
    NearMiss m;
    m.plugin = only->plugin;
    m.reasons = only->reasons;
    if (m.plugin == kTaintPlugin) m.taint = UntoleratedTaint(pod, *ni.node(), state.interner());
    if (m.plugin == kFitPlugin) {
      for (const std::string& r : m.reasons) {
        Shortfall s;
        if (ShortfallFor(r, pod, ni, state.interner(), &s)) m.shortfalls.push_back(std::move(s));
      }
    }
    std::string key = m.plugin + '\x1f' + m.taint;
    for (const std::string& r : m.reasons) key += '\x1f' + r;
    auto [it, added] = index.emplace(std::move(key), out.size());
    if (added) {
      m.example_node = ne.node;
      out.push_back(std::move(m));
    } else {
      NearMiss& g = out[it->second];
      for (size_t i = 0; i < g.shortfalls.size() && i < m.shortfalls.size(); ++i) {
        g.shortfalls[i].amount = std::min(g.shortfalls[i].amount, m.shortfalls[i].amount);
      }
    }
    ++out[it->second].nodes;
  }
  for (NearMiss& m : out) m.text = NearMissText(m);
  std::stable_sort(out.begin(), out.end(), [](const NearMiss& a, const NearMiss& b) {
    return a.nodes != b.nodes ? a.nodes > b.nodes : a.text < b.text;
  });
  return out;
}

std::vector<ReasonCount> CountReasons(const std::vector<NodeExplanation>& nodes) {
  std::map<std::string, int64_t> counts;
  for (const NodeExplanation& ne : nodes) {
    for (const std::string& r : ne.verdict.reasons) ++counts[r];
  }
  std::vector<ReasonCount> out;
  for (auto& [reason, n] : counts) out.push_back({reason, n});
  std::stable_sort(out.begin(), out.end(),
                   [](const ReasonCount& a, const ReasonCount& b) { return a.nodes > b.nodes; });
  return out;
}

}  // namespace

std::string FormatShortfall(const Shortfall& s) {
  if (s.resource == "cpu") {
    if (s.amount % 1000 == 0) return std::to_string(s.amount / 1000);
    return std::to_string(s.amount) + "m";
  }
  if (s.resource == "memory" || s.resource == "ephemeral-storage") {
    static constexpr std::string_view kSuffixes[] = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
    for (size_t i = 0; i < std::size(kSuffixes); ++i) {
      const int64_t unit = int64_t{1} << (10 * (6 - i));
      if (s.amount != 0 && s.amount % unit == 0) {
        return std::to_string(s.amount / unit) + std::string(kSuffixes[i]);
      }
    }
  }
  return std::to_string(s.amount);
}

std::string ExplainSummary(const Explanation& e) {
  std::string s = e.message;
  if (!e.nearest_misses.empty()) {
    s += " Nearest misses:";
    for (size_t i = 0; i < e.nearest_misses.size(); ++i) {
      s += (i ? "; " : " ") + e.nearest_misses[i].text;
    }
    s += ".";
  }
  if (s.size() <= kMaxExplainSummaryBytes) return s;
  size_t cut = kMaxExplainSummaryBytes - 3;
  // Not inside a UTF-8 sequence: back to the byte that starts one.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  s.resize(cut);
  return s + "...";
}

Explanation Scheduler::Explain(const Pod& pod, const ClusterState& state,
                               const PodNominator* nominator) const {
  Explanation e;
  const auto& all = state.NodeList();
  e.num_all_nodes = static_cast<int64_t>(all.size());
  auto finish = [&]() {
    e.summary = ExplainSummary(e);
    return std::move(e);
  };
  if (all.empty()) {
    e.error = true;
    e.message = std::string(kNoNodesAvailableMsg);
    return finish();
  }
  // A copy: nothing here may move the scheduler's random source (and no
  // PostFilter runs, the only caller of RandomInt).
  Mt19937_64 rng = rng_;
  const Framework fw(profile_, state, nominator, rng);
  ScheduleResult r;  // RunPreFilters' diagnosis, FitErrorMessage's input
  r.num_all_nodes = e.num_all_nodes;
  CycleState cs(profile_.num_slots());
  PreFilterResult restriction;
  const bool passed = RunPreFilters(cs, pod, state, r, &restriction);
  if (r.error) {
    e.error = true;
    e.message = r.message;
    return finish();
  }
  e.nodes.resize(all.size());
  std::vector<const NodeInfo*> feasible;
  std::vector<size_t> feasible_at;  // feasible[i]'s index in e.nodes
  for (size_t i = 0; i < all.size(); ++i) {
    const NodeInfo& ni = *all[i];
    NodeExplanation& ne = e.nodes[i];
    ne.node = ni.node()->name;
    if (!passed ||
        (!restriction.all_nodes && !std::binary_search(restriction.node_names.begin(),
                                                       restriction.node_names.end(), ne.node))) {
      ne.verdict = ToVerdict(*r.absent_status, r.absent_status->plugin());
      continue;
    }
    Status s = fw.RunFilterPluginsWithNominatedPods(cs, pod, ni);
    if (s.code() == Code::kError) {
      e.error = true;  // findNodesThatPassFilters: an error ends the cycle
      e.message = s.Message();
      e.nodes.clear();
      return finish();
    }
    ne.verdict = ToVerdict(s, s.plugin());
    for (const FilterPlugin* p : profile_.filter()) {
      if (!cs.skip_filter(p->slot()))
        ne.filters.push_back(ToVerdict(p->Filter(cs, pod, ni), p->Name()));
    }
    if (s.IsSuccess()) {
      feasible.push_back(&ni);
      feasible_at.push_back(i);
    } else {
      r.failures.push_back({&ni, std::move(s)});
    }
  }
  e.feasible_nodes = static_cast<int64_t>(feasible.size());
  if (!passed) {
    e.pre_filter_rejected = true;
    e.pre_filter = ToVerdict(*r.absent_status, r.absent_status->plugin());
  }
  e.reasons = CountReasons(e.nodes);
  e.nearest_misses = NearestMisses(pod, state, e.nodes);
  if (feasible.empty()) {
    e.message = FitErrorMessage(r);
    return finish();
  }
  e.message =
      std::to_string(feasible.size()) + "/" + std::to_string(all.size()) + " nodes are feasible.";
  for (const PreScorePlugin* p : profile_.pre_score()) {
    Status s = p->PreScore(cs, pod, feasible, state);
    if (s.IsSkip()) {
      cs.set_skip_score(p->slot());
    } else if (!s.IsSuccess()) {
      e.error = true;
      e.message = "running PreScore plugin \"" + std::string(p->Name()) + "\": " + s.Message();
      return finish();
    }
  }
  const size_t n = feasible.size();
  for (size_t i : feasible_at) e.nodes[i].scores.reserve(profile_.score().size());
  std::vector<int64_t> column(n);
  for (const auto& [plugin, weight] : profile_.score()) {
    if (cs.skip_score(plugin->slot())) continue;
    std::vector<int64_t> raw(n);
    for (size_t i = 0; i < n; ++i) {
      const Status s = plugin->Score(cs, pod, *feasible[i], &raw[i]);
      if (!s.IsSuccess()) {
        e.error = true;
        e.message = "running Score plugin \"" + std::string(plugin->Name()) + "\": " + s.Message();
        return finish();
      }
    }
    column = raw;
    if (plugin->HasNormalizeScore()) {
      const Status s = plugin->NormalizeScore(cs, pod, std::span<int64_t>(column));
      if (!s.IsSuccess()) {
        e.error = true;
        e.message = "running Normalize on Score plugins: " + s.Message();
        return finish();
      }
    }
    e.score_plugins.emplace_back(plugin->Name());
    e.score_weights.push_back(weight);
    for (size_t i = 0; i < n; ++i) {
      NodeExplanation& ne = e.nodes[feasible_at[i]];
      ne.scores.push_back({raw[i], column[i], column[i] * weight});
      ne.total_score += column[i] * weight;
    }
  }
  return finish();
}

}  // namespace sched

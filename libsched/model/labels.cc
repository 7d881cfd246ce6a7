#include "libsched/model/labels.h"

#include <algorithm>
#include <string_view>

#include "libsched/model/label_syntax.h"

namespace sched {
namespace {

bool Contains(const std::vector<Atom>& sorted, Atom a) {
  return std::binary_search(sorted.begin(), sorted.end(), a);
}

}  // namespace

LabelSet::LabelSet(std::vector<Entry> entries) : entries_(std::move(entries)) {
  // Stable, so among equal keys the input order survives and the last entry
  // of each run is the last value given, as a Go map assignment keeps.
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.first < b.first; });
  size_t out = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (out > 0 && entries_[out - 1].first == entries_[i].first) {
      entries_[out - 1].second = entries_[i].second;
    } else {
      entries_[out++] = entries_[i];
    }
  }
  entries_.resize(out);
}

std::optional<Atom> LabelSet::Get(Atom key) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const Entry& e, Atom k) { return e.first < k; });
  if (it == entries_.end() || it->first != key) return std::nullopt;
  return it->second;
}

bool Requirement::Matches(const LabelSet& labels, const Interner& interner) const {
  const std::optional<Atom> v = labels.Get(key);
  switch (op) {
    case SelectorOp::kIn:
      return v && Contains(values, *v);
    case SelectorOp::kNotIn:
      return !v || !Contains(values, *v);
    case SelectorOp::kExists:
      return v.has_value();
    case SelectorOp::kDoesNotExist:
      return !v.has_value();
    case SelectorOp::kGt:
    case SelectorOp::kLt: {
      if (!v) return false;
      const std::optional<int64_t> n = ParseDecimalInt64(interner.Str(*v));
      if (!n) return false;
      return op == SelectorOp::kGt ? *n > number : *n < number;
    }
  }
  return false;
}

bool NodeSelectorTerm::Matches(const LabelSet& labels, Atom node_name,
                               const Interner& interner) const {
  // Upstream drops empty terms before matching, and a term that failed to
  // parse never matches (LazyErrorNodeSelector).
  if (!valid || (match_expressions.empty() && match_fields.empty())) return false;
  for (const Requirement& r : match_expressions) {
    if (!r.Matches(labels, interner)) return false;
  }
  // Upstream checks fields only when the node has any: a node without a
  // name has an empty field set, and then match_fields are not consulted.
  if (node_name == kNoAtom || interner.Str(node_name).empty()) return true;
  for (const Requirement& r : match_fields) {
    // Only In and NotIn parse for fields (any other operator makes the term
    // invalid), each with a single value.
    const bool in = Contains(r.values, node_name);
    if (r.op == SelectorOp::kIn ? !in : in) return false;
  }
  return true;
}

bool NodeSelector::Matches(const LabelSet& labels, Atom node_name,
                           const Interner& interner) const {
  for (const NodeSelectorTerm& t : terms) {
    if (t.Matches(labels, node_name, interner)) return true;
  }
  return false;
}

bool LabelSelector::Matches(const LabelSet& labels, const Interner& interner) const {
  if (!valid) return false;
  for (const Requirement& r : requirements) {
    if (!r.Matches(labels, interner)) return false;
  }
  return true;
}

}  // namespace sched

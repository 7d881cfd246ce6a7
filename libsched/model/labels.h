// Labels and the selectors that read them, on interned ids.
//
// LabelSet mirrors labels.Set; NodeSelector mirrors v1.NodeSelector as
// evaluated by component-helpers/scheduling/corev1/nodeaffinity
// (LazyErrorNodeSelector: a term with an invalid requirement never matches);
// LabelSelector mirrors metav1.LabelSelector as converted by
// metav1.LabelSelectorAsSelector.
#ifndef LIBSCHED_MODEL_LABELS_H_
#define LIBSCHED_MODEL_LABELS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/model/interner.h"

namespace sched {

// A set of key=value labels, sorted by key id; keys are unique.
class LabelSet {
 public:
  using Entry = std::pair<Atom, Atom>;  // key, value
  LabelSet() = default;
  // Builds from unsorted entries; a repeated key keeps the last value.
  explicit LabelSet(std::vector<Entry> entries);

  // Value id of `key`, or nullopt when absent.
  std::optional<Atom> Get(Atom key) const;
  bool Has(Atom key) const { return Get(key).has_value(); }
  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  bool operator==(const LabelSet& o) const = default;

 private:
  std::vector<Entry> entries_;
};

// Selector operators of NodeSelectorRequirement and LabelSelectorRequirement.
enum class SelectorOp : uint8_t { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };

// One requirement on a label. `values` are sorted ids (In/NotIn); `number`
// is the parsed value of Gt/Lt. `valid` is false when the API object could
// not form a selector (e.g. In with no values, Gt with a non-integer):
// upstream then treats the whole term as not matching.
struct Requirement {
  Atom key = kNoAtom;
  SelectorOp op = SelectorOp::kIn;
  std::vector<Atom> values;
  int64_t number = 0;
  bool valid = true;

  // REQUIRES: valid. `interner` resolves label values for Gt/Lt.
  bool Matches(const LabelSet& labels, const Interner& interner) const;
  bool operator==(const Requirement& o) const = default;
};

// v1.NodeSelectorTerm: all match_expressions on labels and all match_fields
// on metadata.name must hold. A term with neither matches nothing.
struct NodeSelectorTerm {
  std::vector<Requirement> match_expressions;
  std::vector<Requirement> match_fields;  // key is always "metadata.name"
  bool valid = true;                      // false if any requirement is invalid

  bool Matches(const LabelSet& labels, Atom node_name,
               const Interner& interner) const;
  bool operator==(const NodeSelectorTerm& o) const = default;
};

// v1.NodeSelector: terms are ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
  bool Matches(const LabelSet& labels, Atom node_name,
               const Interner& interner) const;
};

// v1.PreferredSchedulingTerm.
struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
};

// metav1.LabelSelector compiled: matchLabels become In requirements. An
// empty selector matches everything; a nil selector is represented by the
// absence of a LabelSelector (std::optional) at the use site.
struct LabelSelector {
  std::vector<Requirement> requirements;
  bool valid = true;
  bool Matches(const LabelSet& labels, const Interner& interner) const;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_LABELS_H_

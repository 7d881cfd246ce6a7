#include "libsched/framework/node_to_status.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "libsched/framework/same_views.h"

namespace sched {

NodeToStatus::NodeToStatus(std::span<const NodeFailure> failures, const Status* absent)
    : absent_(absent ? absent->code() : Code::kUnschedulableAndUnresolvable) {
  // A snapshot's indexes run from 0: sized once, not grown a node at a time.
  by_index_.resize(failures.size());
  for (const NodeFailure& f : failures) {
    const uint32_t i = f.node->index();
    if (i != NodeInfo::kNoIndex && i >= by_index_.size()) by_index_.resize(i + 1);
    if (i == NodeInfo::kNoIndex || (by_index_[i].node != nullptr && by_index_[i].node != f.node)) {
      others_[f.node] = f.status.code();
    } else {
      by_index_[i] = {f.node, f.status.code()};
    }
  }
}

Code NodeToStatus::CodeFor(const NodeInfo* node) const {
  if (node != nullptr && node->index() < by_index_.size() &&
      by_index_[node->index()].node == node) {
    return by_index_[node->index()].code;
  }
  if (others_.empty()) return absent_;
  auto it = others_.find(node);
  return it == others_.end() ? absent_ : it->second;
}

std::vector<const NodeInfo*> NodeToStatus::NodesForStatusCode(
    std::span<const NodeInfo* const> all, Code code) const {
  std::vector<const NodeInfo*> out;
  for (const NodeInfo* n : all) {
    if (CodeFor(n) == code) out.push_back(n);
  }
  return out;
}

std::string ReasonsHistogram(int64_t num_all_nodes, std::span<const NodeFailure> failures,
                             const Status* absent) {
  std::map<std::string_view, int64_t> histogram;
  // A run of one verdict (SameViews) counts its reasons once, by its length.
  for (size_t i = 0; i < failures.size();) {
    const Status& st = failures[i].status;
    size_t end = i + 1;
    while (end < failures.size() && SameViews(failures[end].status, st)) ++end;
    for (auto reason : st.reasons()) histogram[reason] += static_cast<int64_t>(end - i);
    i = end;
  }
  const int64_t num_absent = num_all_nodes - static_cast<int64_t>(failures.size());
  if (absent != nullptr && num_absent > 0) {
    for (auto reason : absent->reasons()) histogram[reason] += num_absent;
  }
  // Upstream sorts the formatted "<count> <reason>" strings, count included.
  std::vector<std::string> entries;
  for (const auto& [reason, count] : histogram) {
    entries.push_back(std::to_string(count) + " " + std::string(reason));
  }
  std::sort(entries.begin(), entries.end());
  std::string msg;
  for (size_t i = 0; i < entries.size(); ++i) msg += (i ? ", " : " ") + entries[i];
  if (!entries.empty()) msg += ".";
  return msg;
}

}  // namespace sched

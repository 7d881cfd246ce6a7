// NodeFailures: the nodes a cycle's Filter plugins rejected, in evaluation
// order (ScheduleResult::failures). Either the cycle's own, appended as it
// walked, or a failure memo's, shared and read rotated: replaying a memo
// over thousands of nodes then costs O(1), not a copy (and a destruction)
// of a Status per node.
//
// Thread-safety: const methods may be called concurrently.
#ifndef LIBSCHED_FRAMEWORK_NODE_FAILURES_H_
#define LIBSCHED_FRAMEWORK_NODE_FAILURES_H_

#include <cstddef>
#include <iterator>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "libsched/framework/node_to_status.h"

namespace sched {

class NodeFailures {
 public:
  // Walks the shared vector from the shift to its end, then from its
  // start: a pointer step and a compare per failure.
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = NodeFailure;
    using difference_type = std::ptrdiff_t;
    using pointer = const NodeFailure*;
    using reference = const NodeFailure&;
    Iterator() = default;
    reference operator*() const { return *p_; }
    pointer operator->() const { return p_; }
    Iterator& operator++() {
      ++i_;
      if (++p_ == wrap_at_) p_ = wrap_to_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const Iterator& o) const { return i_ == o.i_; }

   private:
    friend class NodeFailures;
    Iterator(const NodeFailure* p, const NodeFailure* wrap_at, const NodeFailure* wrap_to,
             size_t i)
        : p_(p), wrap_at_(wrap_at), wrap_to_(wrap_to), i_(i) {}
    const NodeFailure* p_ = nullptr;
    const NodeFailure* wrap_at_ = nullptr;
    const NodeFailure* wrap_to_ = nullptr;
    size_t i_ = 0;  // position: what == compares
  };

  // Appends one of the cycle's own failures. REQUIRES: nothing shared.
  void push_back(NodeFailure f) { own_.push_back(std::move(f)); }
  void reserve(size_t n) { own_.reserve(n); }
  // Moves the cycle's own failures out, leaving none (for a memo that
  // keeps them and hands them back through Share). REQUIRES: nothing
  // shared.
  std::vector<NodeFailure> TakeOwn() { return std::exchange(own_, {}); }
  // Makes these failures `all` from index `shift` on, then `all`'s first
  // `shift`, held (not copied) while this lives. REQUIRES: empty,
  // shift < all->size() (or all empty).
  void Share(std::shared_ptr<const std::vector<NodeFailure>> all, size_t shift) {
    shared_ = std::move(all);
    shift_ = shift;
  }

  size_t size() const { return items().size(); }
  bool empty() const { return items().empty(); }
  // REQUIRES: i < size().
  const NodeFailure& operator[](size_t i) const {
    const std::vector<NodeFailure>& v = items();
    const size_t j = shift_ + i;
    return v[j < v.size() ? j : j - v.size()];
  }
  Iterator begin() const {
    const std::vector<NodeFailure>& v = items();
    return {v.data() + shift_, v.data() + v.size(), v.data(), 0};
  }
  Iterator end() const { return {nullptr, nullptr, nullptr, size()}; }
  // Every failure once, in an order that is a rotation of the evaluation
  // order (the order itself for the cycle's own): for readers that count
  // or look up, not for those that list.
  std::span<const NodeFailure> AnyOrder() const { return items(); }

 private:
  const std::vector<NodeFailure>& items() const { return shared_ ? *shared_ : own_; }

  std::vector<NodeFailure> own_;
  std::shared_ptr<const std::vector<NodeFailure>> shared_;  // null: own_
  size_t shift_ = 0;                                        // into *shared_
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_NODE_FAILURES_H_

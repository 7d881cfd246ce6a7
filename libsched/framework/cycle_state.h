// CycleState: per-pod scratch shared by one plugin's extension points within
// one scheduling cycle (fwk.CycleState). Each plugin owns a slot assigned by
// its Profile, so reads are an index, not a map lookup under a lock.
//
// Clone is shallow: clones share slot data until one of them takes a
// private copy with CopyOnWrite (what AddPod / RemovePod do when the
// nominated-pods pass or preemption adjusts a plugin's state for one node).
//
// A cycle of a pod of an equivalence class may also be lent the class's
// memos (ClassMemos): what a plugin keeps from one cycle of the class to
// the next.
//
// Thread-safety: written during PreFilter / PreScore (single thread); read
// concurrently by Filter / Score. Distinct clones may be used concurrently,
// except for their class memo (only PreScore uses it).
#ifndef LIBSCHED_FRAMEWORK_CYCLE_STATE_H_
#define LIBSCHED_FRAMEWORK_CYCLE_STATE_H_

#include <algorithm>
#include <memory>
#include <vector>

namespace sched {

class StateData {
 public:
  virtual ~StateData() = default;
};

// Per equivalence class (libsched/ecache keeps one for each class and lends
// it to the class's cycles, from the filter walk on), one entry per plugin
// slot, which the plugin owns: it keeps there what it derived in one cycle
// and reuses it in a later one. The class signature (PodSigner) covers
// only what the plugins' SignPod feeds, so a plugin stores with its entry
// the key it checks before a reuse (the pod fields and cluster-state
// generations it read).
using ClassMemos = std::vector<std::unique_ptr<StateData>>;

class CycleState {
 public:
  explicit CycleState(size_t num_slots)
      : data_(num_slots), skip_filter_(num_slots), skip_score_(num_slots) {}

  CycleState(CycleState&&) = default;
  CycleState& operator=(CycleState&&) = default;

  // Shallow copy (fwk.CycleState.Clone).
  CycleState Clone() const { return *this; }
  // Makes this a Clone() of `other` in place, reusing this one's storage:
  // for a clone taken again and again (per node in preemption's dry run).
  void CopyFrom(const CycleState& other) { *this = other; }
  // Drops every slot's data and the class memos (what a clone shares),
  // keeping the storage for a later CopyFrom.
  void Reset() {
    for (auto& d : data_) d.reset();
    class_memos_.reset();
  }
  // Reset, and the skip marks cleared too: as new, in this one's storage
  // (a cycle's state taken back for the next cycle, Scheduler::Recycle).
  void Clear() {
    Reset();
    std::fill(skip_filter_.begin(), skip_filter_.end(), false);
    std::fill(skip_score_.begin(), skip_score_.end(), false);
  }

  // Pass what std::make_shared made: a unique_ptr converts too, but then
  // costs a second allocation (the count's).
  void Write(size_t slot, std::shared_ptr<StateData> d) { data_[slot] = std::move(d); }
  // REQUIRES: the slot holds a T (or nothing: returns null).
  template <class T>
  const T* Read(size_t slot) const {
    return static_cast<const T*>(data_[slot].get());
  }
  template <class T>
  T* Mutable(size_t slot) {
    return static_cast<T*>(data_[slot].get());
  }
  // Like Mutable, but first gives this CycleState its own copy of the slot's
  // data if a clone shares it. REQUIRES: T is copy-constructible.
  template <class T>
  T* CopyOnWrite(size_t slot) {
    if (data_[slot] != nullptr && data_[slot].use_count() > 1) {
      data_[slot] = std::make_shared<T>(*static_cast<const T*>(data_[slot].get()));
    }
    return Mutable<T>(slot);
  }

  // PreFilter returned Skip: the plugin's Filter is not run (SkipFilterPlugins).
  void set_skip_filter(size_t slot) { skip_filter_[slot] = true; }
  bool skip_filter(size_t slot) const { return skip_filter_[slot]; }
  // Lends this cycle its class's memos (null: the cycle has no class).
  void set_class_memos(std::shared_ptr<ClassMemos> memos) {
    if (memos != nullptr && memos->size() < data_.size()) memos->resize(data_.size());
    class_memos_ = std::move(memos);
  }
  // The class memo entry of `slot`, or null when the cycle has no class.
  // (Not part of the cycle's state: a const CycleState lends it too.)
  std::unique_ptr<StateData>* class_memo(size_t slot) const {
    return class_memos_ == nullptr ? nullptr : &(*class_memos_)[slot];
  }

  // PreScore returned Skip: the plugin's Score is not run (SkipScorePlugins).
  void set_skip_score(size_t slot) { skip_score_[slot] = true; }
  bool skip_score(size_t slot) const { return skip_score_[slot]; }

 private:
  CycleState(const CycleState&) = default;
  CycleState& operator=(const CycleState&) = default;

  std::vector<std::shared_ptr<StateData>> data_;
  std::vector<bool> skip_filter_;
  std::vector<bool> skip_score_;
  std::shared_ptr<ClassMemos> class_memos_;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_CYCLE_STATE_H_

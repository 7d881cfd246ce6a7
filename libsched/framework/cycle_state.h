// CycleState: per-pod scratch shared by one plugin's extension points within
// one scheduling cycle (fwk.CycleState). Each plugin owns a slot assigned by
// its Profile, so reads are an index, not a map lookup under a lock.
//
// Clone is shallow: clones share slot data until one of them takes a
// private copy with CopyOnWrite (what AddPod / RemovePod do when the
// nominated-pods pass or preemption adjusts a plugin's state for one node).
//
// Thread-safety: written during PreFilter / PreScore (single thread); read
// concurrently by Filter / Score. Distinct clones may be used concurrently.
#ifndef LIBSCHED_FRAMEWORK_CYCLE_STATE_H_
#define LIBSCHED_FRAMEWORK_CYCLE_STATE_H_

#include <memory>
#include <vector>

namespace sched {

class StateData {
 public:
  virtual ~StateData() = default;
};

class CycleState {
 public:
  explicit CycleState(size_t num_slots)
      : data_(num_slots), skip_filter_(num_slots), skip_score_(num_slots) {}

  CycleState(CycleState&&) = default;
  CycleState& operator=(CycleState&&) = default;

  // Shallow copy (fwk.CycleState.Clone).
  CycleState Clone() const { return *this; }

  void Write(size_t slot, std::unique_ptr<StateData> d) { data_[slot] = std::move(d); }
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
  // PreScore returned Skip: the plugin's Score is not run (SkipScorePlugins).
  void set_skip_score(size_t slot) { skip_score_[slot] = true; }
  bool skip_score(size_t slot) const { return skip_score_[slot]; }

 private:
  CycleState(const CycleState&) = default;

  std::vector<std::shared_ptr<StateData>> data_;
  std::vector<bool> skip_filter_;
  std::vector<bool> skip_score_;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_CYCLE_STATE_H_

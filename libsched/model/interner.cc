#include "libsched/model/interner.h"

#include <algorithm>

namespace sched {
namespace {

// refs_ of a freed id; no reference count gets there.
constexpr uint32_t kFree = UINT32_MAX - 1;

}  // namespace

AtomRefs::~AtomRefs() {
  for (Atom a : atoms_) in_->Release(a);
}

Atom Interner::Add(std::string_view s) {
  Atom id;
  const bool reused = !reusable_.empty();
  if (reused) {
    id = reusable_.back();
    reusable_.pop_back();
    strings_[id] = s;
    refs_[id].store(0, std::memory_order_relaxed);
  } else {
    id = static_cast<Atom>(strings_.size());
    strings_.emplace_back(s);
    refs_.emplace_back(0);
  }
  ids_.emplace(strings_[id], id);
  if (checkpoints_ > 0) created_.emplace_back(id, reused);
  return id;
}

void Interner::PinId(Atom a) {
  std::atomic<uint32_t>& r = refs_[a];
  const uint32_t old = r.exchange(kPinned, std::memory_order_relaxed);
  if (old == 0) {
    held_.fetch_add(1, std::memory_order_relaxed);
    held_bytes_.fetch_add(strings_[a].size(), std::memory_order_relaxed);
  }
}

Atom Interner::Intern(std::string_view s) {
  auto it = ids_.find(s);
  const Atom id = it != ids_.end() ? it->second : Add(s);
  std::atomic<uint32_t>& r = refs_[id];
  if (recording_ == nullptr) {
    PinId(id);
  } else if (r.load(std::memory_order_relaxed) != kPinned) {
    if (r.fetch_add(1, std::memory_order_relaxed) == 0) {
      held_.fetch_add(1, std::memory_order_relaxed);
      held_bytes_.fetch_add(s.size(), std::memory_order_relaxed);
    }
    recording_->push_back(id);
  }
  return id;
}

Atom Interner::Pin(std::string_view s) {
  auto it = ids_.find(s);
  const Atom id = it != ids_.end() ? it->second : Add(s);
  PinId(id);
  return id;
}

Atom Interner::Find(std::string_view s) const {
  auto it = ids_.find(s);
  return it == ids_.end() ? kNoAtom : it->second;
}

void Interner::Release(Atom a) {
  std::atomic<uint32_t>& r = refs_[a];
  if (r.load(std::memory_order_relaxed) == kPinned) return;
  if (r.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    held_.fetch_sub(1, std::memory_order_relaxed);
    held_bytes_.fetch_sub(strings_[a].size(), std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(dying_mu_);
    dying_.push_back(a);
  }
}

void Interner::Free(Atom a) {
  std::string& s = strings_[a];
  ids_.erase(s);
  std::string().swap(s);  // give the characters back
  refs_[a].store(kFree, std::memory_order_relaxed);
}

size_t Interner::Checkpoint() {
  if (checkpoints_++ == 0) {
    std::lock_guard<std::mutex> lock(dying_mu_);
    dying_mark_ = dying_.size();
  }
  return created_.size();
}

void Interner::Rollback(size_t mark) {
  while (created_.size() > mark) {
    const auto [id, reused] = created_.back();
    created_.pop_back();
    if (refs_[id].load(std::memory_order_relaxed) == kPinned) {
      held_.fetch_sub(1, std::memory_order_relaxed);
      held_bytes_.fetch_sub(strings_[id].size(), std::memory_order_relaxed);
    }
    Free(id);
    if (reused) {
      reusable_.push_back(id);
    } else {  // the last one appended is the last one still there
      strings_.pop_back();
      refs_.pop_back();
    }
  }
  if (checkpoints_ == 1) {  // the releases of what the call decoded go too
    std::lock_guard<std::mutex> lock(dying_mu_);
    dying_.resize(dying_mark_);
  }
  Accept(mark);
}

void Interner::Accept(size_t /*mark*/) {
  if (--checkpoints_ == 0) created_.clear();
}

void Interner::Collect() {
  std::vector<Atom> dying;
  {
    std::lock_guard<std::mutex> lock(dying_mu_);
    if (dying_.size() < std::max(min_free_batch_, held() / 4)) return;
    dying.swap(dying_);
  }
  // Sorted, so ids are reused in an order that does not depend on which
  // thread released what first; an id released, held again and released
  // is listed twice.
  std::sort(dying.begin(), dying.end());
  dying.erase(std::unique(dying.begin(), dying.end()), dying.end());
  const size_t reusable = reusable_.size();
  // Reused last in, first out: the lowest ids first.
  for (auto it = dying.rbegin(); it != dying.rend(); ++it) {
    // Skip ids a rollback removed, and ids held again since.
    if (*it >= refs_.size() || refs_[*it].load(std::memory_order_relaxed) != 0) continue;
    Free(*it);
    reusable_.push_back(*it);
  }
  if (reusable_.size() != reusable) ++reuse_epoch_;
}

AtomRecorder::~AtomRecorder() {
  if (!open_) return;
  Close();
  for (Atom a : atoms_) in_.Release(a);
}

AtomHold AtomRecorder::Finish() {
  Close();
  if (atoms_.empty()) return nullptr;
  return std::make_shared<const AtomRefs>(&in_, std::move(atoms_));
}

void AtomRecorder::Close() {
  in_.recording_ = outer_;
  open_ = false;
}

}  // namespace sched

#include "libsched/model/interner.h"

#include <algorithm>
#include <new>

namespace sched {
namespace {

// refs_ of a freed id; no reference count gets there.
constexpr uint32_t kFree = UINT32_MAX - 1;

}  // namespace

AtomRefs::~AtomRefs() {
  for (Atom a : atoms_) in_->Release(a);
}

Atom Interner::Add(std::string_view s) {
  // Exception-safe: every step that can fail comes before the first change,
  // or is undone, so a decode that runs out of memory leaves no trace.
  // A shared interner's Rollback removes nothing, so it records nothing.
  const bool record = checkpoints_ > 0 && !shared_;
  // Grown geometrically: reserving one more each time would copy the whole
  // record on every new string (quadratic over a large apply).
  if (record && created_.size() == created_.capacity()) {
    created_.reserve(std::max<size_t>(16, 2 * created_.capacity()));
  }
  std::string str(s);
  const bool reused = !reusable_.empty();
  Atom id;
  if (reused) {
    id = reusable_.back();
    strings_[id] = std::move(str);
  } else {
    id = static_cast<Atom>(strings_.size());
    strings_.push_back(std::move(str));
    try {
      refs_.emplace_back(0);
    } catch (...) {
      strings_.pop_back();
      throw;
    }
  }
  try {
    ids_.emplace(strings_[id], id);
  } catch (...) {
    if (reused) {
      std::string().swap(strings_[id]);
    } else {
      strings_.pop_back();
      refs_.pop_back();
    }
    throw;
  }
  if (reused) {
    reusable_.pop_back();
    refs_[id].store(0, std::memory_order_relaxed);
  }
  if (record) created_.emplace_back(id, reused);  // reserved above
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
    // One allocation for most objects (a pod interns about 10 strings).
    if (recording_->empty()) recording_->reserve(16);
    recording_->push_back(id);  // first: if it throws, no count was taken
    if (r.fetch_add(1, std::memory_order_relaxed) == 0) {
      held_.fetch_add(1, std::memory_order_relaxed);
      held_bytes_.fetch_add(s.size(), std::memory_order_relaxed);
    }
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
    // Called from destructors: out of memory here keeps the string until
    // the engine is freed instead of terminating (a failed call's own
    // releases are dropped by Rollback anyway).
    try {
      dying_.push_back(a);
    } catch (const std::bad_alloc&) {
    }
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
  if (shared_) {
    // A failed call's strings were released with the objects decoded from
    // them, so they are in dying_ already (Release). Checkpoints of
    // siblings' transactions need not end in order: nothing to pop.
    Accept(mark);
    return;
  }
  // A freed id goes to the next new string: caches that may have seen the
  // old one (a memo made by a cycle of the failed call) must know.
  if (created_.size() > mark) ++reuse_epoch_;
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
  if (checkpoints_ > 0) return;  // a Rollback may still remove ids
  std::vector<Atom> dying;
  {
    std::lock_guard<std::mutex> lock(dying_mu_);
    if (dying_.size() < std::max(min_free_batch_, held() / 4)) return;
    // Reserved first: Collect runs from destructors and must not throw;
    // without the room it frees nothing now and tries again next call.
    try {
      reusable_.reserve(reusable_.size() + dying_.size());
    } catch (const std::bad_alloc&) {
      return;
    }
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
  if (atoms_.empty()) {
    Close();
    return nullptr;
  }
  // Allocated while still open: if it throws, the destructor releases.
  AtomHold hold = std::make_shared<const AtomRefs>(&in_, std::move(atoms_));
  Close();
  return hold;
}

void AtomRecorder::Close() {
  in_.recording_ = outer_;
  open_ = false;
}

}  // namespace sched

// Interner maps strings (label keys and values, resource names, image names)
// to dense 32-bit ids, so the scheduling hot path compares integers.
//
// Reclaiming. Strings of objects that come and go (a StatefulSet pod's
// name label, a Job's controller-uid) would otherwise grow the interner
// for ever, so ids are reference counted by the objects that hold them:
//  - The decoder of an object opens an AtomRecorder; every Intern() while
//    it is open counts one reference, recorded in it, and Finish() hands
//    them to an AtomHold the object keeps (shared by its copies). When the
//    last copy goes, the hold releases its references.
//  - Intern() with no recorder open pins the id for the interner's life:
//    config, plugin args, queueing hints, and anything whose holders are
//    not objects (resource names: NodeInfo keeps zero-valued sums of them).
//    A holder nobody thought of thus keeps its id rather than losing it.
//  - Derived structures (ClusterState's indexes, NodeInfo) hold ids only
//    while an object holding them is in the state; their entries go when
//    the objects do (an empty entry left behind, as TopologyDomains' key
//    of no node, is the same as a fresh one for whichever string gets the
//    id next).
//  - A string whose count fell to zero is released but kept, so one that
//    comes back soon (the namespace and image of a pod scheduled without
//    being assumed, again and again) keeps its id, and with it its
//    equivalence class. Collect() frees the released strings in batches
//    (a quarter of the held ones, at least the batch minimum) and makes
//    their ids reusable; each batch bumps reuse_epoch(), and caches keyed
//    by ids of pods that may be gone (the equivalence cache's pod
//    signatures) drop everything when it changes. So an id is reused only
//    when no object holds it and no cache can mistake its new string for
//    the old one. Reference counts rather than periodic mark-and-sweep:
//    the cost is per object decoded and freed, not per cycle, and no
//    traversal of every holder has to be kept in step with new holders.
//
// Rollback. Checkpoint()/Rollback() undo the strings created since (new
// ids and reused ones, in reverse) and the releases recorded since, so a
// call that fails leaves the interner as it was (a string it pinned that
// existed stays pinned); the objects it decoded must be gone first. Its
// freed ids may go to other strings next, so reuse_epoch() moves too: a
// cache keyed by ids never needs its caller to have cleared it.
//
// Shared (Share(): engines of a fork family use one interner under one
// lock). A checkpoint's strings may then be held by a sibling, or be a
// sibling's, made while the checkpoint was open, so Rollback frees none:
// those nobody holds are released (for Collect, which waits until no
// checkpoint is open), those pinned stay. A failed call of a forked engine
// may thus leave released strings behind until the next Collect.
//
// Thread-safety: Intern, Pin, Share, Checkpoint, Rollback, Accept and Collect
// mutate and need external synchronization (the engine's lock, no cycle
// running). Find() and Str() are const and may run concurrently with each
// other and with an AtomHold's release (atomic counts), not with mutation.
#ifndef LIBSCHED_MODEL_INTERNER_H_
#define LIBSCHED_MODEL_INTERNER_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sched {

using Atom = uint32_t;
inline constexpr Atom kNoAtom = UINT32_MAX;

class Interner;

// References to ids held by one decoded object and its copies.
class AtomRefs {
 public:
  AtomRefs(Interner* in, std::vector<Atom> atoms) : in_(in), atoms_(std::move(atoms)) {}
  AtomRefs(const AtomRefs&) = delete;
  AtomRefs& operator=(const AtomRefs&) = delete;
  ~AtomRefs();

 private:
  Interner* in_;
  std::vector<Atom> atoms_;
};
using AtomHold = std::shared_ptr<const AtomRefs>;

class Interner {
 public:
  // Released strings are freed when at least this many (and a quarter of
  // the held ones) are.
  static constexpr size_t kMinFreeBatch = 4096;

  explicit Interner(size_t min_free_batch = kMinFreeBatch) : min_free_batch_(min_free_batch) {}
  Interner(const Interner&) = delete;
  Interner& operator=(const Interner&) = delete;

  // Returns the id of `s`, adding it when new, and counts a reference:
  // recorded in the innermost open AtomRecorder, or pinned when none is.
  Atom Intern(std::string_view s);
  // Returns the id of `s`, adding it when new, and pins it.
  Atom Pin(std::string_view s);
  // Returns the id of `s`, or kNoAtom when it is not interned.
  Atom Find(std::string_view s) const;
  // REQUIRES: `a` is held (returned by Intern() and not released).
  const std::string& Str(Atom a) const { return strings_[a]; }
  // The strings stored: held (or pinned), or released and not yet freed.
  size_t size() const { return strings_.size() - reusable_.size(); }
  // The strings held or pinned, and their characters.
  size_t held() const { return held_.load(std::memory_order_relaxed); }
  size_t held_bytes() const { return held_bytes_.load(std::memory_order_relaxed); }
  // Changes whenever ids become reusable: a Collect batch, or a Rollback
  // that forgets strings.
  uint64_t reuse_epoch() const { return reuse_epoch_; }

  // From now on, engines that serialize on one lock share this interner
  // (see Shared above). One-way.
  void Share() { shared_ = true; }
  bool shared() const { return shared_; }

  // Starts recording the strings created from now on; returns the mark
  // Rollback and Accept take. Checkpoints nest.
  size_t Checkpoint();
  // Forgets the strings created since `mark`. REQUIRES: nothing holds them.
  void Rollback(size_t mark);
  // Keeps them.
  void Accept(size_t mark);
  // Frees the released strings, and makes their ids reusable, when they
  // make a batch. Does nothing while a checkpoint is open.
  void Collect();

 private:
  friend class AtomRecorder;
  friend class AtomRefs;
  static constexpr uint32_t kPinned = UINT32_MAX;

  Atom Add(std::string_view s);
  void PinId(Atom a);
  void Release(Atom a);
  void Free(Atom a);

  std::deque<std::string> strings_;                 // deque: references stay valid as it grows
  std::deque<std::atomic<uint32_t>> refs_;          // by id; kPinned sticks
  std::unordered_map<std::string_view, Atom> ids_;  // views into strings_
  const size_t min_free_batch_;
  std::atomic<size_t> held_ = 0;
  std::atomic<size_t> held_bytes_ = 0;
  std::vector<Atom> reusable_;  // a stack of freed ids
  uint64_t reuse_epoch_ = 0;
  // Strings created since the outermost checkpoint: the id, and whether it
  // came from reusable_ (else it was appended).
  std::vector<std::pair<Atom, bool>> created_;
  int checkpoints_ = 0;
  bool shared_ = false;
  std::vector<Atom>* recording_ = nullptr;
  std::mutex dying_mu_;
  std::vector<Atom> dying_;  // guarded by dying_mu_: counts that reached 0
  size_t dying_mark_ = 0;    // dying_.size() at the outermost checkpoint
};

// Records the references Intern() counts while it is open (the innermost
// recorder wins). Unless Finish() hands them to a hold, they are released
// when it closes (the decode failed).
class AtomRecorder {
 public:
  explicit AtomRecorder(Interner& in) : in_(in), outer_(in.recording_) { in.recording_ = &atoms_; }
  AtomRecorder(const AtomRecorder&) = delete;
  AtomRecorder& operator=(const AtomRecorder&) = delete;
  ~AtomRecorder();
  // The hold of the recorded references (null when none); closes it.
  AtomHold Finish();

 private:
  void Close();
  Interner& in_;
  std::vector<Atom>* outer_;
  std::vector<Atom> atoms_;
  bool open_ = true;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_INTERNER_H_

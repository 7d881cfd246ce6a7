// Interner maps strings (label keys and values, resource names, image names)
// to dense 32-bit ids, so the scheduling hot path compares integers.
//
// Thread-safety: Intern() mutates and needs external synchronization; Find()
// and Str() are const and may run concurrently with each other, but not with
// Intern(). The engine interns only while it holds its write lock.
#ifndef LIBSCHED_MODEL_INTERNER_H_
#define LIBSCHED_MODEL_INTERNER_H_

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sched {

using Atom = uint32_t;
inline constexpr Atom kNoAtom = UINT32_MAX;

class Interner {
 public:
  Interner() = default;
  Interner(const Interner&) = delete;
  Interner& operator=(const Interner&) = delete;

  // Returns the id of `s`, adding it when new. Ids are never reused, except
  // after Truncate.
  Atom Intern(std::string_view s);
  // Forgets the strings interned since size() was `size`, so that input
  // which failed to decode leaves no trace. REQUIRES: size <= size() and no
  // live object holds an id >= size.
  void Truncate(size_t size);
  // Returns the id of `s`, or kNoAtom when it was never interned.
  Atom Find(std::string_view s) const;
  // REQUIRES: `a` was returned by Intern().
  const std::string& Str(Atom a) const { return strings_[a]; }
  size_t size() const { return strings_.size(); }

 private:
  std::deque<std::string> strings_;  // deque: references stay valid as it grows
  std::unordered_map<std::string_view, Atom> ids_;  // views into strings_
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_INTERNER_H_

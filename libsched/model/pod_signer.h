// PodSigner: the canonical encoding behind a pod's equivalence class
// signature (libsched/ecache). Plugins feed it the pod fields they read
// (Plugin::SignPod); Finish() is XXH3-64 over the encoding.
//
// The encoding is length-prefixed and tagged per plugin, so two pods get
// the same signature only when every fed field is equal. Interned ids are
// encoded as ids: an id keeps its meaning while a pod holds it, and the
// Scheduler drops its cache when released ids become reusable (the
// interner's reuse_epoch, libsched/model/interner.h), so an id never
// changes meaning while a class that used it is cached.
//
// Thread-safety: none; one signer per scheduling thread.
#ifndef LIBSCHED_MODEL_POD_SIGNER_H_
#define LIBSCHED_MODEL_POD_SIGNER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "libsched/model/labels.h"
#include "libsched/model/pod.h"
#include "libsched/model/resource.h"
#include "libsched/model/taint.h"

namespace sched {

class PodSigner {
 public:
  // Starts a new signature; keeps the buffer.
  void Clear() { len_ = 0; }
  // Starts the section of the plugin `name`.
  void Section(std::string_view name) { Add(name); }

  // Little-endian fixed width, whatever the host. Inline, one store into
  // room kept ahead: a cycle feeds ~60 of these, and std::string::append
  // (an out-of-line call and a memcpy call each) cost ~90 instructions.
  void Add(int64_t v) {
    const uint64_t u = static_cast<uint64_t>(v);
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((u >> (8 * i)) & 0xff);
    std::memcpy(Room(sizeof b), b, sizeof b);
  }
  void Add(std::string_view s);
  void Add(const Resource& r);
  void Add(const Requirement& r);
  void Add(const NodeSelectorTerm& t);
  void Add(const std::optional<NodeSelector>& s);
  void Add(const PreferredSchedulingTerm& t);
  void Add(const Toleration& t);
  void Add(const HostPort& p);
  void Add(const LabelSelector& s);
  void Add(const AffinityTerm& t);
  // A list: its length, then each element.
  template <class T>
  void AddAll(std::span<const T> items) {
    Add(static_cast<int64_t>(items.size()));
    for (const T& x : items) Add(x);
  }

  // XXH3-64 of everything fed since Clear().
  uint64_t Finish() const;
  // The encoding itself (for tests).
  std::string_view bytes() const { return {buf_.data(), len_}; }

 private:
  // Where the next `n` bytes go; counts them fed.
  char* Room(size_t n) {
    if (buf_.size() - len_ < n) Grow(n);
    char* at = buf_.data() + len_;
    len_ += n;
    return at;
  }
  void Grow(size_t n);

  // buf_[0, len_) is the encoding; the rest is room (its size only grows).
  std::string buf_;
  size_t len_ = 0;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_SIGNER_H_

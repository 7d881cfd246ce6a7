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

#include <cstdint>
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
  // Starts a new signature; keeps the buffer's capacity.
  void Clear() { buf_.clear(); }
  // Starts the section of the plugin `name`.
  void Section(std::string_view name) { Add(name); }

  // Little-endian fixed width, whatever the host; one append (the byte
  // loop compiles to one store).
  void Add(int64_t v) {
    const uint64_t u = static_cast<uint64_t>(v);
    char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((u >> (8 * i)) & 0xff);
    buf_.append(b, sizeof b);
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
  std::string_view bytes() const { return buf_; }

 private:
  std::string buf_;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_SIGNER_H_

// Namespace: the parts of a core/v1 Namespace the scheduler reads — its
// labels, which namespaceSelector of pod (anti-)affinity terms select on
// (interpodaffinity/plugin.go reads them through a namespace lister).
#ifndef LIBSCHED_MODEL_NAMESPACE_H_
#define LIBSCHED_MODEL_NAMESPACE_H_

#include <string>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

struct Namespace {
  std::string name;          // metadata.name
  Atom name_atom = kNoAtom;  // name, interned (Pod::ns_atom)
  LabelSet labels;           // metadata.labels
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_NAMESPACE_H_

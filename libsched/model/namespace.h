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
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_NAMESPACE_H_

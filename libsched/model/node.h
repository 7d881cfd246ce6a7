// Node: the parts of a core/v1 Node the scheduler reads, decoded once.
#ifndef LIBSCHED_MODEL_NODE_H_
#define LIBSCHED_MODEL_NODE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/resource.h"
#include "libsched/model/taint.h"

namespace sched {

// One entry of node.status.images: every name the image is known by
// (tags and digests, as the kubelet reports them) and its size in bytes.
struct ContainerImage {
  std::vector<Atom> names;
  int64_t size_bytes = 0;
};

// One entry of the node annotation scheduler.alpha.kubernetes.io/preferAvoidPods
// (v1.PreferAvoidPodsEntry): pods whose controller has this kind and uid
// (podSignature.podController) should avoid the node.
struct AvoidPodsEntry {
  std::string kind;
  std::string uid;
};

struct Node {
  std::string name;
  Atom name_atom = kNoAtom;  // name, interned (matchFields metadata.name)
  LabelSet labels;
  std::vector<Taint> taints;  // spec.taints
  bool unschedulable = false;  // spec.unschedulable
  Resource allocatable;        // status.allocatable
  std::vector<ContainerImage> images;  // status.images
  // The preferAvoidPods annotation's entries that name a podController, in
  // order; empty when the annotation is absent or malformed (ignored, as
  // upstream's v1helper.GetAvoidPodsFromNodeAnnotations error is).
  std::vector<AvoidPodsEntry> prefer_avoid_pods;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_NODE_H_

// EnqueueExtensions and PreEnqueue: how plugins tell the scheduling queue
// which cluster events may make a pod they rejected schedulable, and which
// pods may not enter activeQ at all. Mirrors fwk.EnqueueExtensions,
// fwk.ClusterEventWithHint, fwk.QueueingHintFn and fwk.PreEnqueuePlugin
// (staging/src/k8s.io/kube-scheduler/framework/{interface,types}.go).
//
// Thread-safety: EventsToRegister and PreEnqueue are const; hint functions
// are called by the queue under its caller's lock and must not block.
#ifndef LIBSCHED_FRAMEWORK_ENQUEUE_EXTENSIONS_H_
#define LIBSCHED_FRAMEWORK_ENQUEUE_EXTENSIONS_H_

#include <functional>
#include <memory>
#include <variant>
#include <vector>

#include "libsched/framework/cluster_event.h"
#include "libsched/framework/plugin.h"
#include "libsched/model/csi_driver.h"
#include "libsched/model/csi_node.h"
#include "libsched/model/csi_storage_capacity.h"
#include "libsched/model/dra.h"
#include "libsched/model/node.h"
#include "libsched/model/persistent_volume.h"
#include "libsched/model/persistent_volume_claim.h"
#include "libsched/model/pod.h"
#include "libsched/model/storage_class.h"
#include "libsched/model/volume_attachment.h"
#include "libsched/state/cluster_state.h"

namespace sched {

enum class QueueingHint : uint8_t {
  kQueueSkip,  // the event cannot help the pod
  kQueue,      // the event may make the pod schedulable
};

// The old or new object of an event: none (the old object of an Add, the new
// one of a Delete), or the object of the event's resource.
// Shared so that events recorded while pods are in flight stay valid.
using EventObject =
    std::variant<std::monostate, std::shared_ptr<const Node>, std::shared_ptr<const Pod>,
                 std::shared_ptr<const PersistentVolume>,
                 std::shared_ptr<const PersistentVolumeClaim>, std::shared_ptr<const StorageClass>,
                 std::shared_ptr<const CSINode>, std::shared_ptr<const CSIDriver>,
                 std::shared_ptr<const CSIStorageCapacity>,
                 std::shared_ptr<const VolumeAttachment>, std::shared_ptr<const ResourceClaim>,
                 std::shared_ptr<const ResourceSlice>, std::shared_ptr<const DeviceClass>>;

// The T in `o`, or null (util.As).
template <typename T>
const T* As(const EventObject& o) {
  auto* p = std::get_if<std::shared_ptr<const T>>(&o);
  return p != nullptr ? p->get() : nullptr;
}
inline const Node* AsNode(const EventObject& o) { return As<Node>(o); }
inline const Pod* AsPod(const EventObject& o) { return As<Pod>(o); }

// QueueingHintFn: `pod` was rejected by the registering plugin; `old_obj` /
// `new_obj` are the event's objects. A hint that cannot read the objects it
// expects returns kQueue (upstream treats a hint error as Queue).
using QueueingHintFn = std::function<QueueingHint(const Pod& pod, const EventObject& old_obj,
                                                  const EventObject& new_obj)>;

struct ClusterEventWithHint {
  ClusterEvent event;
  QueueingHintFn hint;  // empty: always kQueue
};

class EnqueueExtensions : public virtual Plugin {
 public:
  // The events that may make a pod this plugin rejected schedulable. Hint
  // functions may keep a pointer to `cluster` (the live state, as upstream's
  // hints read informer listers), which must outlive them.
  virtual std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const = 0;
};

class PreEnqueuePlugin : public virtual Plugin {
 public:
  // Success lets the pod into activeQ / backoffQ; a rejection keeps it among
  // the unschedulable pods, gated, until an event this plugin registered
  // for moves it. `cluster` is the live state (upstream's listers).
  virtual Status PreEnqueue(const Pod& pod, const ClusterState& cluster) const = 0;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_ENQUEUE_EXTENSIONS_H_

// Decoding at the boundary: Kubernetes JSON (core/v1 objects as the API
// server serializes them, watch events, Lists, the engine config) into the
// core model, once. Unknown fields are ignored; a malformed known field is
// an SCHED_INVALID_ARGUMENT naming its path and what is wrong. Every string
// the model keeps as an id goes through the engine's Interner.
//
// Thread-safety: decoding interns, so callers hold the engine's lock.
#ifndef CAPI_DECODE_H_
#define CAPI_DECODE_H_

#include <cJSON.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capi/apply_document.h"
#include "capi/error.h"
#include "capi/json_path.h"
#include "libsched/engine/change.h"
#include "libsched/engine/engine_config.h"
#include "libsched/model/csi_driver.h"
#include "libsched/model/csi_node.h"
#include "libsched/model/csi_storage_capacity.h"
#include "libsched/model/dra.h"
#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/namespace.h"
#include "libsched/model/node.h"
#include "libsched/model/pdb.h"
#include "libsched/model/persistent_volume.h"
#include "libsched/model/persistent_volume_claim.h"
#include "libsched/model/pod.h"
#include "libsched/model/resource.h"
#include "libsched/model/storage_class.h"
#include "libsched/model/volume_attachment.h"
#include "libsched/model/workload.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/plugins/registry.h"
#include "libsched/state/node_query.h"

namespace sched::capi {

// ---- Objects (decode_node.cc, decode_pod.cc) ------------------------------

ApiStatus DecodeNode(const cJSON* obj, const JsonPath& path, Interner& in,
                     std::shared_ptr<const Node>* out);

struct DecodedPod {
  std::shared_ptr<Pod> pod;
  // status.phase is Succeeded or Failed: the scheduler's informers drop such
  // pods, so applying one removes it.
  bool terminal = false;
};
ApiStatus DecodePod(const cJSON* obj, const JsonPath& path, Interner& in, DecodedPod* out);

// spec.topologySpreadConstraints (`constraints`, an array or null, at
// `path`) into pod->topology_spread_constraints (decode_topology_spread.cc),
// matchLabelKeys merged into each selector. REQUIRES: pod->labels is set.
ApiStatus DecodeTopologySpreadConstraints(const cJSON* constraints, const JsonPath& path,
                                          Interner& in, Pod* pod);
// metadata.ownerReferences (`refs`, an array or null, at `path`): the
// first controller's kind and uid, and its name when it is a v1
// ReplicationController or an apps/v1 ReplicaSet / StatefulSet.
ApiStatus DecodeControllerRef(const cJSON* refs, const JsonPath& path, Pod* pod);
// The fields of one topology spread constraint but labelSelector and
// matchLabelKeys, validated (maxSkew > 0, topologyKey a label key,
// whenUnsatisfiable DoNotSchedule|ScheduleAnyway, minDomains > 0 and only
// with DoNotSchedule, policies Honor|Ignore). Shared with the
// PodTopologySpreadArgs decoder.
ApiStatus DecodeSpreadConstraintFields(const cJSON* v, const JsonPath& path,
                                       PodTopologySpreadArgs::Constraint* out);

// policy/v1 PodDisruptionBudget (decode_pdb.cc). An invalid selector is
// not an error: it matches no pod, as upstream treats it.
ApiStatus DecodePdb(const cJSON* obj, const JsonPath& path, Interner& in,
                    std::shared_ptr<const PodDisruptionBudget>* out);

// spec.affinity.podAffinity / podAntiAffinity of `affinity` (spec.affinity,
// an object, at `ap`) into pod->pod_affinity (decode_pod_affinity.cc).
// REQUIRES: pod->labels and pod->ns_atom are set (matchLabelKeys and
// default namespaces read them).
ApiStatus DecodePodAffinity(const cJSON* affinity, const JsonPath& ap, Interner& in, Pod* pod);

// A core/v1 Namespace (decode_namespace.cc): name and labels.
ApiStatus DecodeNamespace(const cJSON* obj, const JsonPath& path, Interner& in,
                          std::shared_ptr<const Namespace>* out);

// A Service, ReplicationController, ReplicaSet or StatefulSet
// (decode_workload.cc), of the given kind: name, namespace, spec.selector.
ApiStatus DecodeWorkload(const cJSON* obj, const JsonPath& path, WorkloadKind kind, Interner& in,
                         std::shared_ptr<const Workload>* out);

// ---- Volume objects (decode_volume.cc) -----------------------------------

// A core/v1 PersistentVolume: labels, capacity, access modes, class, mode,
// node affinity, claimRef, its CSI (or migrated in-tree) source, phase.
ApiStatus DecodePersistentVolume(const cJSON* obj, const JsonPath& path, Interner& in,
                                 std::shared_ptr<const PersistentVolume>* out);
// A core/v1 PersistentVolumeClaim: class, volumeName, access modes, the
// storage request, selector, binding annotations, controller owner, phase.
ApiStatus DecodePersistentVolumeClaim(const cJSON* obj, const JsonPath& path, Interner& in,
                                      std::shared_ptr<const PersistentVolumeClaim>* out);
// A storage.k8s.io/v1 StorageClass: provisioner, volumeBindingMode,
// allowedTopologies.
ApiStatus DecodeStorageClass(const cJSON* obj, const JsonPath& path, Interner& in,
                             std::shared_ptr<const StorageClass>* out);
// A storage.k8s.io/v1 CSINode: drivers' allocatable counts and the
// migrated-plugins annotation.
ApiStatus DecodeCSINode(const cJSON* obj, const JsonPath& path, Interner& in,
                        std::shared_ptr<const CSINode>* out);
// resource.k8s.io/v1 objects (decode_dra.cc), as libsched/model/dra.h
// keeps them: ResourceSlice (spec.driver, pool, node selection, devices
// with attributes and capacity), DeviceClass (spec.selectors),
// ResourceClaim (spec.devices requests and constraints, status.allocation,
// status.reservedFor) and ResourceClaimTemplate (spec.spec).
ApiStatus DecodeResourceSlice(const cJSON* obj, const JsonPath& path, Interner& in,
                              std::shared_ptr<const ResourceSlice>* out);
ApiStatus DecodeDeviceClass(const cJSON* obj, const JsonPath& path,
                            std::shared_ptr<const DeviceClass>* out);
ApiStatus DecodeResourceClaim(const cJSON* obj, const JsonPath& path, Interner& in,
                              std::shared_ptr<const ResourceClaim>* out);
ApiStatus DecodeResourceClaimTemplate(const cJSON* obj, const JsonPath& path,
                                      std::shared_ptr<const ResourceClaimTemplate>* out);
// A pod's spec.resourceClaims and status.resourceClaimStatuses (the pod
// object `obj` at `path`, its `spec`) into pod->resource_claims.
ApiStatus DecodePodResourceClaims(const cJSON* obj, const JsonPath& path, const cJSON* spec,
                                  Pod* pod);

// A storage.k8s.io/v1 CSIDriver: spec.storageCapacity
// (decode_csi_objects.cc).
ApiStatus DecodeCSIDriver(const cJSON* obj, const JsonPath& path,
                          std::shared_ptr<const CSIDriver>* out);
// A storage.k8s.io/v1 CSIStorageCapacity: storageClassName (required),
// nodeTopology, capacity, maximumVolumeSize (decode_csi_objects.cc).
ApiStatus DecodeCSIStorageCapacity(const cJSON* obj, const JsonPath& path, Interner& in,
                                   std::shared_ptr<const CSIStorageCapacity>* out);
// A storage.k8s.io/v1 VolumeAttachment: spec.attacher, spec.nodeName
// (required), spec.source.persistentVolumeName (decode_csi_objects.cc).
ApiStatus DecodeVolumeAttachment(const cJSON* obj, const JsonPath& path,
                                 std::shared_ptr<const VolumeAttachment>* out);
// One element of a Pod's spec.volumes, appended to *out when its source is
// one the volume plugins read (see PodVolume). `pod_name` names a generic
// ephemeral volume's claim.
ApiStatus DecodePodVolume(const cJSON* v, const JsonPath& path, std::string_view pod_name,
                          std::vector<PodVolume>* out);

// ---- Cluster changes (decode_changes.cc) ---------------------------------

// What sched_engine_apply reports back.
struct ApplySummary {
  // Node, Pod, PDB, Namespace, workload and volume (PV, PVC, StorageClass,
  // CSINode, CSIDriver, CSIStorageCapacity, VolumeAttachment) items
  // changing state
  int64_t applied = 0;
  std::map<std::string, int64_t> ignored;  // other kinds, by kind
  int64_t pending_pods = 0;                // pods without spec.nodeName
};

struct ChangeSet {
  std::vector<Change> changes;  // in input order
  ApplySummary summary;
};

// Decodes a whole sched_engine_apply document: a watch event, an array of
// events, a List (items upserted) or a bare object (upserted). Nothing is
// applied here, so a document with any bad item changes nothing. The
// element count of the events array or the List's items is checked before
// any element is decoded (or, in an ApplyDocument, parsed).
ApiStatus DecodeChanges(const ApplyDocument& doc, Interner& in, ChangeSet* out);
// The same for a whole parsed tree.
ApiStatus DecodeChanges(const cJSON* root, Interner& in, ChangeSet* out);

// ---- Engine configuration (decode_config.cc) ------------------------------

// A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) subset plus
// "seed", or a legacy Policy (kind "Policy": DecodePolicy). Strict, as
// upstream decodes configs: unknown fields are errors. Label keys and
// values in plugin args are interned into `in`, which must be the interner
// of the engine that will use `out`.
ApiStatus DecodeConfig(const cJSON* root, Interner& in, EngineConfig* out);

// A legacy v1 Policy (decode_policy.cc; docs/policy.md): predicates and
// priorities translated, as kube-scheduler v1.20's legacy registry did,
// into the KubeSchedulerConfiguration of one default-scheduler profile,
// which DecodeConfig then decodes; plus alwaysCheckAllPredicates.
ApiStatus DecodePolicy(const cJSON* root, Interner& in, EngineConfig* out);
// The KubeSchedulerConfiguration DecodePolicy decodes, as JSON text.
ApiStatus TranslatePolicy(const cJSON* root, std::string* config_json, bool* run_all_filters);

// profiles[].plugins (decode_plugins.cc): every name in the registry (or
// "*" among disabled), an explicit point's plugins implementing it, no name
// twice in one enabled list; weights are int32. `v` may be JSON null.
ApiStatus DecodePlugins(const cJSON* v, const JsonPath& path, PluginsConfig* out);
// The checks upstream's framework makes once a profile is expanded: exactly
// one queueSort plugin, at least one bind plugin. `path` is the profile's
// plugins field.
ApiStatus CheckExpandedPlugins(const ExpandedPlugins& plugins, const JsonPath& path,
                               std::string_view scheduler_name);

// A profile's pluginConfig list (decode_plugin_config.cc): unique plugin
// names; the args of InterPodAffinity, PodTopologySpread, NodeResourcesFit,
// NodeResourcesBalancedAllocation, NodeAffinity and DefaultPreemption, and
// of the legacy NodeLabel (NodeLabelArgs, v1.20) and ServiceAffinity
// (ServiceAffinityArgs, v1.21) are accepted, strictly, defaulted and
// validated as upstream. `v` may be JSON null.
ApiStatus DecodePluginConfig(const cJSON* v, const JsonPath& path, Interner& in,
                             PluginArgs* out);

// ---- Building blocks shared by the decoders (decode.cc) -------------------

// A core/v1 ResourceList in scheduler units: cpu in milli-CPU; memory,
// ephemeral-storage, pods and scalar resources (IsScalarResourceName) in
// units; other names ignored. A negative quantity is an error ("must be
// greater than or equal to 0"). has_cpu / has_memory record an entry even
// when it is zero, which the non-zero request defaults depend on.
struct ResourceList {
  Resource amounts;
  bool has_cpu = false;
  bool has_memory = false;
};
// `v` is the map (may be null: an empty list).
ApiStatus DecodeResourceList(const cJSON* v, const JsonPath& path, Interner& in,
                             ResourceList* out);

// A map[string]string of labels; `v` may be null.
ApiStatus DecodeLabels(const cJSON* v, const JsonPath& path, Interner& in, LabelSet* out);

// Rejects `s` at `path` when longer than `max` bytes, in API validation's
// words (validation.MaxLenError): "<what>must be no more than <max>
// characters". `what` is "" or a prefix such as "key name part ".
ApiStatus CheckMaxLen(std::string_view s, const JsonPath& path, std::string_view what,
                      size_t max);

// Reject a label key (a qualified name: prefix and name parts) or a label
// value at `path` that exceeds API validation's lengths (capi/limits.h);
// syntax is not checked. Also used for taints' and tolerations' keys and
// values, which API validation checks the same way.
ApiStatus CheckLabelKeyLength(std::string_view key, const JsonPath& path);
ApiStatus CheckLabelValueLength(std::string_view value, const JsonPath& path);
// Both, for an entry of the map at `map_path` (labels, nodeSelector).
ApiStatus CheckLabelLengths(std::string_view key, std::string_view value,
                            const JsonPath& map_path);

// metadata.name of `obj`, which must be present, non-empty and at most
// kMaxNameBytes long; sets *meta to the metadata object.
ApiStatus DecodeName(const cJSON* obj, const JsonPath& path, const cJSON** meta,
                     std::string_view* name);

// labels.NewRequirement for matchExpressions (field = false), or the
// matchFields conversion of nodeaffinity.go (field = true). A requirement
// that would not convert is kept with valid = false: upstream evaluates
// node selectors lazily and such a term never matches. Malformed JSON
// (wrong types) is an error.
ApiStatus DecodeRequirement(const cJSON* v, const JsonPath& path, bool field, Interner& in,
                            Requirement* out);

// A v1.NodeAffinity object `na` (decode_pod.cc): its required node
// selector (set when present, even with no terms) and preferred terms,
// appended. Requirements that would not convert are kept with valid =
// false, as DecodeRequirement; wrong JSON types are errors.
ApiStatus DecodeNodeAffinityObject(const cJSON* na, const JsonPath& path, Interner& in,
                                   std::optional<NodeSelector>* required,
                                   std::vector<PreferredSchedulingTerm>* preferred);
// A v1.NodeSelectorTerm (decode_pod.cc); `v` may be null (an empty term,
// which matches nothing). Requirements that would not convert make the
// term invalid, as DecodeRequirement says.
ApiStatus DecodeNodeSelectorTerm(const cJSON* v, const JsonPath& path, Interner& in,
                                 NodeSelectorTerm* out);

// A resource.Quantity (a string such as "64Gi", a bare number, or null for
// zero) as Quantity.MilliValue (milli = true) or Quantity.Value; negative
// quantities are errors in the API server's words.
ApiStatus DecodeQuantity(const cJSON* v, const JsonPath& path, bool milli, int64_t* out);

// A metav1.LabelSelector (decode_label_selector.cc): matchLabels become In
// requirements. A selector LabelSelectorAsSelector would refuse (a bad key
// or value, an unknown operator, a wrong number of values) is kept with
// valid = false; callers decide what that means. Wrong JSON types are
// errors.
ApiStatus DecodeLabelSelector(const cJSON* v, const JsonPath& path, Interner& in,
                              LabelSelector* out);

// The sched_engine_nodes query (decode_node_query.cc): {"names":[...],
// "labelSelector":<metav1.LabelSelector>}, both optional; unknown fields,
// empty names and a selector LabelSelectorAsSelector would refuse are
// errors. *atoms holds the selector's interned ids.
ApiStatus DecodeNodeQuery(const cJSON* v, Interner& in, NodeQuery* out, AtomHold* atoms);

// "Unsupported value" in upstream's words, listing what is supported.
ApiStatus Unsupported(const JsonPath& path, std::string_view value,
                      std::initializer_list<std::string_view> supported);

}  // namespace sched::capi

#endif  // CAPI_DECODE_H_

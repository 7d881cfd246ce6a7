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

#include "capi/error.h"
#include "capi/json_path.h"
#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/model/resource.h"

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

// ---- Cluster changes (decode_changes.cc) ---------------------------------

struct Change {
  enum class Op { kUpsertNode, kRemoveNode, kUpsertPod, kRemovePod };
  Op op;
  std::shared_ptr<const Node> node;  // kUpsertNode
  std::shared_ptr<const Pod> pod;    // kUpsertPod
  std::string key;                   // kRemoveNode: name; kRemovePod: "ns/name"
};

// What sched_engine_apply reports back.
struct ApplySummary {
  int64_t applied = 0;                     // Node and Pod items changing state
  std::map<std::string, int64_t> ignored;  // other kinds, by kind
  int64_t pending_pods = 0;                // pods without spec.nodeName
};

struct ChangeSet {
  std::vector<Change> changes;  // in input order
  ApplySummary summary;
};

// Decodes a whole sched_engine_apply document: a watch event, an array of
// events, a List (items upserted) or a bare object (upserted). Nothing is
// applied here, so a document with any bad item changes nothing.
ApiStatus DecodeChanges(const cJSON* root, Interner& in, ChangeSet* out);

// ---- Engine configuration (decode_config.cc) ------------------------------

struct ProfileConfig {
  std::string scheduler_name;
  int32_t percentage_of_nodes_to_score = 0;  // 0 = adaptive
};

struct EngineConfig {
  std::vector<ProfileConfig> profiles;  // at least one, names unique
  uint64_t seed = 0;                    // seeds selectHost's random source
};

// A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) subset plus
// "seed". Strict, as upstream decodes configs: unknown fields are errors.
ApiStatus DecodeConfig(const cJSON* root, EngineConfig* out);

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

// "Unsupported value" in upstream's words, listing what is supported.
ApiStatus Unsupported(const JsonPath& path, std::string_view value,
                      std::initializer_list<std::string_view> supported);

}  // namespace sched::capi

#endif  // CAPI_DECODE_H_

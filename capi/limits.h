// Limits on what one input document may hold, enforced at the JSON
// boundary so that no input, however hostile, makes a call use unbounded
// stack, time or memory. Each is well above anything a real cluster or the
// API server produces; the why sits next to each. A document over a limit
// is rejected with SCHED_INVALID_ARGUMENT naming the limit, its value and
// the path of the field, and changes nothing. docs/api.md ("Limits") lists
// them for callers.
#ifndef CAPI_LIMITS_H_
#define CAPI_LIMITS_H_

#include <cstddef>

#include "libsched/model/label_syntax.h"

namespace sched::capi {

// sched_engine_apply documents, in bytes. A List of the largest cluster
// Kubernetes supports (5,000 nodes, 150,000 pods) runs to a few hundred
// MiB; larger inputs can always be split over several calls.
inline constexpr size_t kMaxApplyBytes = size_t{256} << 20;
// sched_engine_schedule pods and sched_engine_new configs, in bytes: the API
// server's own request body limit (apiserver MaxRequestBodyBytes, 3 MiB).
inline constexpr size_t kMaxObjectBytes = size_t{3} << 20;

// Containers (objects, arrays) nested deeper than this are rejected before
// cJSON parses them: no object we read nests more than ~10 levels, and
// cJSON's own limit (CJSON_NESTING_LIMIT, 1000) would let its recursive
// parser, and ours, use far more stack.
inline constexpr int kMaxJsonDepth = 64;

// Watch events in one apply document, or items in one List: above the
// 155,000 objects of the largest supported cluster.
inline constexpr size_t kMaxApplyItems = 200000;
// Elements of any array inside an object (containers, tolerations, taints,
// ports, images, selector terms and values, statuses...) and entries of any
// map (labels, nodeSelector, resource lists). The API server bounds most of
// these only through the request size; real objects hold at most hundreds.
inline constexpr size_t kMaxItems = 10000;

// Profiles in an engine config: each builds a scheduler with its own
// plugins, and real configs have a handful.
inline constexpr size_t kMaxProfiles = 100;

// Any string value or map key the decoder reads, in bytes. The longest
// strings Kubernetes allows in the fields we read are image references
// (255-byte name, 128-byte tag, digest) and qualified names (317 bytes).
inline constexpr size_t kMaxStringBytes = 4096;

// The value of one annotation the decoder reads, in bytes: the API server
// caps all of an object's annotations together at 256 KiB
// (apimachinery TotalAnnotationSizeLimitB).
inline constexpr size_t kMaxAnnotationBytes = size_t{256} << 10;

// API validation's limits (apimachinery validation): object names are
// DNS-1123 subdomains, namespaces DNS-1123 labels; a label key is an
// optional subdomain prefix, '/', and a name part; a value is a name part.
inline constexpr size_t kMaxNameBytes = kDns1123SubdomainMaxLength;
inline constexpr size_t kMaxNamespaceBytes = kDns1123LabelMaxLength;
inline constexpr size_t kMaxLabelKeyPrefixBytes = kDns1123SubdomainMaxLength;
inline constexpr size_t kMaxLabelKeyNameBytes = kQualifiedNameMaxLength;
inline constexpr size_t kMaxLabelValueBytes = kLabelValueMaxLength;

}  // namespace sched::capi

#endif  // CAPI_LIMITS_H_

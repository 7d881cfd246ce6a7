// Kubernetes name syntax, shared by the decoder and by plugin-argument
// validation (resource names are qualified names). These are the checks
// labels.NewRequirement applies when the scheduler turns a
// NodeSelectorRequirement into a selector (apimachinery api/validate/content
// IsLabelKey / IsLabelValue, strconv.ParseInt). A requirement that fails
// them makes its term invalid, never a decode error: the API server lets
// some such pods through (allowInvalidLabelValueInRequiredNodeAffinity) and
// upstream then evaluates the term as never matching.
#ifndef LIBSCHED_MODEL_LABEL_SYNTAX_H_
#define LIBSCHED_MODEL_LABEL_SYNTAX_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sched {

// Length limits of apimachinery's validation (util/validation).
inline constexpr size_t kQualifiedNameMaxLength = 63;     // name part of a qualified name
inline constexpr size_t kLabelValueMaxLength = 63;        // LabelValueMaxLength
inline constexpr size_t kDns1123LabelMaxLength = 63;      // DNS1123LabelMaxLength
inline constexpr size_t kDns1123SubdomainMaxLength = 253;  // DNS1123SubdomainMaxLength

// A qualified name: [DNS-1123 subdomain "/"] name, where name is 1-63
// alphanumerics, '-', '_' or '.', starting and ending alphanumeric.
bool IsQualifiedName(std::string_view name);
// A label value: empty, or the name part of a qualified name.
bool IsLabelValue(std::string_view value);
// strconv.ParseInt(s, 10, 64): optional sign, decimal digits, in range.
std::optional<int64_t> ParseDecimalInt64(std::string_view s);

}  // namespace sched

#endif  // LIBSCHED_MODEL_LABEL_SYNTAX_H_

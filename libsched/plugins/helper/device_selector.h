// A DRA device selector: a CEL expression (resource.k8s.io/v1
// DeviceSelector.cel.expression, in a DeviceClass or a claim's request)
// compiled once and evaluated against one device at a time, as
// k8s.io/dynamic-resource-allocation/cel does (compile.go:
// CompileCELExpression, CompilationResult.DeviceMatches). The evaluator is a
// maintained CEL implementation behind this interface (docs/dra.md); a
// build without one compiles nothing and says so, so that the
// DynamicResources plugin refuses claims with selectors instead of guessing.
//
// Thread-safety: Compile may be called from any thread; a compiled
// DeviceSelector is immutable and Matches may be called concurrently (the
// allocator runs in Filter, in parallel over nodes).
#ifndef LIBSCHED_PLUGINS_HELPER_DEVICE_SELECTOR_H_
#define LIBSCHED_PLUGINS_HELPER_DEVICE_SELECTOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sched {

// One resource.k8s.io/v1 DeviceAttribute: exactly one of int, bool, string
// or version is set upstream. `text` holds the string or the version
// (semantic version text, e.g. "1.2.3").
struct DeviceAttributeValue {
  enum class Kind { kInt, kBool, kString, kVersion };
  Kind kind = Kind::kString;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string text;
};

// The `device` variable of the CEL environment (compile.go's Device).
struct CelDevice {
  // Also the domain of every attribute or capacity name without one.
  std::string driver;
  bool allow_multiple_allocations = false;
  // Qualified names as in the ResourceSlice ("domain/id" or "id").
  std::vector<std::pair<std::string, DeviceAttributeValue>> attributes;
  // Capacity values as Kubernetes quantity text ("80Gi", "1500m").
  std::vector<std::pair<std::string, std::string>> capacity;
};

class DeviceSelector {
 public:
  enum class Result { kMatch, kNoMatch, kError };

  // Whether this build has a CEL evaluator; without one, Compile always fails.
  static bool Available();

  // Compiles `expression` in the DRA CEL environment with upstream's cost
  // limit (resourceapi.CELSelectorExpressionMaxCost). On failure returns
  // nullptr and sets *error to the reason (upstream's wording where it has one).
  static std::unique_ptr<DeviceSelector> Compile(std::string_view expression, std::string* error);

  virtual ~DeviceSelector() = default;

  // Evaluates the expression for `device`: kMatch / kNoMatch, or kError with
  // the runtime error (e.g. a missing attribute, the cost limit) in *error.
  virtual Result Matches(const CelDevice& device, std::string* error) const = 0;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_DEVICE_SELECTOR_H_

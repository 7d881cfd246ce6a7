// FieldError: one invalid field of a plugin's arguments, as upstream's
// field.Error (k8s.io/apimachinery/pkg/util/validation/field) reports it
// from apis/config/validation/validation_pluginargs.go.
#ifndef LIBSCHED_FRAMEWORK_FIELD_ERROR_H_
#define LIBSCHED_FRAMEWORK_FIELD_ERROR_H_

#include <string>
#include <vector>

namespace sched {

struct FieldError {
  // The path below the args object, as field.Path prints it
  // ("scoringStrategy.resources[0].weight").
  std::string field;
  // What is wrong, as field.Error prints it after the path
  // ("Invalid value: 0: resource weight of cpu not in valid range (0, 100]").
  std::string detail;
};

// Every error an argument validator found, in upstream's order; empty when
// the arguments are valid.
using FieldErrors = std::vector<FieldError>;

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_FIELD_ERROR_H_

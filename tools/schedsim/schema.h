// The Kubernetes API's schema, as far as strict field validation needs it:
// which kinds exist in which apiVersion and which fields each type has.
// The data is tools/schedsim/known_fields.json, generated from
// k8s.io/kubernetes@v1.36.3's OpenAPI spec by scripts/gen_known_fields.py.
#ifndef TOOLS_SCHEDSIM_SCHEMA_H_
#define TOOLS_SCHEDSIM_SCHEMA_H_

#include "diag.h"
#include "input.h"
#include "yaml_json.h"

namespace schedsim {

// Reports to `diag` what the API server would refuse about `obj`'s shape:
// a kind it does not serve (in the object's apiVersion, when it has one),
// as kubectl says it: no matches for kind "Pdo" in version "v1"; and each
// field its schema lacks, as strict field validation says it:
// unknown field "spec.containers[0].resources.requets". Values the schema
// leaves open (quantities, int-or-string, preserve-unknown-fields) are not
// looked into.
// Reports name the line of the field when `lines` has it.
void CheckSchema(const InputObject& obj, const Lines& lines, Diagnostics& diag);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_SCHEMA_H_

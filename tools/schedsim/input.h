// Reading the simulator's input: files of Kubernetes objects and Lists, in
// JSON or YAML, flattened into one sequence of objects in input order.
#ifndef TOOLS_SCHEDSIM_INPUT_H_
#define TOOLS_SCHEDSIM_INPUT_H_

#include <string>
#include <vector>

#include "diag.h"
#include "json.h"
#include "loc.h"

namespace schedsim {

struct InputObject {
  cJSON* json;  // owned by Input::docs
  std::string kind;
  Loc loc;
};

// A scheduler configuration found in the input (a kube-scheduler-simulator
// export's schedulerConfig).
struct SchedulerConfig {
  cJSON* json = nullptr;  // owned by Input::docs; null when none
  Loc loc;
};

struct Input {
  std::vector<JsonPtr> docs;         // owns every tree
  std::vector<InputObject> objects;  // file order, then document order
  SchedulerConfig config;
};

// Reads each path: a JSON file (one value or a stream of them), a YAML file
// (multi-document), "-" for standard input (either format), or a directory
// (its *.json, *.yaml and *.yml files in name order). A document is an
// object, a List (any kind ending in "List" with "items") or a JSON array of
// those; Lists are flattened. Every object needs a "kind", except in a
// kube-scheduler-simulator export (simulator_export.h), whose lists give it.
// Each object is checked against the API's schema (CheckSchema, reported
// to `diag`) and then loses what the engine never reads (StripUnread).
// Throws InputError naming the file and field.
Input ReadInput(const std::vector<std::string>& paths, Diagnostics& diag);

// Reads --config FILE (JSON or YAML, as ReadInput decides): one document,
// an object (a KubeSchedulerConfiguration or a legacy Policy). Throws
// InputError naming the file.
JsonPtr ReadConfig(const std::string& path);

// Reads a `schedsim scale-up --template FILE`: one Node (JSON or YAML;
// status.allocatable defaults to status.capacity, as the API server's),
// returned as JSON text. Throws InputError naming the file.
std::string ReadNodeTemplate(const std::string& path);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_INPUT_H_

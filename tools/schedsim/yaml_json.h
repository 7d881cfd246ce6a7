// YAML to JSON, the way kubectl converts manifests (sigs.k8s.io/yaml, which
// is go-yaml v2, i.e. YAML 1.1 typing).
#ifndef TOOLS_SCHEDSIM_YAML_JSON_H_
#define TOOLS_SCHEDSIM_YAML_JSON_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "json.h"

namespace schedsim {

// Source lines of parsed values, by node.
using Lines = std::unordered_map<const cJSON*, int>;

// Parses a YAML stream into one JSON tree per non-empty document. Plain
// scalars are typed as go-yaml v2 types them: null (~, null, empty), bool
// (true/yes/on/y, false/no/off/n, in three casings), int (decimal, 0x, 0o,
// 0b, leading-0 octal, '_' separators), float; quoted, block and !!str
// scalars stay strings, and so do timestamps. Mapping keys are their text.
// When `lines` is given, it receives the 1-based line of every value (a
// mapping member's: its key's line), for messages about them.
// Throws InputError naming the file, line and column, or the duplicate key.
std::vector<JsonPtr> ParseYaml(const std::string& text, const std::string& file,
                               Lines* lines = nullptr);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_YAML_JSON_H_

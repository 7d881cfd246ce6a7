// schedsim's command line.
#ifndef TOOLS_SCHEDSIM_CLI_H_
#define TOOLS_SCHEDSIM_CLI_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedsim {

enum class OutputFormat { kTable, kJson };

struct Options {
  // The subcommand: "" (simulate), "explain" or "capacity" (then
  // explain_pod is set), "drain" (then drain_nodes is), or "scale-up"
  // (then templates is).
  std::string command;
  std::string explain_pod;               // `schedsim explain|capacity NS/NAME`: "ns/name"
  std::optional<uint64_t> max_replicas;  // capacity --max-replicas N
  std::vector<std::string> drain_nodes;  // `schedsim drain NODE[,NODE...]`
  std::vector<std::string> templates;    // scale-up --template FILE...
  std::optional<uint64_t> max_nodes;     // scale-up --max-nodes N
  std::optional<uint64_t> seed;
  OutputFormat output = OutputFormat::kTable;
  // "ns/name" per --explain; a bare name means namespace "default"
  std::vector<std::string> explain;
  std::string config;      // --config FILE, or ""
  std::string pool_label;  // --pool-label KEY, or "" (the default list)
  std::vector<std::string> files;
  std::optional<size_t> batch_bytes;  // --batch-bytes
  bool strict = false;                // --strict: input warnings are errors
  bool progress = false;              // --progress
  bool version = false;               // --version
  bool help = false;
};

// Throws InputError (exit status 2) for a bad flag or value.
Options ParseArgs(int argc, char** argv);

// The --help text.
std::string Usage();

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_CLI_H_

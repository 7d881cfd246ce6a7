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
  std::optional<uint64_t> seed;
  OutputFormat output = OutputFormat::kTable;
  std::string explain;  // "ns/name"; a bare name means namespace "default"
  std::string config;   // --config FILE, or ""
  std::vector<std::string> files;
  bool help = false;
};

// Throws InputError (exit status 2) for a bad flag or value.
Options ParseArgs(int argc, char** argv);

// The --help text.
std::string Usage();

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_CLI_H_

// Deterministic stand-ins for the random names the API server and the
// controllers make up (generateName suffixes, pod-template-hash), in the same
// alphabet, so simulated pods look like real ones and runs are repeatable.
#ifndef TOOLS_SCHEDSIM_NAMES_H_
#define TOOLS_SCHEDSIM_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace schedsim {

// A 5-character suffix like apiserver's generateName ("x7k2p"). For a fixed
// `seed` it is distinct for every i below 27^5.
std::string NameSuffix(std::string_view seed, uint64_t i);

// The pod-template-hash label of a Deployment's pods: the decimal FNV-32a
// of `text`, each digit mapped into the safe alphabet, as
// rand.SafeEncodeString does.
std::string TemplateHash(std::string_view text);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_NAMES_H_

// Loc: where a value sits in the input (file, YAML document, JSON path), so
// every error can name the field a user has to fix.
#ifndef TOOLS_SCHEDSIM_LOC_H_
#define TOOLS_SCHEDSIM_LOC_H_

#include <stdexcept>
#include <string>

namespace schedsim {

struct Loc {
  std::string file;
  int document = 0;  // 1-based in a multi-document YAML file, else 0
  std::string path;  // JSON path inside the document, "" for its root
  int line = 0;      // 1-based source line when known (YAML), else 0

  Loc Key(const std::string& key) const;
  Loc Index(size_t i) const;
  // Appends a relative path ("spec.x", "[2].y") as reported by the engine.
  Loc Append(const std::string& rel) const;
  // "FILE: document 2: items[0].spec.replicas", "FILE:12: ..." with a line
  std::string Str() const;
};

// Bad input: exit status 2, message on stderr.
class InputError : public std::runtime_error {
 public:
  InputError(const Loc& loc, const std::string& msg) : std::runtime_error(loc.Str() + ": " + msg) {}
  explicit InputError(const std::string& msg) : std::runtime_error(msg) {}
};

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_LOC_H_

#include "loc.h"

#include "json.h"

namespace schedsim {

Loc Loc::Key(const std::string& key) const {
  Loc l = *this;
  // Keys that are not plain names (label keys like "app.kubernetes.io/name")
  // are written ["key"], as the engine writes them.
  if (key.empty() || key.find_first_of(".[]\"") != std::string::npos) {
    l.path = path + "[" + Quote(key) + "]";
  } else {
    l.path = path.empty() ? key : path + "." + key;
  }
  return l;
}

Loc Loc::Index(size_t i) const {
  Loc l = *this;
  l.path = path + "[" + std::to_string(i) + "]";
  return l;
}

Loc Loc::Append(const std::string& rel) const {
  if (rel.empty()) return *this;
  Loc l = *this;
  if (path.empty() || rel[0] == '[') {
    l.path = path + rel;
  } else {
    l.path = path + "." + rel;
  }
  return l;
}

std::string Loc::Str() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line);
  if (document > 0) s += ": document " + std::to_string(document);
  if (!path.empty()) s += ": " + path;
  return s;
}

}  // namespace schedsim

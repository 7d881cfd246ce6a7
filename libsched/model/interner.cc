#include "libsched/model/interner.h"

namespace sched {

Atom Interner::Intern(std::string_view s) {
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  const Atom id = static_cast<Atom>(strings_.size());
  strings_.emplace_back(s);
  ids_.emplace(strings_.back(), id);
  return id;
}

Atom Interner::Find(std::string_view s) const {
  auto it = ids_.find(s);
  return it == ids_.end() ? kNoAtom : it->second;
}

void Interner::Truncate(size_t size) {
  while (strings_.size() > size) {
    ids_.erase(strings_.back());
    strings_.pop_back();
  }
}

}  // namespace sched

#include "libsched/model/resource.h"

#include <algorithm>
#include <limits>

namespace sched {
namespace {

bool HasPrefix(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}

// IsNativeResource: no domain, or the kubernetes.io domain.
bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

}  // namespace

bool IsHugePageResourceName(std::string_view name) {
  return HasPrefix(name, "hugepages-");
}

bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || HasPrefix(name, "requests.")) return false;
  // Upstream also requires "requests.<name>" to be a valid qualified name;
  // names that reach us come from API objects the server already validated.
  return true;
}

bool IsDraExtendedResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || HasPrefix(name, kDeviceClassResourcePrefix);
}

bool IsScalarResourceName(std::string_view name) {
  const bool prefixed_native = name.find("kubernetes.io/") != std::string_view::npos;
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
         prefixed_native || HasPrefix(name, "attachable-volumes-");
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return b > 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  }
  return r;
}

int64_t Resource::Scalar(Atom name) const {
  auto it = std::lower_bound(
      scalar.begin(), scalar.end(), name,
      [](const std::pair<Atom, int64_t>& e, Atom n) { return e.first < n; });
  return (it != scalar.end() && it->first == name) ? it->second : 0;
}

void Resource::SetScalar(Atom name, int64_t v) {
  auto it = std::lower_bound(
      scalar.begin(), scalar.end(), name,
      [](const std::pair<Atom, int64_t>& e, Atom n) { return e.first < n; });
  if (it != scalar.end() && it->first == name) {
    it->second = v;
  } else {
    scalar.insert(it, {name, v});
  }
}

void Resource::AddScalar(Atom name, int64_t v) {
  SetScalar(name, SaturatingAdd(Scalar(name), v));
}

void Resource::Add(const Resource& o) {
  milli_cpu = SaturatingAdd(milli_cpu, o.milli_cpu);
  memory = SaturatingAdd(memory, o.memory);
  ephemeral_storage = SaturatingAdd(ephemeral_storage, o.ephemeral_storage);
  allowed_pods = SaturatingAdd(allowed_pods, o.allowed_pods);
  for (const auto& [k, v] : o.scalar) AddScalar(k, v);
}

void Resource::Max(const Resource& o) {
  milli_cpu = std::max(milli_cpu, o.milli_cpu);
  memory = std::max(memory, o.memory);
  ephemeral_storage = std::max(ephemeral_storage, o.ephemeral_storage);
  allowed_pods = std::max(allowed_pods, o.allowed_pods);
  for (const auto& [k, v] : o.scalar) SetScalar(k, std::max(Scalar(k), v));
}

bool Resource::IsZero() const {
  if (milli_cpu || memory || ephemeral_storage || allowed_pods) return false;
  for (const auto& e : scalar) {
    if (e.second) return false;
  }
  return true;
}

}  // namespace sched

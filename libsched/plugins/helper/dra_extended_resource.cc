#include "libsched/plugins/helper/dra_extended_resource.h"

#include <algorithm>
#include <optional>
#include <string>

#include "libsched/model/resource.h"

namespace sched {

const DeviceClass* DeviceClassForResource(const ClusterState& cluster, std::string_view resource) {
  const auto& classes = cluster.device_classes();
  if (resource.starts_with(kDeviceClassResourcePrefix)) {
    auto it = classes.find(resource.substr(kDeviceClassResourcePrefix.size()));
    if (it != classes.end()) return it->second.get();
  }
  const DeviceClass* best = nullptr;
  for (const auto& [name, cls] : classes) {
    if (cls->extended_resource_name != resource) continue;
    if (best == nullptr || cls->created > best->created ||
        (cls->created == best->created && cls->name < best->name)) {
      best = cls.get();
    }
  }
  return best;
}

std::vector<std::pair<Atom, const DeviceClass*>> DraExtendedResources(const Pod& pod,
                                                                     const ClusterState& cluster) {
  std::vector<std::pair<Atom, const DeviceClass*>> out;
  if (cluster.device_classes().empty()) return out;
  const Interner& in = cluster.interner();
  bool backed = false;
  for (const auto& [name, amount] : pod.requests.scalar) {
    if (amount == 0) continue;
    const std::string& resource = in.Str(name);
    if (!IsDraExtendedResourceName(resource)) continue;
    const DeviceClass* cls = DeviceClassForResource(cluster, resource);
    backed = backed || cls != nullptr;
    out.emplace_back(name, cls);
  }
  if (!backed) out.clear();
  return out;
}

std::vector<DraDeviceRequest> ExtendedResourceRequests(
    const Pod& pod, const std::vector<std::pair<Atom, const DeviceClass*>>& resources) {
  std::vector<DraDeviceRequest> out;
  auto make = [](int32_t container, int32_t index, const DeviceClass& cls, int64_t count) {
    DraDeviceRequest r;
    r.name = "container-" + std::to_string(container) + "-request-" + std::to_string(index);
    DraRequest& body = r.exactly.emplace();
    body.name = r.name;
    body.device_class_name = cls.name;
    body.mode = DraRequest::Mode::kExactCount;
    body.count = count;
    return r;
  };
  for (const auto& [resource, cls] : resources) {
    // The containers' requests of this resource, by container order.
    struct Ask {
      int32_t container, index;
      bool short_lived;
      int64_t count;
    };
    std::vector<Ask> asks;
    for (const ContainerExtendedRequests& c : pod.extended_requests) {
      for (const ContainerExtendedRequests::Entry& e : c.entries) {
        if (e.name == resource && e.count != 0) {
          asks.push_back({c.container, e.index, c.short_lived, e.count});
        }
      }
    }
    std::optional<DraDeviceRequest> max_short;
    for (size_t i = 0; i < asks.size(); ++i) {
      if (!asks[i].short_lived) continue;
      // The long-lived requests from this container on cover it first.
      int64_t covered = 0;
      for (size_t j = i + 1; j < asks.size() && covered < asks[i].count; ++j) {
        if (!asks[j].short_lived) covered += asks[j].count;
      }
      if (covered >= asks[i].count) continue;
      const int64_t need = asks[i].count - covered;
      if (!max_short || max_short->exactly->count < need) {
        max_short = make(asks[i].container, asks[i].index, *cls, need);
      }
    }
    if (max_short) out.push_back(std::move(*max_short));
    for (const Ask& a : asks) {
      if (!a.short_lived) out.push_back(make(a.container, a.index, *cls, a.count));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const DraDeviceRequest& a, const DraDeviceRequest& b) { return a.name < b.name; });
  return out;
}

std::string DraScoringRefusal(const ClusterState& cluster, const std::string& resource) {
  const DeviceClass* cls = DeviceClassForResource(cluster, resource);
  if (cls == nullptr) return "";
  return "scoring extended resource " + resource + " backed by DeviceClass " + cls->name +
         " (DRAExtendedResource) is not supported by libsched";
}

}  // namespace sched

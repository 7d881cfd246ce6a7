#include "libsched/plugins/helper/csi_translation.h"

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sched {
namespace {

constexpr std::string_view kZone = "topology.kubernetes.io/zone";
constexpr std::string_view kRegion = "topology.kubernetes.io/region";
constexpr std::string_view kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kBetaRegion = "failure-domain.beta.kubernetes.io/region";

// TopologyKeyExist.
bool KeyExists(const std::optional<NodeSelector>& affinity, Atom key) {
  if (!affinity || key == kNoAtom) return false;
  for (const NodeSelectorTerm& t : affinity->terms) {
    for (const Requirement& r : t.match_expressions) {
      if (r.key == key) return true;
    }
  }
  return false;
}

// getTopologyValues is not empty.
bool HasValues(const std::optional<NodeSelector>& affinity, Atom key) {
  if (!affinity || key == kNoAtom) return false;
  for (const NodeSelectorTerm& t : affinity->terms) {
    for (const Requirement& r : t.match_expressions) {
      if (r.key == key && !r.values.empty()) return true;
    }
  }
  return false;
}

// replaceTopology.
void ReplaceKey(NodeSelector* affinity, Atom old_key, Atom new_key) {
  for (NodeSelectorTerm& t : affinity->terms) {
    for (Requirement& r : t.match_expressions) {
      if (r.key == old_key) r.key = new_key;
    }
  }
}

// addTopology: the zones trimmed, without empty ones or repeats, sorted; no
// change when none is left (upstream's error, which its caller ignores).
void AddTopology(std::optional<NodeSelector>* affinity, Atom key, std::string_view label,
                 const Interner& in) {
  std::set<std::string_view> zones;
  for (size_t start = 0;;) {
    const size_t sep = label.find("__", start);
    std::string_view zone = label.substr(start, sep == std::string_view::npos ? sep : sep - start);
    const size_t b = zone.find_first_not_of(" \t\n\v\f\r");
    if (b != std::string_view::npos) {
      zones.insert(zone.substr(b, zone.find_last_not_of(" \t\n\v\f\r") - b + 1));
    }
    if (sep == std::string_view::npos) break;
    start = sep + 2;
  }
  if (zones.empty()) return;
  Requirement r;
  r.key = key;
  r.op = SelectorOp::kIn;
  for (std::string_view z : zones) {
    if (const Atom a = in.Find(z); a != kNoAtom) r.values.push_back(a);
  }
  std::sort(r.values.begin(), r.values.end());
  if (!*affinity) affinity->emplace();
  if ((*affinity)->terms.empty()) (*affinity)->terms.emplace_back();
  for (NodeSelectorTerm& t : (*affinity)->terms) t.match_expressions.push_back(r);
}

}  // namespace

std::string_view CSIDriverForInTreePlugin(std::string_view plugin) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kDrivers = {{
      {kAWSEBSInTreePlugin, "ebs.csi.aws.com"},
      {kGCEPDInTreePlugin, "pd.csi.storage.gke.io"},
      {"kubernetes.io/azure-disk", "disk.csi.azure.com"},
      {"kubernetes.io/azure-file", "file.csi.azure.com"},
      {"kubernetes.io/cinder", "cinder.csi.openstack.org"},
      {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"},
      {"kubernetes.io/portworx-volume", "pxd.portworx.com"},
  }};
  for (const auto& [name, driver] : kDrivers) {
    if (name == plugin) return driver;
  }
  return {};
}

bool IsCSIMigrationOn(const CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr) return false;
  return plugin == kAWSEBSInTreePlugin || plugin == kGCEPDInTreePlugin ||
         plugin == "kubernetes.io/azure-disk" || plugin == "kubernetes.io/cinder" ||
         plugin == "kubernetes.io/portworx-volume";
}

bool IsPluginMigratedToCSIOnNode(const CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr) return false;
  const std::vector<std::string>& m = csi_node->migrated_plugins;
  return std::find(m.begin(), m.end(), plugin) != m.end();
}

std::string_view CSITopologyKey(std::string_view in_tree_plugin) {
  if (in_tree_plugin == kGCEPDInTreePlugin) return "topology.gke.io/zone";
  if (in_tree_plugin == kAWSEBSInTreePlugin) return "topology.ebs.csi.aws.com/zone";
  return {};
}

std::optional<NodeSelector> TranslatePVTopology(const PersistentVolume& pv,
                                                std::string_view csi_key, const Interner& in) {
  std::optional<NodeSelector> out = pv.node_affinity;
  const Atom ga_zone = in.Find(kZone), beta_zone = in.Find(kBetaZone);
  // getTopologyLabel: GA unless only the beta zone key is in use.
  const bool beta =
      !KeyExists(out, ga_zone) &&
      (KeyExists(out, beta_zone) || (!(ga_zone != kNoAtom && pv.labels.Has(ga_zone)) &&
                                     beta_zone != kNoAtom && pv.labels.Has(beta_zone)));
  const Atom zone = beta ? beta_zone : ga_zone;
  const Atom csi = in.Find(csi_key);
  if (HasValues(out, zone)) {
    ReplaceKey(&*out, zone, csi);
  } else if (const std::optional<Atom> v = zone == kNoAtom ? std::nullopt : pv.labels.Get(zone)) {
    AddTopology(&out, csi, in.Str(*v), in);
  }
  const Atom beta_region = in.Find(kBetaRegion);
  if (beta && HasValues(out, beta_region)) ReplaceKey(&*out, beta_region, in.Find(kRegion));
  return out;
}

std::string GCEPDVolumeHandle(std::string_view pd_name, std::string_view zones) {
  const size_t sep = zones.find("__");
  if (zones.empty()) {
    return "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/" + std::string(pd_name);
  }
  if (sep == std::string_view::npos) {
    return "projects/UNSPECIFIED/zones/" + std::string(zones) + "/disks/" + std::string(pd_name);
  }
  // gceGetRegionFromZones: a zone is "<region>-<letter>".
  const std::string_view first = zones.substr(0, sep);
  const std::string_view region = first.substr(0, std::min(first.rfind('-'), first.size()));
  return "projects/UNSPECIFIED/regions/" + std::string(region) + "/disks/" + std::string(pd_name);
}

std::optional<std::string> EBSVolumeHandle(std::string_view volume_id) {
  constexpr std::string_view kScheme = "aws://";
  if (!volume_id.starts_with(kScheme)) return std::string(volume_id);
  const std::string_view rest = volume_id.substr(kScheme.size());
  const size_t slash = rest.rfind('/');
  const std::string_view id =
      slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  if (!id.starts_with("vol-")) return std::nullopt;
  return std::string(id);
}

std::optional<InlineCSIVolume> TranslateInlineVolume(const PodVolume& v) {
  switch (v.source) {
    case PodVolume::Source::kGCEPersistentDisk:
      return InlineCSIVolume{kGCEPDInTreePlugin, CSIDriverForInTreePlugin(kGCEPDInTreePlugin),
                             GCEPDVolumeHandle(v.disk, {})};
    case PodVolume::Source::kAWSElasticBlockStore: {
      std::optional<std::string> handle = EBSVolumeHandle(v.disk);
      if (!handle) return std::nullopt;
      return InlineCSIVolume{kAWSEBSInTreePlugin, CSIDriverForInTreePlugin(kAWSEBSInTreePlugin),
                             std::move(*handle)};
    }
    default:
      return std::nullopt;
  }
}

}  // namespace sched

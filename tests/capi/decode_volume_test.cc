// DecodePersistentVolume, DecodePersistentVolumeClaim, DecodeStorageClass,
// DecodeCSINode, DecodeCSIDriver, DecodeCSIStorageCapacity,
// DecodeVolumeAttachment, pod spec.volumes, and volume kinds in DecodeChanges. The
// PV and PVC inputs start from scheduler_perf's templates
// (/work/shared/corpus/scheduler_perf/templates: pv-csi.json,
// config__pv-aws.json, config__pvc.json) with a name added.
#include <gtest/gtest.h>

#include <string>

#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_volume_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::ParseAndDecodePod;

// Decodes `json` as a document for sched_engine_apply.
ApiStatus DecodeDoc(const std::string& json, Interner& in, ChangeSet* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  return DecodeChanges(doc.get(), in, out);
}

constexpr int64_t kGi = int64_t{1} << 30;

TEST(DecodeVolumeTest, PersistentVolumeCSITemplate) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"apiVersion":"v1","kind":"PersistentVolume",
      "metadata":{"name":"pv-1","labels":{"topology.kubernetes.io/zone":"z1"}},
      "spec":{"accessModes":["ReadOnlyMany"],"capacity":{"storage":"1Gi"},
        "csi":{"driver":"ebs.csi.aws.com","volumeHandle":"vol-1"},
        "persistentVolumeReclaimPolicy":"Retain","storageClassName":"fast","volumeMode":"Block",
        "claimRef":{"namespace":"ns","name":"c","uid":"u"},
        "nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[
          {"key":"topology.kubernetes.io/zone","operator":"In","values":["z1"]}]}]}}},
      "status":{"phase":"Available"}})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 1u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertPersistentVolume);
  EXPECT_EQ(cs.summary.applied, 1);
  const PersistentVolume& pv = *cs.changes[0].pv;
  EXPECT_EQ(pv.name, "pv-1");
  EXPECT_EQ(pv.capacity_bytes, kGi);
  EXPECT_EQ(pv.access_modes, access_mode::kReadOnlyMany);
  EXPECT_EQ(pv.storage_class, "fast");
  EXPECT_TRUE(pv.block_mode);
  EXPECT_EQ(pv.csi_driver, "ebs.csi.aws.com");
  EXPECT_EQ(pv.csi_handle, "vol-1");
  EXPECT_TRUE(pv.in_tree_plugin.empty());
  ASSERT_TRUE(pv.claim_ref.has_value());
  EXPECT_EQ(pv.claim_ref->ns, "ns");
  EXPECT_EQ(pv.claim_ref->uid, "u");
  ASSERT_TRUE(pv.node_affinity.has_value());
  EXPECT_EQ(pv.node_affinity->terms.size(), 1u);
  EXPECT_TRUE(pv.available);
  EXPECT_TRUE(pv.labels.Has(in.Find("topology.kubernetes.io/zone")));
}

// config__pv-aws.json: an in-tree AWS EBS source is counted as its CSI
// driver; a GCE PD's handle carries the PV's zone label.
TEST(DecodeVolumeTest, PersistentVolumeInTreeSources) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"([
      {"type":"ADDED","object":{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"aws"},
        "spec":{"accessModes":["ReadOnlyMany"],"awsElasticBlockStore":{"volumeID":"aws://us-east-1a/vol-abc"},
          "capacity":{"storage":"1Gi"},"persistentVolumeReclaimPolicy":"Retain"}}},
      {"type":"ADDED","object":{"apiVersion":"v1","kind":"PersistentVolume",
        "metadata":{"name":"gce","labels":{"topology.kubernetes.io/zone":"us-central1-a"},
          "annotations":{"volume.beta.kubernetes.io/storage-class":"beta"}},
        "spec":{"gcePersistentDisk":{"pdName":"disk"},"storageClassName":"ga"}}}])",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  const PersistentVolume& aws = *cs.changes[0].pv;
  EXPECT_EQ(aws.in_tree_plugin, "kubernetes.io/aws-ebs");
  EXPECT_EQ(aws.csi_driver, "ebs.csi.aws.com");
  EXPECT_EQ(aws.csi_handle, "vol-abc");
  const PersistentVolume& gce = *cs.changes[1].pv;
  EXPECT_EQ(gce.csi_driver, "pd.csi.storage.gke.io");
  EXPECT_EQ(gce.csi_handle, "projects/UNSPECIFIED/zones/us-central1-a/disks/disk");
  EXPECT_EQ(gce.storage_class, "beta");  // the annotation wins
}

// config__pvc.json plus the fields VolumeBinding reads.
TEST(DecodeVolumeTest, PersistentVolumeClaim) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",
      "metadata":{"name":"data-0","uid":"c-uid","annotations":{"pv.kubernetes.io/bind-completed":"true",
        "volume.kubernetes.io/selected-node":"n1"},
        "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"p-uid","controller":true}]},
      "spec":{"accessModes":["ReadOnlyMany","ReadWriteOncePod"],"resources":{"requests":{"storage":"1Gi"}},
        "storageClassName":"fast","volumeName":"pv-1",
        "selector":{"matchLabels":{"tier":"gold"}}},
      "status":{"phase":"Lost"}})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 1u);
  const PersistentVolumeClaim& c = *cs.changes[0].pvc;
  EXPECT_EQ(cs.changes[0].key, "default/data-0");
  EXPECT_EQ(c.ns, "default");
  EXPECT_EQ(c.storage_request, kGi);
  EXPECT_EQ(c.access_modes, access_mode::kReadOnlyMany | access_mode::kReadWriteOncePod);
  EXPECT_EQ(c.volume_name, "pv-1");
  EXPECT_TRUE(c.bind_completed);
  EXPECT_EQ(c.selected_node, "n1");
  EXPECT_EQ(c.controller_uid, "p-uid");
  EXPECT_TRUE(c.lost);
  ASSERT_TRUE(c.selector.has_value());
  EXPECT_TRUE(c.selector->valid);
}

TEST(DecodeVolumeTest, StorageClassAndCSINode) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"zonal"},
       "provisioner":"ebs.csi.aws.com","volumeBindingMode":"WaitForFirstConsumer",
       "allowedTopologies":[{"matchLabelExpressions":[{"key":"zone","values":["z1","z2"]}]},
                            {"matchLabelExpressions":[{"key":"zone","values":[]}]}]},
      {"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"n1",
        "annotations":{"storage.alpha.kubernetes.io/migrated-plugins":"kubernetes.io/aws-ebs,kubernetes.io/gce-pd"}},
       "spec":{"drivers":[{"name":"ebs.csi.aws.com","nodeID":"i-1","allocatable":{"count":39}},
                          {"name":"other","nodeID":"x"}]}},
      {"apiVersion":"storage.k8s.io/v1beta1","kind":"CSINode","metadata":{"name":"old"}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  EXPECT_EQ(cs.summary.ignored["CSINode"], 1);
  const StorageClass& sc = *cs.changes[0].storage_class;
  EXPECT_EQ(sc.provisioner, "ebs.csi.aws.com");
  EXPECT_EQ(sc.binding_mode, VolumeBindingMode::kWaitForFirstConsumer);
  ASSERT_EQ(sc.allowed_topologies.size(), 2u);
  EXPECT_TRUE(sc.allowed_topologies[0].valid);
  EXPECT_FALSE(sc.allowed_topologies[1].valid);  // no values: never matches
  const CSINode& n = *cs.changes[1].csi_node;
  ASSERT_EQ(n.drivers.size(), 2u);
  EXPECT_EQ(n.drivers[0].allocatable_count, 39);
  EXPECT_FALSE(n.drivers[1].allocatable_count.has_value());
  EXPECT_EQ(n.migrated_plugins,
            (std::vector<std::string>{"kubernetes.io/aws-ebs", "kubernetes.io/gce-pd"}));
}

TEST(DecodeVolumeTest, CSIDriverAndCSIStorageCapacity) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"csi.example.com"},
       "spec":{"attachRequired":true,"storageCapacity":true}},
      {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"plain"},"spec":{}},
      {"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity",
       "metadata":{"name":"c1","namespace":"kube-system"},"storageClassName":"fast",
       "nodeTopology":{"matchLabels":{"zone":"z1"}},"capacity":"10Gi","maximumVolumeSize":"1Gi"},
      {"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"c2"},
       "storageClassName":"fast"},
      {"apiVersion":"storage.k8s.io/v1beta1","kind":"CSIStorageCapacity","metadata":{"name":"old"}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 4u);
  EXPECT_EQ(cs.summary.ignored["CSIStorageCapacity"], 1);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertCSIDriver);
  EXPECT_EQ(cs.changes[0].key, "csi.example.com");
  EXPECT_TRUE(cs.changes[0].csi_driver->storage_capacity);
  EXPECT_FALSE(cs.changes[1].csi_driver->storage_capacity);
  EXPECT_EQ(cs.changes[2].op, Change::Op::kUpsertCSIStorageCapacity);
  EXPECT_EQ(cs.changes[2].key, "kube-system/c1");
  const CSIStorageCapacity& c1 = *cs.changes[2].csi_storage_capacity;
  EXPECT_EQ(c1.storage_class_name, "fast");
  ASSERT_TRUE(c1.node_topology.has_value());
  EXPECT_EQ(c1.node_topology->requirements.size(), 1u);
  EXPECT_EQ(c1.capacity, 10 * kGi);
  EXPECT_EQ(c1.maximum_volume_size, kGi);
  EXPECT_EQ(c1.VolumeLimit(), kGi);
  const CSIStorageCapacity& c2 = *cs.changes[3].csi_storage_capacity;
  EXPECT_EQ(cs.changes[3].key, "default/c2");
  EXPECT_FALSE(c2.node_topology.has_value());  // nil: no node has access
  EXPECT_FALSE(c2.VolumeLimit().has_value());
}

TEST(DecodeVolumeTest, VolumeAttachment) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"([
      {"type":"ADDED","object":{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment",
        "metadata":{"name":"csi-123"},"spec":{"attacher":"ebs.csi.aws.com","nodeName":"n1",
        "source":{"persistentVolumeName":"pv-1"}},"status":{"attached":true}}},
      {"type":"DELETED","object":{"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment",
        "metadata":{"name":"csi-456"},"spec":{"attacher":"d","nodeName":"n2",
        "source":{"inlineVolumeSpec":{}}}}}])",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertVolumeAttachment);
  EXPECT_EQ(cs.changes[0].key, "n1/csi-123");
  const VolumeAttachment& va = *cs.changes[0].volume_attachment;
  EXPECT_EQ(va.attacher, "ebs.csi.aws.com");
  EXPECT_EQ(va.node_name, "n1");
  EXPECT_EQ(va.persistent_volume_name, "pv-1");
  EXPECT_EQ(cs.changes[1].op, Change::Op::kRemoveVolumeAttachment);
  EXPECT_EQ(cs.changes[1].key, "n2/csi-456");
  EXPECT_FALSE(cs.changes[1].volume_attachment->persistent_volume_name.has_value());
}

TEST(DecodeVolumeTest, DeletedObjectsByKey) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"([
      {"type":"DELETED","object":{"kind":"PersistentVolumeClaim","apiVersion":"v1",
        "metadata":{"name":"c","namespace":"ns"}}},
      {"type":"DELETED","object":{"kind":"StorageClass","apiVersion":"storage.k8s.io/v1",
        "metadata":{"name":"sc"}}}])",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kRemovePersistentVolumeClaim);
  EXPECT_EQ(cs.changes[0].key, "ns/c");
  EXPECT_EQ(cs.changes[1].op, Change::Op::kRemoveStorageClass);
  EXPECT_EQ(cs.changes[1].key, "sc");
}

TEST(DecodeVolumeTest, PodVolumes) {
  Interner in;
  DecodedPod d;
  const ApiStatus s = ParseAndDecodePod(R"({"kind":"Pod","metadata":{"name":"web-0"},"spec":{
      "volumes":[
        {"name":"data","persistentVolumeClaim":{"claimName":"data-web-0","readOnly":true}},
        {"name":"scratch","ephemeral":{"volumeClaimTemplate":{"spec":{}}}},
        {"name":"pd","gcePersistentDisk":{"pdName":"disk-1","readOnly":true}},
        {"name":"ebs","awsElasticBlockStore":{"volumeID":"vol-1"}},
        {"name":"ceph","rbd":{"monitors":["m1","m2"],"image":"img"}},
        {"name":"target","iscsi":{"targetPortal":"1.2.3.4","iqn":"iqn.x","lun":0}},
        {"name":"inline","csi":{"driver":"d.example.com"}},
        {"name":"cm","configMap":{"name":"c"}}]}})",
                                        in, &d);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto& v = d.pod->volumes;
  ASSERT_EQ(v.size(), 7u);  // the configMap is not kept
  EXPECT_EQ(v[0].source, PodVolume::Source::kPersistentVolumeClaim);
  EXPECT_EQ(v[0].claim_name, "data-web-0");
  EXPECT_TRUE(v[0].read_only);
  EXPECT_EQ(v[1].source, PodVolume::Source::kEphemeral);
  EXPECT_EQ(v[1].claim_name, "web-0-scratch");
  EXPECT_EQ(v[2].disk, "disk-1");
  EXPECT_TRUE(v[2].read_only);
  EXPECT_EQ(v[3].source, PodVolume::Source::kAWSElasticBlockStore);
  EXPECT_EQ(v[4].rbd_pool, "rbd");
  EXPECT_EQ(v[4].rbd_monitors, (std::vector<std::string>{"m1", "m2"}));
  EXPECT_EQ(v[5].disk, "iqn.x");
  EXPECT_EQ(v[6].disk, "d.example.com");
}

class DecodeVolumeErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeVolumeErrorTest, NamesPathAndReason) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(GetParam().json, in, &cs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.path(), GetParam().path);
  EXPECT_EQ(s.message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeVolumeErrorTest,
    ::testing::Values(
        ErrorCase{
            "NegativeCapacity",
            R"({"kind":"PersistentVolume","metadata":{"name":"p"},"spec":{"capacity":{"storage":"-1"}}})",
            "spec.capacity.storage",
            "spec.capacity.storage: Invalid value: \"-1\": must be greater than or equal to 0"},
        ErrorCase{
            "BadAccessMode",
            R"({"kind":"PersistentVolumeClaim","metadata":{"name":"c"},"spec":{"accessModes":["RWO"]}})",
            "spec.accessModes[0]",
            "spec.accessModes[0]: Unsupported value: \"RWO\": supported values: "
            "\"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""},
        ErrorCase{
            "BadVolumeMode",
            R"({"kind":"PersistentVolume","metadata":{"name":"p"},"spec":{"volumeMode":"Raw"}})",
            "spec.volumeMode",
            "spec.volumeMode: Unsupported value: \"Raw\": supported values: \"Block\", "
            "\"Filesystem\""},
        ErrorCase{
            "BadBindingMode",
            R"({"kind":"StorageClass","apiVersion":"storage.k8s.io/v1","metadata":{"name":"s"},"volumeBindingMode":"Later"})",
            "volumeBindingMode",
            "volumeBindingMode: Unsupported value: \"Later\": supported values: \"Immediate\", "
            "\"WaitForFirstConsumer\""},
        ErrorCase{
            "NegativeCount",
            R"({"kind":"CSINode","apiVersion":"storage.k8s.io/v1","metadata":{"name":"n"},"spec":{"drivers":[{"name":"d","allocatable":{"count":-1}}]}})",
            "spec.drivers[0].allocatable.count",
            "spec.drivers[0].allocatable.count: must be between 0 and 2147483647, got -1"},
        ErrorCase{"MissingName", R"({"kind":"PersistentVolume","metadata":{}})", "metadata.name",
                  "metadata.name: Required value"},
        ErrorCase{
            "CapacityWithoutClass",
            R"({"kind":"CSIStorageCapacity","apiVersion":"storage.k8s.io/v1","metadata":{"name":"c"}})",
            "storageClassName", "storageClassName: Required value"},
        ErrorCase{
            "NegativeCapacityObject",
            R"({"kind":"CSIStorageCapacity","apiVersion":"storage.k8s.io/v1","metadata":{"name":"c"},"storageClassName":"s","maximumVolumeSize":"-1"})",
            "maximumVolumeSize",
            "maximumVolumeSize: Invalid value: \"-1\": must be greater than or equal to 0"},
        ErrorCase{
            "AttachmentWithoutNode",
            R"({"kind":"VolumeAttachment","apiVersion":"storage.k8s.io/v1","metadata":{"name":"a"},"spec":{"attacher":"d"}})",
            "spec.nodeName", "spec.nodeName: Required value"},
        ErrorCase{
            "StorageCapacityNotBool",
            R"({"kind":"CSIDriver","apiVersion":"storage.k8s.io/v1","metadata":{"name":"d"},"spec":{"storageCapacity":"yes"}})",
            "spec.storageCapacity", "spec.storageCapacity: expected a boolean, got a string"},
        ErrorCase{
            "BadAnnotation",
            R"({"kind":"PersistentVolumeClaim","metadata":{"name":"c","annotations":{"volume.kubernetes.io/selected-node":1}}})",
            "metadata.annotations[\"volume.kubernetes.io/selected-node\"]",
            "metadata.annotations[\"volume.kubernetes.io/selected-node\"]: expected a string, got "
            "a number"}),
    CaseName);

}  // namespace
}  // namespace decode_volume_test
}  // namespace sched::capi

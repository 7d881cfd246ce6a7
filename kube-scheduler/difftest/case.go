package difftest

import (
	"encoding/json"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	resourceapi "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Case is one differential test input: a cluster and the pod to schedule.
// Both sides get the same Go structs: upstream directly, the engine as
// their JSON encoding (so both see identical objects).
type Case struct {
	Name       string
	Namespaces []*v1.Namespace
	Nodes      []*v1.Node
	Pods       []*v1.Pod // bound pods; each spec.nodeName names a node in Nodes
	Pod        *v1.Pod   // the pod to schedule
	PDBs       []*policyv1.PodDisruptionBudget
	// The profile's pluginConfig, a JSON array of {name, args} both sides
	// read (nil: upstream's default args).
	PluginConfig []byte
	// Volume objects (volumes.go); empty in cases without volumes.
	PVs            []*v1.PersistentVolume
	PVCs           []*v1.PersistentVolumeClaim
	StorageClasses []*storagev1.StorageClass
	CSINodes       []*storagev1.CSINode
	// CSI objects (volumes.go, csiStorage).
	CSIDrivers           []*storagev1.CSIDriver
	CSIStorageCapacities []*storagev1.CSIStorageCapacity
	VolumeAttachments    []*storagev1.VolumeAttachment
	// DRA objects (dra.go); empty in cases without them.
	DeviceClasses          []*resourceapi.DeviceClass
	ResourceSlices         []*resourceapi.ResourceSlice
	ResourceClaims         []*resourceapi.ResourceClaim
	ResourceClaimTemplates []*resourceapi.ResourceClaimTemplate
}

var (
	nodeType          = metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}
	podType           = metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}
	namespaceType     = metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}
	pdbType           = metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"}
	pvType            = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"}
	pvcType           = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
	classType         = metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass"}
	csiNodeType       = metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSINode"}
	csiDriverType     = metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSIDriver"}
	capacityType      = metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "CSIStorageCapacity"}
	attachType        = metav1.TypeMeta{APIVersion: "storage.k8s.io/v1", Kind: "VolumeAttachment"}
	deviceClassType   = metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"}
	sliceType         = metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"}
	resourceClaimType = metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"}
	claimTemplateType = metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaimTemplate"}
)

// prepare sets what the API server would have set and the JSON encoding
// needs: TypeMeta on every object, a UID on pods (upstream keys its
// nominator and affinity bookkeeping by UID), and the default namespace.
func (c *Case) prepare() {
	for _, ns := range c.Namespaces {
		ns.TypeMeta = namespaceType
	}
	for _, n := range c.Nodes {
		n.TypeMeta = nodeType
	}
	for _, pdb := range c.PDBs {
		pdb.TypeMeta = pdbType
	}
	for _, pv := range c.PVs {
		pv.TypeMeta = pvType
	}
	for _, pvc := range c.PVCs {
		pvc.TypeMeta = pvcType
	}
	for _, sc := range c.StorageClasses {
		sc.TypeMeta = classType
	}
	for _, n := range c.CSINodes {
		n.TypeMeta = csiNodeType
	}
	for _, d := range c.CSIDrivers {
		d.TypeMeta = csiDriverType
	}
	for _, sc := range c.CSIStorageCapacities {
		sc.TypeMeta = capacityType
	}
	for _, va := range c.VolumeAttachments {
		va.TypeMeta = attachType
	}
	for _, o := range c.DeviceClasses {
		o.TypeMeta = deviceClassType
	}
	for _, o := range c.ResourceSlices {
		o.TypeMeta = sliceType
	}
	for _, o := range c.ResourceClaims {
		o.TypeMeta = resourceClaimType
	}
	for _, o := range c.ResourceClaimTemplates {
		o.TypeMeta = claimTemplateType
	}
	for _, p := range append(append([]*v1.Pod(nil), c.Pods...), c.Pod) {
		if p == nil {
			continue // a sequence's cluster (sequence.go) has no pod of its own
		}
		p.TypeMeta = podType
		if p.Namespace == "" {
			p.Namespace = metav1.NamespaceDefault
		}
		if p.UID == "" {
			p.UID = types.UID(p.Namespace + "/" + p.Name)
		}
	}
}

// JSON returns the cluster as one v1 List (namespaces, nodes, bound pods,
// PodDisruptionBudgets, volume objects, DRA objects)
// and the pod, encoded with encoding/json from the structs upstream gets.
func (c *Case) JSON() (cluster, pod []byte, err error) {
	items := make([]any, 0, len(c.Namespaces)+len(c.Nodes)+len(c.Pods)+len(c.PDBs))
	for _, ns := range c.Namespaces {
		items = append(items, ns)
	}
	for _, n := range c.Nodes {
		items = append(items, n)
	}
	for _, p := range c.Pods {
		items = append(items, p)
	}
	for _, pdb := range c.PDBs {
		items = append(items, pdb)
	}
	for _, o := range append(c.volumeObjects(), c.draObjects()...) {
		items = append(items, o)
	}
	if cluster, err = listJSON(items); err != nil {
		return nil, nil, err
	}
	pod, err = json.Marshal(c.Pod)
	return cluster, pod, err
}

// volumeObjects lists the PVs, PVCs, StorageClasses, CSINodes, CSIDrivers,
// CSIStorageCapacities and VolumeAttachments: what upstream's volume
// plugins read through informers.
func (c *Case) volumeObjects() []runtime.Object {
	out := objects(nil, c.PVs)
	out = objects(out, c.PVCs)
	out = objects(out, c.StorageClasses)
	out = objects(out, c.CSINodes)
	out = objects(out, c.CSIDrivers)
	out = objects(out, c.CSIStorageCapacities)
	return objects(out, c.VolumeAttachments)
}

// objects appends xs to out.
func objects[T runtime.Object](out []runtime.Object, xs []T) []runtime.Object {
	for _, o := range xs {
		out = append(out, o)
	}
	return out
}

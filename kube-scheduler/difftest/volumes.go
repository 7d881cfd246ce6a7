package difftest

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Storage vocabulary of the volume plugins' cases: a WaitForFirstConsumer
// class without a provisioner (local PVs only), one that provisions in two
// zones (allowedTopologies), an Immediate class; one CSI driver with an
// attach limit; few disks, so that pods clash on them.
const (
	classLocal     = "local-wffc"
	classZonal     = "zonal-wffc"
	classImmediate = "immediate"
	ebsDriver      = "ebs.csi.aws.com"
	// In-tree GCE PD PVs translate to CSI on nodes whose CSINode lists the
	// plugin; their zone then moves to the CSI topology key.
	gcePlugin          = "kubernetes.io/gce-pd"
	gkeZoneKey         = "topology.gke.io/zone"
	annMigratedPlugins = "storage.alpha.kubernetes.io/migrated-plugins"
)

var (
	diskNames = []string{"disk-1", "disk-2"}
	pvSizes   = []string{"1Gi", "5Gi", "10Gi"}
)

func storageClasses() []*storagev1.StorageClass {
	wffc, immediate := storagev1.VolumeBindingWaitForFirstConsumer, storagev1.VolumeBindingImmediate
	return []*storagev1.StorageClass{
		{ObjectMeta: metav1.ObjectMeta{Name: classLocal}, Provisioner: "kubernetes.io/no-provisioner",
			VolumeBindingMode: &wffc},
		{ObjectMeta: metav1.ObjectMeta{Name: classZonal}, Provisioner: ebsDriver, VolumeBindingMode: &wffc,
			AllowedTopologies: []v1.TopologySelectorTerm{{MatchLabelExpressions: []v1.TopologySelectorLabelRequirement{
				{Key: v1.LabelTopologyZone, Values: zones[:2]}}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: classImmediate}, Provisioner: ebsDriver, VolumeBindingMode: &immediate},
	}
}

// volumes gives some cases PersistentVolumes, claims (bound, unbound,
// ReadWriteOncePod), CSINodes with attach limits, and pod volumes using
// them or in-tree disks: what VolumeRestrictions, NodeVolumeLimits,
// VolumeBinding and VolumeZone decide on.
func (g *generator) volumes(c *Case) {
	if !g.chance(0.4) {
		return
	}
	c.StorageClasses = storageClasses()
	for _, n := range c.Nodes {
		if g.chance(0.5) {
			n.Labels[gkeZoneKey] = pick(g, zones)
		}
		if g.chance(0.7) {
			c.CSINodes = append(c.CSINodes, g.csiNode(n.Name))
		}
	}
	// PVs: local ones pinned to a node or zone, CSI ones with zone labels.
	for i := range 1 + g.n(5) {
		c.PVs = append(c.PVs, g.pv(c, fmt.Sprintf("pv-%d", i)))
	}
	// Claims: bound to an Immediate-class PV (as the PV controller leaves
	// them), unbound of a WFFC class, sometimes ReadWriteOncePod.
	for i := range 1 + g.n(5) {
		c.PVCs = append(c.PVCs, g.pvc(c, i))
	}
	g.csiStorage(c)
	for _, p := range append(append([]*v1.Pod(nil), c.Pods...), c.Pod) {
		for i := range g.n(3) {
			p.Spec.Volumes = append(p.Spec.Volumes, g.podVolume(c, p, fmt.Sprintf("vol-%d", i)))
		}
	}
}

// csiNode is node's CSINode: an attach limit for ebsDriver, and half the
// time the GCE PD plugin listed as migrated.
func (g *generator) csiNode(node string) *storagev1.CSINode {
	limit := int32(1 + g.n(3))
	cn := &storagev1.CSINode{ObjectMeta: metav1.ObjectMeta{Name: node},
		Spec: storagev1.CSINodeSpec{Drivers: []storagev1.CSINodeDriver{{Name: ebsDriver, NodeID: node,
			Allocatable: &storagev1.VolumeNodeResources{Count: &limit}}}}}
	if g.chance(0.5) {
		cn.Annotations = map[string]string{annMigratedPlugins: gcePlugin}
	}
	return cn
}

// csiStorage gives c the CSIDriver of ebsDriver (storageCapacity on, off or
// unset), CSIStorageCapacities of the zonal class in its zones, and
// VolumeAttachments of its CSI PVs on random nodes: VolumeBinding's
// capacity check and NodeVolumeLimits' attachment count.
func (g *generator) csiStorage(c *Case) {
	if g.chance(0.7) {
		c.CSIDrivers = append(c.CSIDrivers, g.csiDriver())
	}
	for i, zone := range zones[:2] {
		if g.chance(0.6) {
			c.CSIStorageCapacities = append(c.CSIStorageCapacities, g.capacity(fmt.Sprintf("cap-%d", i), zone))
		}
	}
	for _, pv := range c.PVs {
		if pv.Spec.CSI != nil && len(c.Nodes) > 0 && g.chance(0.4) {
			c.VolumeAttachments = append(c.VolumeAttachments, attachment(pv.Name, pick(g, c.Nodes).Name))
		}
	}
}

func (g *generator) csiDriver() *storagev1.CSIDriver {
	d := &storagev1.CSIDriver{ObjectMeta: metav1.ObjectMeta{Name: ebsDriver}}
	if k := g.n(3); k < 2 {
		on := k == 0
		d.Spec.StorageCapacity = &on
	}
	return d
}

// capacity is a CSIStorageCapacity of the zonal class in zone, with a
// capacity and sometimes a maximumVolumeSize.
func (g *generator) capacity(name, zone string) *storagev1.CSIStorageCapacity {
	size := resource.MustParse(pick(g, pvSizes))
	c := &storagev1.CSIStorageCapacity{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: metav1.NamespaceDefault},
		StorageClassName: classZonal, Capacity: &size,
		NodeTopology: &metav1.LabelSelector{MatchLabels: map[string]string{v1.LabelTopologyZone: zone}}}
	if g.chance(0.3) {
		limit := resource.MustParse(pick(g, pvSizes))
		c.MaximumVolumeSize = &limit
	}
	return c
}

func attachment(pv, node string) *storagev1.VolumeAttachment {
	return &storagev1.VolumeAttachment{ObjectMeta: metav1.ObjectMeta{Name: "va-" + pv},
		Spec: storagev1.VolumeAttachmentSpec{Attacher: ebsDriver, NodeName: node,
			Source: storagev1.VolumeAttachmentSource{PersistentVolumeName: &pv}}}
}

// podVolume is a claim of the pod's namespace (or a missing one), or an
// in-tree GCE PD / AWS EBS disk.
func (g *generator) podVolume(c *Case, p *v1.Pod, name string) v1.Volume {
	v := v1.Volume{Name: name}
	switch g.n(4) {
	case 0:
		v.GCEPersistentDisk = &v1.GCEPersistentDiskVolumeSource{PDName: pick(g, diskNames), ReadOnly: g.chance(0.5)}
	case 1:
		v.AWSElasticBlockStore = &v1.AWSElasticBlockStoreVolumeSource{VolumeID: pick(g, diskNames)}
	default:
		var mine []string
		for _, pvc := range c.PVCs {
			if pvc.Namespace == p.Namespace {
				mine = append(mine, pvc.Name)
			}
		}
		claim := "missing-claim"
		if len(mine) > 0 && g.chance(0.95) {
			claim = pick(g, mine)
		}
		v.PersistentVolumeClaim = &v1.PersistentVolumeClaimVolumeSource{ClaimName: claim}
	}
	return v
}

// pv is a local PV pinned to one of c's nodes or a zone, an in-tree GCE PD
// with a zone label, or a CSI PV with zone labels.
func (g *generator) pv(c *Case, name string) *v1.PersistentVolume {
	pv := &v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1.PersistentVolumeSpec{
			Capacity:    v1.ResourceList{v1.ResourceStorage: resource.MustParse(pick(g, pvSizes))},
			AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
		},
		Status: v1.PersistentVolumeStatus{Phase: v1.VolumeAvailable}}
	zone := pick(g, zones)
	if g.chance(0.5) {
		pv.Spec.StorageClassName = classLocal
		pv.Spec.Local = &v1.LocalVolumeSource{Path: "/mnt/" + pv.Name}
		key, value := v1.LabelTopologyZone, zone
		if g.chance(0.5) {
			key, value = v1.LabelHostname, pick(g, c.Nodes).Name
		}
		pv.Spec.NodeAffinity = &v1.VolumeNodeAffinity{Required: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
			MatchExpressions: []v1.NodeSelectorRequirement{{Key: key, Operator: v1.NodeSelectorOpIn, Values: []string{value}}}}}}}
	} else if g.chance(0.3) {
		// An in-tree GCE PD, zone in a label (translated on migrated nodes).
		pv.Spec.StorageClassName = classImmediate
		key := pick(g, []string{v1.LabelTopologyZone, v1.LabelFailureDomainBetaZone})
		pv.Labels = map[string]string{key: zone}
		pv.Spec.GCEPersistentDisk = &v1.GCEPersistentDiskVolumeSource{PDName: "pd-" + pv.Name}
	} else {
		pv.Spec.StorageClassName = classImmediate
		pv.Labels = map[string]string{v1.LabelTopologyZone: zone}
		if g.chance(0.3) {
			pv.Labels = map[string]string{v1.LabelFailureDomainBetaZone: zone + "__" + pick(g, zones)}
		}
		pv.Spec.CSI = &v1.CSIPersistentVolumeSource{Driver: ebsDriver, VolumeHandle: "vol-" + pv.Name}
	}
	return pv
}

// pvc is claim number i: bound to a free Immediate-class PV of c (as the
// PV controller leaves them), or unbound, sometimes ReadWriteOncePod.
func (g *generator) pvc(c *Case, i int) *v1.PersistentVolumeClaim {
	ns := pick(g, nsNames)
	pvc := &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("claim-%d", i), Namespace: ns,
		UID: types.UID(fmt.Sprintf("claim-uid-%d", i))},
		Spec: v1.PersistentVolumeClaimSpec{
			AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
			Resources:   v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse(pick(g, pvSizes))}},
		}}
	if g.chance(0.2) {
		pvc.Spec.AccessModes = []v1.PersistentVolumeAccessMode{v1.ReadWriteOncePod}
	}
	class := pick(g, []string{classLocal, classZonal, classImmediate})
	pvc.Spec.StorageClassName = &class
	if class == classImmediate {
		for _, pv := range c.PVs {
			if pv.Spec.StorageClassName == classImmediate && pv.Spec.ClaimRef == nil {
				pv.Spec.ClaimRef = &v1.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: ns, Name: pvc.Name, UID: pvc.UID}
				pv.Status.Phase = v1.VolumeBound
				pvc.Spec.VolumeName = pv.Name
				pvc.Annotations = map[string]string{"pv.kubernetes.io/bind-completed": "yes"}
				pvc.Status.Phase = v1.ClaimBound
				break
			}
		}
	}
	return pvc
}

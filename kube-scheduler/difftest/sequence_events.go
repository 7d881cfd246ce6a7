package difftest

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// event applies one random cluster change to both sides: a bound pod
// deleted, a node added, removed (its pods deleted after it, as the pod
// garbage collector does), relabeled (zone included: the node tree moves
// it), tainted or cordoned, a namespace's labels changed, a PV or a claim
// added or a claim deleted, a CSI object changed (csiEvent).
func (s *sequence) event() (string, error) {
	w := s.world
	switch k := s.g.n(100); {
	case s.dra && k < 8 && len(w.Nodes) > 0:
		return s.draEvent()
	case k < 40 && len(w.Pods) > 0:
		i := s.g.n(len(w.Pods))
		name := w.Pods[i].Name
		return "delete pod " + name, s.deletePod(i)
	case k < 50:
		n := s.newNode()
		w.Nodes = append(w.Nodes, n)
		s.cache.AddNode(s.logger, n)
		if err := s.apply("ADDED", n); err != nil {
			return "", err
		}
		if len(w.StorageClasses) > 0 && s.g.chance(0.7) {
			cn := s.g.csiNode(n.Name)
			cn.TypeMeta = csiNodeType
			w.CSINodes = append(w.CSINodes, cn)
			s.stale()
			return "add node " + n.Name + " with a CSINode", s.apply("ADDED", cn)
		}
		return "add node " + n.Name, nil
	case k < 58 && len(w.Nodes) > 1:
		return s.removeNode(s.g.n(len(w.Nodes)))
	case k < 85 && len(w.Nodes) > 0:
		i := s.g.n(len(w.Nodes))
		old := w.Nodes[i]
		n := old.DeepCopy()
		var what string
		switch s.g.n(4) {
		case 0:
			n.Labels[v1.LabelTopologyZone] = pick(s.g, zones)
			what = "zone " + n.Labels[v1.LabelTopologyZone]
		case 1:
			n.Labels["disk"] = pick(s.g, []string{"ssd", "hdd"})
			what = "disk " + n.Labels["disk"]
		case 2:
			if len(n.Spec.Taints) > 0 && s.g.chance(0.5) {
				n.Spec.Taints = n.Spec.Taints[1:]
				what = "untaint"
			} else {
				n.Spec.Taints = append(n.Spec.Taints, v1.Taint{Key: pick(s.g, taintKeys), Value: pick(s.g, taintValues),
					Effect: pick(s.g, effects)})
				what = "taint"
			}
		default:
			n.Spec.Unschedulable = !n.Spec.Unschedulable
			what = fmt.Sprintf("unschedulable=%v", n.Spec.Unschedulable)
		}
		w.Nodes[i] = n
		s.cache.UpdateNode(s.logger, old, n)
		return "node " + n.Name + " " + what, s.apply("MODIFIED", n)
	case k < 90:
		ns := pick(s.g, w.Namespaces)
		ns.Labels["env"] = pick(s.g, []string{"prod", "dev"})
		ns.Labels["team"] = pick(s.g, []string{"a", "b"})
		s.stale()
		return "namespace " + ns.Name + " relabeled", s.apply("MODIFIED", ns)
	case len(w.StorageClasses) == 0:
		return "none", nil
	case k < 92:
		pv := s.g.pv(w, fmt.Sprintf("pv-seq-%d", s.nextPV))
		s.nextPV++
		pv.TypeMeta = pvType
		w.PVs = append(w.PVs, pv)
		s.stale()
		return "add " + pv.Name, s.apply("ADDED", pv)
	case k < 95:
		pvc := s.g.pvc(w, 100+s.nextClaims)
		s.nextClaims++
		pvc.TypeMeta = pvcType
		w.PVCs = append(w.PVCs, pvc)
		s.stale()
		if err := s.apply("ADDED", pvc); err != nil {
			return "", err
		}
		for _, pv := range w.PVs { // pvc may have bound a free Immediate PV
			if ref := pv.Spec.ClaimRef; ref != nil && ref.Name == pvc.Name && ref.Namespace == pvc.Namespace {
				return "add bound " + pvc.Name, s.apply("MODIFIED", pv)
			}
		}
		return "add " + pvc.Name, nil
	case k < 98:
		return s.csiEvent()
	case len(w.PVCs) > 0:
		i := s.g.n(len(w.PVCs))
		pvc := w.PVCs[i]
		w.PVCs = slices.Delete(w.PVCs, i, i+1)
		s.stale()
		return "delete " + pvc.Name, s.apply("DELETED", pvc)
	}
	return "none", nil
}

// csiEvent changes a CSI object on both sides: the CSIDriver's
// storageCapacity, a CSIStorageCapacity's size (or a new one), a
// VolumeAttachment added or deleted.
func (s *sequence) csiEvent() (string, error) {
	w := s.world
	s.stale()
	switch s.g.n(3) {
	case 0:
		d := s.g.csiDriver()
		d.TypeMeta = csiDriverType
		typ := "ADDED"
		if len(w.CSIDrivers) > 0 {
			typ = "MODIFIED"
		}
		w.CSIDrivers = []*storagev1.CSIDriver{d}
		return fmt.Sprintf("CSIDriver storageCapacity %v", d.Spec.StorageCapacity != nil && *d.Spec.StorageCapacity),
			s.apply(typ, d)
	case 1:
		i := s.g.n(2)
		c := s.g.capacity(fmt.Sprintf("cap-%d", i), zones[i])
		c.TypeMeta = capacityType
		for j, old := range w.CSIStorageCapacities {
			if old.Name == c.Name {
				w.CSIStorageCapacities[j] = c
				return "resize " + c.Name, s.apply("MODIFIED", c)
			}
		}
		w.CSIStorageCapacities = append(w.CSIStorageCapacities, c)
		return "add " + c.Name, s.apply("ADDED", c)
	}
	if len(w.VolumeAttachments) > 0 && s.g.chance(0.5) {
		i := s.g.n(len(w.VolumeAttachments))
		va := w.VolumeAttachments[i]
		w.VolumeAttachments = slices.Delete(w.VolumeAttachments, i, i+1)
		return "delete " + va.Name, s.apply("DELETED", va)
	}
	for _, pv := range w.PVs {
		if pv.Spec.CSI == nil || len(w.Nodes) == 0 || slices.ContainsFunc(w.VolumeAttachments,
			func(va *storagev1.VolumeAttachment) bool { return va.Name == "va-"+pv.Name }) {
			continue
		}
		va := attachment(pv.Name, pick(s.g, w.Nodes).Name)
		va.TypeMeta = attachType
		w.VolumeAttachments = append(w.VolumeAttachments, va)
		return "add " + va.Name + " on " + va.Spec.NodeName, s.apply("ADDED", va)
	}
	return "none", nil
}

func (s *sequence) deletePod(i int) error {
	p := s.world.Pods[i]
	s.world.Pods = slices.Delete(s.world.Pods, i, i+1)
	if err := s.cache.RemovePod(s.logger, p); err != nil {
		return err
	}
	if err := s.apply("DELETED", p); err != nil {
		return err
	}
	return s.deleteClaims(p)
}

// removeNode deletes node i, then its pods and CSINode.
func (s *sequence) removeNode(i int) (string, error) {
	w := s.world
	n := w.Nodes[i]
	w.Nodes = slices.Delete(w.Nodes, i, i+1)
	if err := s.cache.RemoveNode(s.logger, n); err != nil {
		return "", err
	}
	if err := s.apply("DELETED", n); err != nil {
		return "", err
	}
	for j := len(w.Pods) - 1; j >= 0; j-- {
		if w.Pods[j].Spec.NodeName == n.Name {
			if err := s.deletePod(j); err != nil {
				return "", err
			}
		}
	}
	if err := s.removeSlice(n.Name); err != nil {
		return "", err
	}
	for j, cn := range w.CSINodes {
		if cn.Name == n.Name {
			w.CSINodes = slices.Delete(w.CSINodes, j, j+1)
			s.stale()
			return "remove node " + n.Name, s.apply("DELETED", cn)
		}
	}
	return "remove node " + n.Name, nil
}

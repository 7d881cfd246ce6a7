package difftest

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// DRA in a sequence: some sequences get the DeviceClasses and a
// ResourceSlice on most nodes (dra.go's vocabulary); some pod templates ask
// for a claim from a template, which each replica gets as its own
// ResourceClaim (as the resourceclaim controller creates it). A pod placed
// gets its claims allocated as upstream's DynamicResources Reserve
// allocates them on that node, reserved for the pod (PreBind's update),
// and both sides see that update; a pod deleted takes its claims along.
// Slices and the big-GPU class come and go as events.

// initDRA gives half the sequences DRA objects.
func (s *sequence) initDRA() {
	if !s.g.chance(0.5) {
		return
	}
	s.dra = true
	s.claimSpecs = map[*v1.Pod]*resourceapi.ResourceClaim{}
	s.world.DeviceClasses = deviceClasses()
	for _, n := range s.world.Nodes {
		if s.g.chance(0.7) {
			s.world.ResourceSlices = append(s.world.ResourceSlices, s.g.slice(n.Name, ptr.To(n.Name), nil, 2+s.g.n(3)))
		}
	}
}

// draClass gives half the templates a claim from a template.
func (s *sequence) draClass(p *v1.Pod) {
	if !s.dra || !s.g.chance(0.5) {
		return
	}
	p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: ptr.To(gpuTemplate)}}
	s.claimSpecs[p] = s.g.claim(p.Namespace, "", s.g.numRequests())
}

// podClaim creates the claim of pod, a replica of template, on both sides.
func (s *sequence) podClaim(pod, template *v1.Pod) error {
	spec := s.claimSpecs[template]
	if spec == nil {
		return nil
	}
	claim := &resourceapi.ResourceClaim{TypeMeta: resourceClaimType,
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-gpu", Namespace: pod.Namespace,
			UID: types.UID("claim-uid-" + pod.Namespace + "-" + pod.Name),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod.Name,
				UID: pod.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}},
		Spec: *spec.Spec.DeepCopy()}
	pod.Status.ResourceClaimStatuses = []v1.PodResourceClaimStatus{{Name: "gpu", ResourceClaimName: ptr.To(claim.Name)}}
	s.world.ResourceClaims = append(s.world.ResourceClaims, claim)
	s.stale()
	return s.apply("ADDED", claim)
}

// allocate runs upstream's Reserve for pod on node (the last cycle's
// state) and writes the claims, with the allocations Reserve made and
// reserved for pod, to both sides, as PreBind's bindClaim does. It returns how many devices it allocated a share of (results
// with a shareID, DRAConsumableCapacity).
func (s *sequence) allocate(ctx context.Context, up *upstream, pod *v1.Pod, node string) (shares int, err error) {
	if len(pod.Status.ResourceClaimStatuses) == 0 {
		return 0, nil
	}
	if st := up.fw.RunReservePluginsReserve(ctx, up.state, pod, node); !st.IsSuccess() {
		return 0, fmt.Errorf("upstream Reserve of %s on %s: %v", pod.Name, node, st.AsError())
	}
	for _, cs := range pod.Status.ResourceClaimStatuses {
		i := s.claimIndex(pod.Namespace, *cs.ResourceClaimName)
		assumed, err := up.dra.ResourceClaims().Get(pod.Namespace, *cs.ResourceClaimName)
		if err != nil || i < 0 {
			return 0, fmt.Errorf("claim %s of %s after Reserve: %v", *cs.ResourceClaimName, pod.Name, err)
		}
		claim := assumed.DeepCopy()
		// Reserve leaves the assume cache's claim as it was and keeps
		// its allocation in flight; PreBind's bindClaim writes that
		// allocation (and, with DRADeviceBindingConditions, an
		// allocationTimestamp when it has none) with the reservation.
		if claim.Status.Allocation == nil {
			if pending := up.dra.ResourceClaims().GetPendingAllocation(claim.UID); pending != nil {
				claim.Status.Allocation = pending.DeepCopy()
			}
		}
		if claim.Status.Allocation != nil {
			if claim.Status.Allocation.AllocationTimestamp == nil {
				claim.Status.Allocation.AllocationTimestamp = ptr.To(s.start)
			}
			for _, r := range claim.Status.Allocation.Devices.Results {
				if r.ShareID != nil {
					shares++
				}
			}
		}
		claim.TypeMeta = resourceClaimType
		claim.Status.ReservedFor = append(claim.Status.ReservedFor,
			resourceapi.ResourceClaimConsumerReference{Resource: "pods", Name: pod.Name, UID: pod.UID})
		s.world.ResourceClaims[i] = claim
		if err := s.apply("MODIFIED", claim); err != nil {
			return 0, err
		}
	}
	s.stale()
	return shares, nil
}

func (s *sequence) claimIndex(namespace, name string) int {
	return slices.IndexFunc(s.world.ResourceClaims, func(c *resourceapi.ResourceClaim) bool {
		return c.Namespace == namespace && c.Name == name
	})
}

// deleteClaims deletes the claims pod owns (the garbage collector's work).
func (s *sequence) deleteClaims(pod *v1.Pod) error {
	for _, cs := range pod.Status.ResourceClaimStatuses {
		i := s.claimIndex(pod.Namespace, *cs.ResourceClaimName)
		if i < 0 {
			continue
		}
		claim := s.world.ResourceClaims[i]
		s.world.ResourceClaims = slices.Delete(s.world.ResourceClaims, i, i+1)
		s.stale()
		if err := s.apply("DELETED", claim); err != nil {
			return err
		}
	}
	return nil
}

// draEvent adds or removes a node's ResourceSlice, or the big-GPU class.
func (s *sequence) draEvent() (string, error) {
	w := s.world
	if s.g.chance(0.2) {
		for i, c := range w.DeviceClasses {
			if c.Name == classBigGPU {
				w.DeviceClasses = slices.Delete(w.DeviceClasses, i, i+1)
				s.stale()
				return "delete class " + classBigGPU, s.apply("DELETED", c)
			}
		}
		c := deviceClasses()[1]
		c.TypeMeta = deviceClassType
		w.DeviceClasses = append(w.DeviceClasses, c)
		s.stale()
		return "add class " + classBigGPU, s.apply("ADDED", c)
	}
	n := pick(s.g, w.Nodes)
	for i, sl := range w.ResourceSlices {
		if sl.Spec.NodeName != nil && *sl.Spec.NodeName == n.Name {
			if s.usesSlice(n.Name) {
				return "none", nil // allocated devices stay published while in use
			}
			w.ResourceSlices = slices.Delete(w.ResourceSlices, i, i+1)
			s.stale()
			return "delete slice of " + n.Name, s.apply("DELETED", sl)
		}
	}
	sl := s.g.slice(n.Name, ptr.To(n.Name), nil, 2+s.g.n(3))
	sl.TypeMeta = sliceType
	w.ResourceSlices = append(w.ResourceSlices, sl)
	s.stale()
	return "add slice of " + n.Name, s.apply("ADDED", sl)
}

// usesSlice reports whether a claim holds a device of node's pool.
func (s *sequence) usesSlice(node string) bool {
	for _, c := range s.world.ResourceClaims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if r.Pool == node {
				return true
			}
		}
	}
	return false
}

// removeSlice deletes node's ResourceSlice (the node is gone).
func (s *sequence) removeSlice(node string) error {
	for i, sl := range s.world.ResourceSlices {
		if sl.Spec.NodeName != nil && *sl.Spec.NodeName == node {
			s.world.ResourceSlices = slices.Delete(s.world.ResourceSlices, i, i+1)
			s.stale()
			return s.apply("DELETED", sl)
		}
	}
	return nil
}

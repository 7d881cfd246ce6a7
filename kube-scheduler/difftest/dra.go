package difftest

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// DRA vocabulary of DynamicResources' cases: one driver whose devices
// carry a model, a NUMA node, an index and memory; a class of all its
// devices and one of the big ones (CEL on capacity), both selecting by
// CEL; a class name no DeviceClass has. Few devices per node, so that
// requests and the devices bound pods hold collide.
const (
	gpuDriver    = "gpu.example.com"
	classGPU     = "gpu"
	classBigGPU  = "big-gpu"
	classMissing = "no-such-class"
	gpuTemplate  = "gpu-template"
	fabricPool   = "fabric"
)

var (
	gpuModels   = []string{"a100", "h100"}
	gpuMemories = []string{"16Gi", "80Gi"}
	// Request selectors: on a string, an int and a quantity attribute.
	requestSelectors = []string{
		`device.attributes["gpu.example.com"].model == "h100"`,
		`device.attributes["gpu.example.com"].index >= 1`,
		`device.capacity["gpu.example.com"].memory.compareTo(quantity("32Gi")) < 0`,
	}
)

func deviceClasses() []*resourceapi.DeviceClass {
	class := func(name, expr string) *resourceapi.DeviceClass {
		return &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{{
				CEL: &resourceapi.CELDeviceSelector{Expression: expr}}}}}
	}
	return []*resourceapi.DeviceClass{
		class(classGPU, `device.driver == "gpu.example.com"`),
		class(classBigGPU, `device.driver == "gpu.example.com" && `+
			`device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0`),
	}
}

// dra gives some cases DeviceClasses, a ResourceSlice per node (some
// nodes), a network-attached pool in one zone, claims allocated to bound
// pods (reserved for them, on their node's devices), and claims of the pod
// to schedule: generated from a template (owned by the pod, named in its
// status), shared with a bound pod, missing, or not created yet.
func (g *generator) dra(c *Case) {
	if !g.chance(0.3) {
		return
	}
	c.DeviceClasses = deviceClasses()
	devices := map[string][]resourceapi.Device{} // by pool
	for _, n := range c.Nodes {
		if !g.chance(0.7) {
			continue
		}
		slice := g.slice(n.Name, ptr.To(n.Name), nil, 2+g.n(3))
		c.ResourceSlices = append(c.ResourceSlices, slice)
		devices[n.Name] = slice.Spec.Devices
	}
	if g.chance(0.3) {
		zone := pick(g, zones)
		sel := &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{
			{Key: v1.LabelTopologyZone, Operator: v1.NodeSelectorOpIn, Values: []string{zone}}}}}}
		c.ResourceSlices = append(c.ResourceSlices, g.slice(fabricPool, nil, sel, 1+g.n(2)))
	}
	used := map[string]bool{} // pool/device
	for i, p := range c.Pods {
		free := freeDevice(devices[p.Spec.NodeName], p.Spec.NodeName, used)
		if free == "" || !g.chance(0.4) {
			continue
		}
		used[p.Spec.NodeName+"/"+free] = true
		claim := g.claim(p.Namespace, fmt.Sprintf("bound-claim-%d", i), 1)
		claim.Status.Allocation = &resourceapi.AllocationResult{
			Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{{
				Request: "r0", Driver: gpuDriver, Pool: p.Spec.NodeName, Device: free}}},
			NodeSelector: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{
				{Key: metav1.ObjectNameField, Operator: v1.NodeSelectorOpIn, Values: []string{p.Spec.NodeName}}}}}},
		}
		setUID(p)
		claim.Status.ReservedFor = []resourceapi.ResourceClaimConsumerReference{
			{Resource: "pods", Name: p.Name, UID: p.UID}}
		c.ResourceClaims = append(c.ResourceClaims, claim)
		p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, v1.PodResourceClaim{Name: "gpu", ResourceClaimName: &claim.Name})
	}
	if g.chance(0.8) {
		g.incomingClaims(c)
	}
}

// incomingClaims gives the pod to schedule one or two claims.
func (g *generator) incomingClaims(c *Case) {
	p := c.Pod
	setUID(p)
	for i := range 1 + g.n(2) {
		name := fmt.Sprintf("claim-%d", i)
		switch k := g.n(10); {
		case k < 6: // generated from the template, as the resourceclaim controller does
			prc := v1.PodResourceClaim{Name: name, ResourceClaimTemplateName: ptr.To(gpuTemplate)}
			p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, prc)
			if g.chance(0.05) {
				continue // not created yet
			}
			claim := g.claim(p.Namespace, fmt.Sprintf("%s-%s-x%d", p.Name, name, i), g.numRequests())
			claim.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name,
				UID: p.UID, Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
			c.ResourceClaims = append(c.ResourceClaims, claim)
			p.Status.ResourceClaimStatuses = append(p.Status.ResourceClaimStatuses,
				v1.PodResourceClaimStatus{Name: name, ResourceClaimName: ptr.To(claim.Name)})
		case k < 9: // an existing claim: a bound pod's (shared), or a free one
			claimName := fmt.Sprintf("free-claim-%d", i)
			var shared []string
			for _, cl := range c.ResourceClaims {
				if cl.Namespace == p.Namespace && cl.Status.Allocation != nil {
					shared = append(shared, cl.Name)
				}
			}
			if len(shared) > 0 && g.chance(0.5) {
				claimName = pick(g, shared)
			} else {
				c.ResourceClaims = append(c.ResourceClaims, g.claim(p.Namespace, claimName, g.numRequests()))
			}
			p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, v1.PodResourceClaim{Name: name, ResourceClaimName: &claimName})
		default:
			p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, v1.PodResourceClaim{Name: name, ResourceClaimName: ptr.To("missing-claim")})
		}
	}
	if g.chance(0.5) {
		c.ResourceClaimTemplates = []*resourceapi.ResourceClaimTemplate{{
			ObjectMeta: metav1.ObjectMeta{Name: gpuTemplate, Namespace: p.Namespace},
			Spec:       resourceapi.ResourceClaimTemplateSpec{Spec: g.claim(p.Namespace, "", 1).Spec}}}
	}
}

// slice is pool's ResourceSlice, on a node or the nodes sel selects, with
// n devices.
func (g *generator) slice(pool string, node *string, sel *v1.NodeSelector, n int) *resourceapi.ResourceSlice {
	s := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: pool + "-" + gpuDriver},
		Spec: resourceapi.ResourceSliceSpec{Driver: gpuDriver, NodeName: node, NodeSelector: sel,
			Pool: resourceapi.ResourcePool{Name: pool, Generation: 1, ResourceSliceCount: 1}}}
	for i := range n {
		s.Spec.Devices = append(s.Spec.Devices, resourceapi.Device{
			Name: fmt.Sprintf("gpu-%d", i),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"model": {StringValue: ptr.To(pick(g, gpuModels))},
				"numa":  {IntValue: ptr.To(int64(i / 2))},
				"index": {IntValue: ptr.To(int64(i))},
			},
			Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{
				"memory": {Value: resource.MustParse(pick(g, gpuMemories))},
			},
		})
	}
	return s
}

// claim asks for devices: requests of a class (sometimes one that does
// not exist), a count or all, sometimes a CEL selector; two requests are
// sometimes constrained to one NUMA node or distinct models.
func (g *generator) claim(ns, name string, requests int) *resourceapi.ResourceClaim {
	claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns,
		UID: types.UID("claim-uid-" + ns + "-" + name)}}
	spec := &claim.Spec.Devices
	for i := range requests {
		class := pick(g, []string{classGPU, classGPU, classBigGPU})
		if g.chance(0.03) {
			class = classMissing
		}
		req := &resourceapi.ExactDeviceRequest{DeviceClassName: class,
			AllocationMode: resourceapi.DeviceAllocationModeExactCount, Count: 1}
		if g.chance(0.25) {
			req.Count = 2
		}
		if g.chance(0.1) {
			req.AllocationMode, req.Count = resourceapi.DeviceAllocationModeAll, 0
		}
		if g.chance(0.3) {
			req.Selectors = []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{
				Expression: pick(g, requestSelectors)}}}
		}
		spec.Requests = append(spec.Requests, resourceapi.DeviceRequest{Name: fmt.Sprintf("r%d", i), Exactly: req})
	}
	if requests > 1 && g.chance(0.5) {
		c := resourceapi.DeviceConstraint{}
		if g.chance(0.5) {
			c.MatchAttribute = ptr.To(resourceapi.FullyQualifiedName(gpuDriver + "/numa"))
		} else {
			c.DistinctAttribute = ptr.To(resourceapi.FullyQualifiedName(gpuDriver + "/model"))
		}
		spec.Constraints = []resourceapi.DeviceConstraint{c}
	}
	return claim
}

// numRequests is how many requests a claim of the pod has: mostly one.
func (g *generator) numRequests() int {
	if g.chance(0.3) {
		return 2
	}
	return 1
}

// freeDevice is a device of pool not in used, or "".
func freeDevice(devices []resourceapi.Device, pool string, used map[string]bool) string {
	for _, d := range devices {
		if !used[pool+"/"+d.Name] {
			return d.Name
		}
	}
	return ""
}

// setUID gives p the UID prepare would, now: claims refer to it.
func setUID(p *v1.Pod) {
	if p.Namespace == "" {
		p.Namespace = metav1.NamespaceDefault
	}
	if p.UID == "" {
		p.UID = types.UID(p.Namespace + "/" + p.Name)
	}
}

// hasDRA reports whether upstream needs a DRA manager for c: it has DRA
// objects or pods with claims.
func (c *Case) hasDRA() bool {
	return len(c.draObjects()) > 0 || (c.Pod != nil && len(c.Pod.Spec.ResourceClaims) > 0)
}

// draObjects lists the DeviceClasses, ResourceSlices, ResourceClaims and
// ResourceClaimTemplates: what DynamicResources reads through informers.
func (c *Case) draObjects() []runtime.Object {
	out := objects(nil, c.DeviceClasses)
	out = objects(out, c.ResourceSlices)
	out = objects(out, c.ResourceClaims)
	return objects(out, c.ResourceClaimTemplates)
}

package difftest

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// DRA vocabulary of DynamicResources' cases: one driver whose devices
// carry a model, a NUMA node, an index and memory; some devices allow
// multiple allocations (DRAConsumableCapacity, beta and on in v1.36), with
// a bandwidth too and request policies on their capacities; a class of all
// the driver's devices, one of the big ones (CEL on capacity) and one of
// the shared ones (CEL on allowMultipleAllocations), all selecting by CEL;
// a class name no DeviceClass has. Few devices per node, so that requests
// and the devices bound pods hold collide.
const (
	gpuDriver      = "gpu.example.com"
	classGPU       = "gpu"
	classBigGPU    = "big-gpu"
	classSharedGPU = "shared-gpu"
	classMissing   = "no-such-class"
	gpuTemplate    = "gpu-template"
	fabricPool     = "fabric"
	// A device's binding condition and binding failure condition.
	condAttached = "attached"
	condFailed   = "failed"
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
	// capacity.requests of a claim's request: memory (some rounded up by
	// a policy's step or valid values, some more than a device has) and
	// bandwidth (only shared devices have it).
	memoryRequests    = []string{"1Gi", "4Gi", "6Gi", "10Gi", "20Gi", "64Gi"}
	bandwidthRequests = []string{"1G", "2500M", "4G"}
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
		class(classSharedGPU, `device.driver == "gpu.example.com" && device.allowMultipleAllocations`),
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
	shares := shareTracker{}
	for i, p := range c.Pods {
		devs := devices[p.Spec.NodeName]
		if len(devs) == 0 || !g.chance(0.4) {
			continue
		}
		result := resourceapi.DeviceRequestAllocationResult{Request: "r0", Driver: gpuDriver, Pool: p.Spec.NodeName}
		d := pick(g, devs)
		if d.AllowMultipleAllocations != nil { // a share of it
			consumed := shares.take(p.Spec.NodeName, d)
			if consumed == nil {
				continue
			}
			result.ShareID, result.ConsumedCapacity = ptr.To(types.UID(shareUID(i))), consumed
		} else if d = freeDevice(devs, p.Spec.NodeName, used); d.Name == "" {
			continue
		}
		result.Device = d.Name
		result.BindingConditions, result.BindingFailureConditions = d.BindingConditions, d.BindingFailureConditions
		used[p.Spec.NodeName+"/"+result.Device] = true
		claim := g.claim(p.Namespace, fmt.Sprintf("bound-claim-%d", i), 1)
		claim.Status.Allocation = &resourceapi.AllocationResult{
			Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{result}},
			NodeSelector: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{
				{Key: metav1.ObjectNameField, Operator: v1.NodeSelectorOpIn, Values: []string{p.Spec.NodeName}}}}}},
		}
		g.binding(claim)
		setUID(p)
		claim.Status.ReservedFor = []resourceapi.ResourceClaimConsumerReference{
			{Resource: "pods", Name: p.Name, UID: p.UID}}
		c.ResourceClaims = append(c.ResourceClaims, claim)
		p.Spec.ResourceClaims = append(p.Spec.ResourceClaims, v1.PodResourceClaim{Name: "gpu", ResourceClaimName: &claim.Name})
	}
	if g.chance(0.8) {
		g.incomingClaims(c)
	}
	g.extendedResources(c)
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
			var shared, waiting []string // waiting: for binding conditions
			for _, cl := range c.ResourceClaims {
				if cl.Namespace == p.Namespace && cl.Status.Allocation != nil {
					shared = append(shared, cl.Name)
					if cl.Status.Allocation.AllocationTimestamp != nil {
						waiting = append(waiting, cl.Name)
					}
				}
			}
			if len(shared) > 0 && g.chance(0.5) {
				claimName = pick(g, shared)
				if len(waiting) > 0 && g.chance(0.5) {
					claimName = pick(g, waiting)
				}
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

// binding gives an allocated claim whose results wait for binding
// conditions what PreBind and the device's controller write: an
// allocationTimestamp a minute or an hour (past DynamicResources' 600 s
// binding timeout) before now, and sometimes the device's status with its
// binding condition or its failure condition True. Upstream's Filter
// judges the timeout on time.Now() and the engine on its clock, which
// decideEngine sets to the wall time: far from the timeout, both agree
// now and when a repro is replayed later (then every claim timed out).
func (g *generator) binding(claim *resourceapi.ResourceClaim) {
	a := claim.Status.Allocation
	waits := false
	for _, r := range a.Devices.Results {
		waits = waits || len(r.BindingConditions) > 0
	}
	if !waits {
		return
	}
	age := pick(g, []time.Duration{time.Minute, time.Hour})
	a.AllocationTimestamp = &metav1.Time{Time: time.Now().Add(-age).Truncate(time.Second)}
	var cond string
	switch k := g.n(5); {
	case k < 2:
		cond = condAttached
	case k < 3:
		cond = condFailed
	default:
		return // not reported yet
	}
	for _, r := range a.Devices.Results {
		claim.Status.Devices = append(claim.Status.Devices, resourceapi.AllocatedDeviceStatus{
			Driver: r.Driver, Pool: r.Pool, Device: r.Device, ShareID: (*string)(r.ShareID),
			Conditions: []metav1.Condition{{Type: cond, Status: metav1.ConditionTrue, Reason: "Test",
				LastTransitionTime: *a.AllocationTimestamp}}})
	}
}

// extendedResources backs extended resources by DRA (DRAExtendedResource):
// sometimes the GPU class names example.com/gpu, which pods request (on
// nodes that do not report it as allocatable, a device of the class
// serves it), and sometimes the pod to schedule asks for the class's
// implicit name, deviceclass.resource.kubernetes.io/<class>.
func (g *generator) extendedResources(c *Case) {
	if g.chance(0.4) {
		c.DeviceClasses[0].Spec.ExtendedResourceName = ptr.To(string(gpu))
	}
	if g.chance(0.2) && len(c.Pod.Spec.Containers) > 0 {
		rl := c.Pod.Spec.Containers[0].Resources.Requests
		if rl == nil {
			rl = v1.ResourceList{}
			c.Pod.Spec.Containers[0].Resources.Requests = rl
		}
		rl[v1.ResourceName(resourceapi.ResourceDeviceClassPrefix+classGPU)] = *resource.NewQuantity(int64(1+g.n(2)), resource.DecimalSI)
	}
}

// slice is pool's ResourceSlice, on a node or the nodes sel selects, with
// n devices.
func (g *generator) slice(pool string, node *string, sel *v1.NodeSelector, n int) *resourceapi.ResourceSlice {
	s := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: pool + "-" + gpuDriver},
		Spec: resourceapi.ResourceSliceSpec{Driver: gpuDriver, NodeName: node, NodeSelector: sel,
			Pool: resourceapi.ResourcePool{Name: pool, Generation: 1, ResourceSliceCount: 1}}}
	for i := range n {
		d := resourceapi.Device{
			Name: fmt.Sprintf("gpu-%d", i),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"model": {StringValue: ptr.To(pick(g, gpuModels))},
				"numa":  {IntValue: ptr.To(int64(i / 2))},
				"index": {IntValue: ptr.To(int64(i))},
			},
			Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{
				"memory": {Value: resource.MustParse(pick(g, gpuMemories))},
			},
		}
		if g.chance(0.3) {
			g.shared(&d)
		}
		if g.chance(0.35) { // prepared by a controller after scheduling (DRADeviceBindingConditions)
			d.BindingConditions, d.BindingFailureConditions = []string{condAttached}, []string{condFailed}
			if g.chance(0.5) {
				d.BindsToNode = ptr.To(true)
			}
		}
		s.Spec.Devices = append(s.Spec.Devices, d)
	}
	return s
}

// shared lets d be allocated many times (DRAConsumableCapacity): its
// memory gets a request policy (a range with or without a step and max,
// valid values, or none: a share then takes all of it unless it asks
// less), and it gets a bandwidth, mostly with a policy too. The policies
// are valid ones (API validation: default within them, values ascending,
// nothing above the capacity).
func (g *generator) shared(d *resourceapi.Device) {
	d.AllowMultipleAllocations = ptr.To(true)
	memory := d.Capacity["memory"]
	q := resource.MustParse
	switch g.n(4) {
	case 0:
		memory.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("4Gi")),
			ValidRange: &resourceapi.CapacityRequestPolicyRange{Min: ptr.To(q("4Gi")), Step: ptr.To(q("4Gi")),
				Max: ptr.To(memory.Value.DeepCopy())}}
	case 1:
		memory.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("8Gi")),
			ValidRange: &resourceapi.CapacityRequestPolicyRange{Min: ptr.To(q("2Gi"))}}
	case 2:
		memory.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("8Gi")),
			ValidValues: []resource.Quantity{q("4Gi"), q("8Gi"), q("16Gi")}}
	}
	d.Capacity["memory"] = memory
	bandwidth := resourceapi.DeviceCapacity{Value: q("10G")}
	if g.chance(0.8) {
		bandwidth.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("1G")),
			ValidRange: &resourceapi.CapacityRequestPolicyRange{Min: ptr.To(q("1G")), Step: ptr.To(q("1G"))}}
	}
	d.Capacity["bandwidth"] = bandwidth
}

// shareTracker is what the shares of bound pods' claims consume, by
// pool/device/capacity.
type shareTracker map[string]resource.Quantity

// take returns what a share that asks nothing consumes of d (each
// capacity's policy default, else all of it), as the allocator writes it
// to consumedCapacity, and counts it; nil when that does not fit any more.
func (t shareTracker) take(pool string, d resourceapi.Device) map[resourceapi.QualifiedName]resource.Quantity {
	consumed := map[resourceapi.QualifiedName]resource.Quantity{}
	for name, c := range d.Capacity {
		v := c.Value.DeepCopy()
		if c.RequestPolicy != nil && c.RequestPolicy.Default != nil {
			v = c.RequestPolicy.Default.DeepCopy()
		}
		sum := t[pool+"/"+d.Name+"/"+string(name)]
		sum.Add(v)
		if sum.Cmp(c.Value) > 0 {
			return nil
		}
		consumed[name] = v
	}
	for name, v := range consumed {
		sum := t[pool+"/"+d.Name+"/"+string(name)]
		sum.Add(v)
		t[pool+"/"+d.Name+"/"+string(name)] = sum
	}
	return consumed
}

// shareUID is the shareID of bound pod i's share (a UUID, as the
// allocator draws one).
func shareUID(i int) string { return fmt.Sprintf("5a4e0000-0000-4000-8000-%012d", i) }

// claim asks for devices: requests of a class (sometimes one that does
// not exist), a count or all, sometimes a CEL selector; two requests are
// sometimes constrained to one NUMA node or distinct models.
func (g *generator) claim(ns, name string, requests int) *resourceapi.ResourceClaim {
	claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns,
		UID: types.UID("claim-uid-" + ns + "-" + name)}}
	spec := &claim.Spec.Devices
	for i := range requests {
		class := pick(g, []string{classGPU, classGPU, classBigGPU, classSharedGPU})
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
		if g.chance(0.35) {
			req.Capacity = g.capacityRequests()
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

// capacityRequests asks memory, bandwidth or both of a device.
func (g *generator) capacityRequests() *resourceapi.CapacityRequirements {
	r := map[resourceapi.QualifiedName]resource.Quantity{}
	k := g.n(3)
	if k != 1 {
		r["memory"] = resource.MustParse(pick(g, memoryRequests))
	}
	if k != 0 {
		r["bandwidth"] = resource.MustParse(pick(g, bandwidthRequests))
	}
	return &resourceapi.CapacityRequirements{Requests: r}
}

// asksCapacity reports whether a request of a claim of pod asks
// capacity.requests.
func asksCapacity(pod *v1.Pod, claims []*resourceapi.ResourceClaim) bool {
	names := map[string]bool{}
	for _, rc := range pod.Spec.ResourceClaims {
		if rc.ResourceClaimName != nil {
			names[*rc.ResourceClaimName] = true
		}
	}
	for _, cs := range pod.Status.ResourceClaimStatuses {
		if cs.ResourceClaimName != nil {
			names[*cs.ResourceClaimName] = true
		}
	}
	for _, claim := range claims {
		if claim.Namespace != pod.Namespace || !names[claim.Name] {
			continue
		}
		for _, r := range claim.Spec.Devices.Requests {
			if r.Exactly != nil && r.Exactly.Capacity != nil {
				return true
			}
		}
	}
	return false
}

// usesBindingClaim reports whether pod uses a claim allocated on a device
// with binding conditions (claims named in its spec; its generated claims
// are never allocated).
func usesBindingClaim(pod *v1.Pod, claims []*resourceapi.ResourceClaim) bool {
	for _, rc := range pod.Spec.ResourceClaims {
		for _, c := range claims {
			if rc.ResourceClaimName == nil || c.Namespace != pod.Namespace || c.Name != *rc.ResourceClaimName || c.Status.Allocation == nil {
				continue
			}
			for _, r := range c.Status.Allocation.Devices.Results {
				if len(r.BindingConditions) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// asksClassResource reports whether a container of pod requests an
// extended resource one of classes backs: its extendedResourceName, or
// its implicit deviceclass.resource.kubernetes.io/<name>.
func asksClassResource(pod *v1.Pod, classes []*resourceapi.DeviceClass) bool {
	backed := map[v1.ResourceName]bool{}
	for _, c := range classes {
		backed[v1.ResourceName(resourceapi.ResourceDeviceClassPrefix+c.Name)] = true
		if c.Spec.ExtendedResourceName != nil {
			backed[v1.ResourceName(*c.Spec.ExtendedResourceName)] = true
		}
	}
	for _, cs := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range cs {
			for name := range c.Resources.Requests {
				if backed[name] {
					return true
				}
			}
		}
	}
	return false
}

// numRequests is how many requests a claim of the pod has: mostly one.
func (g *generator) numRequests() int {
	if g.chance(0.3) {
		return 2
	}
	return 1
}

// freeDevice is a device of pool not in used and allocated whole (not
// shared), or one without a name.
func freeDevice(devices []resourceapi.Device, pool string, used map[string]bool) resourceapi.Device {
	for _, d := range devices {
		if d.AllowMultipleAllocations == nil && !used[pool+"/"+d.Name] {
			return d
		}
	}
	return resourceapi.Device{}
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

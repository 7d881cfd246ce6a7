package difftest

import (
	"fmt"
	"math/rand/v2"
	"time"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The generator draws from small vocabularies so that labels, taints,
// ports and images collide often: the interesting cases are the ones where
// a selector matches, a port clashes or a toleration half-fits.
var (
	zones       = []string{"zone-a", "zone-b", "zone-c"}
	taintKeys   = []string{"dedicated", "gpu", "spot"}
	taintValues = []string{"", "a", "b"}
	effects     = []v1.TaintEffect{v1.TaintEffectNoSchedule, v1.TaintEffectPreferNoSchedule, v1.TaintEffectNoExecute}
	apps        = []string{"web", "db", "cache"}
	tiers       = []string{"frontend", "backend"}
	ports       = []int32{80, 443, 8080}
	// Spellings ImageLocality normalizes to one another, and others.
	images = []string{"nginx", "nginx:latest", "docker.io/library/nginx:latest", "redis:7",
		"registry.k8s.io/pause:3.10", "quay.io/app/big:v1", "busybox"}
	// Sizes around ImageLocality's thresholds (23 MB, 1000 MB per container).
	imageSizes = []int64{190 << 20, 190 << 20, 190 << 20, 120 << 20, 700 << 10, 1800 << 20, 4 << 20}
	// Keys nodes carry; "rack" is one they never do.
	topologyKeys = []string{v1.LabelHostname, v1.LabelTopologyZone, v1.LabelTopologyZone, "rack"}
	nsNames      = []string{"default", "team-a", "team-b"}
	gpu          = v1.ResourceName("example.com/gpu")
)

// generator builds random cases from a seed; the same seed gives the same
// case.
type generator struct {
	r *rand.Rand
	// argsShare is the share of cases given a pluginConfig (pluginconfig.go).
	argsShare float64
}

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 0x5eed)), argsShare: 1.0 / 3}
}

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }
func (g *generator) n(k int) int           { return g.r.IntN(k) }

func pick[T any](g *generator, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *generator) namespaces() []*v1.Namespace {
	labels := []map[string]string{{}, {"team": "a", "env": "prod"}, {"team": "b", "env": "dev"}}
	var out []*v1.Namespace
	for i, name := range nsNames {
		l := map[string]string{v1.LabelMetadataName: name}
		for k, v := range labels[i] {
			l[k] = v
		}
		out = append(out, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l}})
	}
	return out
}

// Case returns case number i of the seeded stream.
func (g *generator) Case(i int) *Case {
	c := &Case{Name: fmt.Sprintf("random-%d", i), Namespaces: g.namespaces()}
	for j := range 1 + g.n(8) {
		c.Nodes = append(c.Nodes, g.node(fmt.Sprintf("node-%d", j)))
	}
	for j := range g.n(2 * len(c.Nodes)) {
		p := g.pod(fmt.Sprintf("existing-%d", j), false)
		p.Spec.NodeName = pick(g, c.Nodes).Name
		c.Pods = append(c.Pods, p)
	}
	c.Pod = g.pod("incoming", true)
	g.preemption(c)
	c.PluginConfig = g.pluginConfig()
	g.volumes(c)
	g.dra(c)
	if g.chance(0.05) {
		c.Pod.Spec.NodeName = fmt.Sprintf("node-%d", g.n(len(c.Nodes)+1))
	}
	if g.chance(0.5) {
		// Half the cases as the API server stores them, half as written.
		for _, n := range c.Nodes {
			apiDefault(n)
		}
		for _, p := range append(c.Pods, c.Pod) {
			apiDefault(p)
		}
	}
	c.prepare()
	return c
}

// preemption makes DefaultPreemption's choices matter: priorities on
// both sides (the incoming pod often above bound pods), start times (its
// last tie-breaker), preemptionPolicy Never, PodDisruptionBudgets.
func (g *generator) preemption(c *Case) {
	start := metav1.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Few distinct priorities and start times, so that candidate nodes tie.
	for _, p := range c.Pods {
		if g.chance(0.6) {
			prio := int32(100 * (g.n(3) - 1)) // -100 .. 100
			p.Spec.Priority = &prio
		}
		// Always set, as on running pods: upstream takes time.Now() for a
		// missing one at each comparison, so the order among such pods
		// (and the victims reprieved) would depend on call order.
		t := metav1.NewTime(start.Add(time.Duration(g.n(2)) * time.Hour))
		p.Status.StartTime = &t
	}
	if g.chance(0.8) {
		prio := int32(100 + 100*g.n(3))
		c.Pod.Spec.Priority = &prio
	}
	if g.chance(0.1) {
		never := v1.PreemptNever
		c.Pod.Spec.PreemptionPolicy = &never
	}
	if !g.chance(0.3) {
		return
	}
	for i := range 1 + g.n(2) {
		pdb := &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pdb-%d", i), Namespace: pick(g, nsNames)},
			Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"app": pick(g, apps)}}},
			Status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: int32(g.n(2))},
		}
		c.PDBs = append(c.PDBs, pdb)
	}
}

func (g *generator) node(name string) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelHostname: name}}}
	if g.chance(0.9) {
		n.Labels[v1.LabelTopologyZone] = pick(g, zones)
	}
	if g.chance(0.5) {
		n.Labels["disk"] = pick(g, []string{"ssd", "hdd"})
	}
	if g.chance(0.5) {
		n.Labels["cores"] = fmt.Sprint(2 << g.n(4))
	}
	for range g.n(3) {
		if g.chance(0.5) {
			break
		}
		n.Spec.Taints = append(n.Spec.Taints, v1.Taint{Key: pick(g, taintKeys), Value: pick(g, taintValues), Effect: pick(g, effects)})
	}
	n.Spec.Unschedulable = g.chance(0.1)
	alloc := v1.ResourceList{
		v1.ResourceCPU:    *resource.NewMilliQuantity(int64(500*(1+g.n(16))), resource.DecimalSI),
		v1.ResourceMemory: *resource.NewQuantity(int64(1+g.n(32))<<29, resource.BinarySI),
		v1.ResourcePods:   *resource.NewQuantity(int64(2+g.n(20)), resource.DecimalSI),
	}
	if g.chance(0.3) {
		alloc[v1.ResourceEphemeralStorage] = *resource.NewQuantity(int64(1+g.n(20))<<30, resource.BinarySI)
	}
	if g.chance(0.3) {
		alloc[gpu] = *resource.NewQuantity(int64(g.n(4)), resource.DecimalSI)
	}
	n.Status.Allocatable, n.Status.Capacity = alloc, alloc
	// Each image name at most once per node, with one size cluster-wide,
	// as kubelets report them. (Otherwise upstream disagrees with itself:
	// the scheduler cache keeps the size first seen in the cluster,
	// cache.NewSnapshot the last one seen on the node.)
	for _, i := range g.r.Perm(len(images))[:g.n(3)] {
		n.Status.Images = append(n.Status.Images, v1.ContainerImage{
			Names:     []string{images[i]},
			SizeBytes: imageSizes[i],
		})
	}
	return n
}

func (g *generator) requests() v1.ResourceList {
	rl := v1.ResourceList{}
	if g.chance(0.8) {
		rl[v1.ResourceCPU] = *resource.NewMilliQuantity(int64(50*(1+g.n(60))), resource.DecimalSI)
	}
	if g.chance(0.8) {
		rl[v1.ResourceMemory] = *resource.NewQuantity(int64(1+g.n(64))<<26, resource.BinarySI)
	}
	if g.chance(0.1) {
		rl[v1.ResourceEphemeralStorage] = *resource.NewQuantity(int64(1+g.n(8))<<30, resource.BinarySI)
	}
	if g.chance(0.1) {
		rl[gpu] = *resource.NewQuantity(int64(1+g.n(2)), resource.DecimalSI)
	}
	return rl
}

func (g *generator) container(name string) v1.Container {
	c := v1.Container{Name: name, Image: pick(g, images), Resources: v1.ResourceRequirements{Requests: g.requests()}}
	if g.chance(0.2) {
		c.Ports = []v1.ContainerPort{{
			ContainerPort: 8000, HostPort: pick(g, ports),
			Protocol: pick(g, []v1.Protocol{v1.ProtocolTCP, v1.ProtocolTCP, v1.ProtocolUDP}),
			HostIP:   pick(g, []string{"", "", "0.0.0.0", "10.0.0.1"}),
		}}
	}
	return c
}

// pod builds a pod; incoming pods also get node-side constraints
// (nodeSelector, node affinity, tolerations), init containers and overhead.
func (g *generator) pod(name string, incoming bool) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: pick(g, nsNames),
		Labels: map[string]string{"app": pick(g, apps)}}}
	if g.chance(0.5) {
		p.Labels["tier"] = pick(g, tiers)
	}
	for i := range 1 + g.n(2) {
		p.Spec.Containers = append(p.Spec.Containers, g.container(fmt.Sprintf("c%d", i)))
	}
	if g.chance(0.3) {
		prio := int32(g.n(3) * 100)
		p.Spec.Priority = &prio
	}
	if g.chance(0.4) {
		p.Spec.Affinity = &v1.Affinity{PodAffinity: g.podAffinity(), PodAntiAffinity: g.podAntiAffinity()}
	}
	mergeLabelKeys(p)
	if !incoming {
		return p
	}
	for i := range g.n(3) {
		c := g.container(fmt.Sprintf("init%d", i))
		if g.chance(0.4) {
			always := v1.ContainerRestartPolicyAlways
			c.RestartPolicy = &always // a sidecar
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	if g.chance(0.1) {
		// Pod-level requests (PodLevelResources), at least the containers' sum.
		p.Spec.Resources = &v1.ResourceRequirements{Requests: v1.ResourceList{
			v1.ResourceCPU:    *resource.NewMilliQuantity(int64(3000+500*g.n(4)), resource.DecimalSI),
			v1.ResourceMemory: *resource.NewQuantity(int64(5+g.n(4))<<30, resource.BinarySI),
		}}
		if g.chance(0.5) {
			delete(p.Spec.Resources.Requests, v1.ResourceMemory)
		}
	}
	if g.chance(0.1) {
		p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("120Mi")}
	}
	if g.chance(0.2) {
		p.Spec.NodeSelector = map[string]string{}
		if g.chance(0.7) {
			p.Spec.NodeSelector[v1.LabelTopologyZone] = pick(g, zones)
		} else {
			p.Spec.NodeSelector["disk"] = "ssd"
		}
	}
	if g.chance(0.4) {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &v1.Affinity{}
		}
		p.Spec.Affinity.NodeAffinity = g.nodeAffinity()
	}
	for range g.n(4) {
		t := v1.Toleration{Key: pick(g, taintKeys), Operator: v1.TolerationOpEqual, Value: pick(g, taintValues)}
		if g.chance(0.3) {
			t.Operator, t.Value = v1.TolerationOpExists, ""
		}
		if g.chance(0.05) {
			t.Key = "" // with Exists: tolerates everything
		}
		if g.chance(0.6) {
			t.Effect = pick(g, effects)
		}
		p.Spec.Tolerations = append(p.Spec.Tolerations, t)
	}
	if g.chance(0.3) {
		p.Spec.TopologySpreadConstraints = g.spreadConstraints()
	}
	return p
}

// spreadConstraints builds one or two constraints valid for the API server
// (minDomains only with DoNotSchedule; distinct key/action pairs).
func (g *generator) spreadConstraints() []v1.TopologySpreadConstraint {
	var out []v1.TopologySpreadConstraint
	seen := map[string]bool{}
	for range 1 + g.n(2) {
		c := v1.TopologySpreadConstraint{
			MaxSkew:           int32(1 + g.n(3)),
			TopologyKey:       pick(g, topologyKeys),
			WhenUnsatisfiable: pick(g, []v1.UnsatisfiableConstraintAction{v1.DoNotSchedule, v1.ScheduleAnyway}),
			LabelSelector:     g.labelSelector(),
		}
		if seen[c.TopologyKey+string(c.WhenUnsatisfiable)] {
			continue
		}
		seen[c.TopologyKey+string(c.WhenUnsatisfiable)] = true
		if c.WhenUnsatisfiable == v1.DoNotSchedule && g.chance(0.3) {
			d := int32(1 + g.n(4))
			c.MinDomains = &d
		}
		if g.chance(0.3) {
			pol := pick(g, []v1.NodeInclusionPolicy{v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore})
			c.NodeAffinityPolicy = &pol
		}
		if g.chance(0.3) {
			pol := pick(g, []v1.NodeInclusionPolicy{v1.NodeInclusionPolicyHonor, v1.NodeInclusionPolicyIgnore})
			c.NodeTaintsPolicy = &pol
		}
		out = append(out, c)
	}
	return out
}

func (g *generator) nodeSelectorRequirement() v1.NodeSelectorRequirement {
	switch g.n(6) {
	case 0:
		return v1.NodeSelectorRequirement{Key: v1.LabelTopologyZone, Operator: v1.NodeSelectorOpIn, Values: []string{pick(g, zones), pick(g, zones)}}
	case 1:
		return v1.NodeSelectorRequirement{Key: v1.LabelTopologyZone, Operator: v1.NodeSelectorOpNotIn, Values: []string{pick(g, zones)}}
	case 2:
		return v1.NodeSelectorRequirement{Key: "disk", Operator: pick(g, []v1.NodeSelectorOperator{v1.NodeSelectorOpExists, v1.NodeSelectorOpDoesNotExist})}
	case 3:
		return v1.NodeSelectorRequirement{Key: "cores", Operator: pick(g, []v1.NodeSelectorOperator{v1.NodeSelectorOpGt, v1.NodeSelectorOpLt}), Values: []string{fmt.Sprint(2 << g.n(4))}}
	case 4:
		return v1.NodeSelectorRequirement{Key: "disk", Operator: v1.NodeSelectorOpIn, Values: []string{"ssd"}}
	default:
		return v1.NodeSelectorRequirement{Key: v1.LabelHostname, Operator: v1.NodeSelectorOpIn, Values: []string{fmt.Sprintf("node-%d", g.n(8))}}
	}
}

func (g *generator) nodeSelectorTerm() v1.NodeSelectorTerm {
	var t v1.NodeSelectorTerm
	for range 1 + g.n(2) {
		t.MatchExpressions = append(t.MatchExpressions, g.nodeSelectorRequirement())
	}
	if g.chance(0.15) {
		// metadata.name In one node: NodeAffinity's PreFilterResult path.
		t.MatchFields = []v1.NodeSelectorRequirement{{Key: metav1.ObjectNameField, Operator: v1.NodeSelectorOpIn,
			Values: []string{fmt.Sprintf("node-%d", g.n(8))}}}
		if g.chance(0.5) {
			t.MatchExpressions = nil
		}
	}
	return t
}

func (g *generator) nodeAffinity() *v1.NodeAffinity {
	a := &v1.NodeAffinity{}
	if g.chance(0.6) {
		a.RequiredDuringSchedulingIgnoredDuringExecution = &v1.NodeSelector{}
		for range 1 + g.n(2) {
			a.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = append(
				a.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms, g.nodeSelectorTerm())
		}
	}
	for range g.n(3) {
		a.PreferredDuringSchedulingIgnoredDuringExecution = append(a.PreferredDuringSchedulingIgnoredDuringExecution,
			v1.PreferredSchedulingTerm{Weight: int32(1 + g.n(100)), Preference: g.nodeSelectorTerm()})
	}
	return a
}

func (g *generator) labelSelector() *metav1.LabelSelector {
	switch g.n(4) {
	case 0:
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": pick(g, apps)}}
	case 1:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{pick(g, apps), pick(g, apps)}}}}
	case 2:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "tier", Operator: pick(g, []metav1.LabelSelectorOperator{metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist})}}}
	default:
		return &metav1.LabelSelector{MatchLabels: map[string]string{"app": pick(g, apps), "tier": pick(g, tiers)}}
	}
}

func (g *generator) podAffinityTerm() v1.PodAffinityTerm {
	t := v1.PodAffinityTerm{LabelSelector: g.labelSelector(), TopologyKey: pick(g, topologyKeys)}
	switch g.n(10) {
	case 0:
		t.MatchLabelKeys = []string{"tier"}
	case 1:
		t.MismatchLabelKeys = []string{"app"}
	}
	switch g.n(4) {
	case 0:
		t.Namespaces = []string{pick(g, nsNames)}
	case 1:
		t.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": pick(g, []string{"a", "b"})}}
	case 2:
		t.NamespaceSelector = &metav1.LabelSelector{} // all namespaces
	}
	return t
}

func (g *generator) weightedTerms() []v1.WeightedPodAffinityTerm {
	var out []v1.WeightedPodAffinityTerm
	for range g.n(3) {
		out = append(out, v1.WeightedPodAffinityTerm{Weight: int32(1 + g.n(100)), PodAffinityTerm: g.podAffinityTerm()})
	}
	return out
}

func (g *generator) podAffinity() *v1.PodAffinity {
	if g.chance(0.5) {
		return nil
	}
	a := &v1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: g.weightedTerms()}
	if g.chance(0.4) {
		a.RequiredDuringSchedulingIgnoredDuringExecution = []v1.PodAffinityTerm{g.podAffinityTerm()}
	}
	return a
}

func (g *generator) podAntiAffinity() *v1.PodAntiAffinity {
	if g.chance(0.5) {
		return nil
	}
	a := &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: g.weightedTerms()}
	if g.chance(0.4) {
		a.RequiredDuringSchedulingIgnoredDuringExecution = []v1.PodAffinityTerm{g.podAffinityTerm()}
	}
	return a
}

// mergeLabelKeys does what the API server does when it creates a pod
// (mutatePodAffinity in pkg/registry/core/pod/strategy.go): each
// matchLabelKeys / mismatchLabelKeys key the pod has a label for becomes a
// requirement of the term's labelSelector. The scheduler reads only the
// selector; the engine merges them itself on decode, which repeats these
// requirements harmlessly (docs/upstream-differences.md, "matchLabelKeys /
// mismatchLabelKeys of pod (anti-)affinity").
func mergeLabelKeys(p *v1.Pod) {
	merge := func(t *v1.PodAffinityTerm) {
		if t.LabelSelector == nil {
			return
		}
		for _, keys := range []struct {
			keys []string
			op   metav1.LabelSelectorOperator
		}{{t.MatchLabelKeys, metav1.LabelSelectorOpIn}, {t.MismatchLabelKeys, metav1.LabelSelectorOpNotIn}} {
			for _, k := range keys.keys {
				if v, ok := p.Labels[k]; ok {
					t.LabelSelector.MatchExpressions = append(t.LabelSelector.MatchExpressions,
						metav1.LabelSelectorRequirement{Key: k, Operator: keys.op, Values: []string{v}})
				}
			}
		}
	}
	mergeAll := func(required []v1.PodAffinityTerm, preferred []v1.WeightedPodAffinityTerm) {
		for i := range required {
			merge(&required[i])
		}
		for i := range preferred {
			merge(&preferred[i].PodAffinityTerm)
		}
	}
	if a := p.Spec.Affinity; a != nil && a.PodAffinity != nil {
		mergeAll(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if a := p.Spec.Affinity; a != nil && a.PodAntiAffinity != nil {
		mergeAll(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
	}
}

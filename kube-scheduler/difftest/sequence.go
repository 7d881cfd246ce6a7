package difftest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"

	"github.com/libsched/libsched/go/sched"
)

// sequence is one long random history run against both sides as users
// run them: the engine with its default config ({}: equivalence cache on,
// default parallelism, adaptive percentageOfNodesToScore) fed with watch
// events, and upstream's scheduler cache (node tree order, nextStartNodeIndex)
// with parallelism 1. Pods are scheduled one after another; each one
// placed is bound on the engine's node on both sides.
type sequence struct {
	g     *generator
	world *Case // the cluster now: namespaces, nodes, bound pods, PDBs, volume objects
	eng   *sched.Engine
	cache internalcache.Cache
	snap  *internalcache.Snapshot
	up    *upstream // nil after an object upstream reads through informers changed
	walk  walk
	// classes are the pod templates replicas are made of (equivalence
	// classes); replicas counts the pods made so far.
	classes            []*v1.Pod
	replicas, nodes    int
	defaulted          bool // objects get the API server's defaulting
	logger             klog.Logger
	start              metav1.Time
	nextPV, nextClaims int
	stop               func() // ends the cache's goroutine
	// dra: the sequence has DRA objects; claimSpecs are the claims of the
	// templates that ask for one (sequence_dra.go).
	dra        bool
	claimSpecs map[*v1.Pod]*resourceapi.ResourceClaim
}

// seqCounts says what the sequences compared.
type seqCounts struct {
	sequences, cycles, pairs, evaluated int
	partial                             int // cycles that left nodes unevaluated (numFeasibleNodesToFind)
	scheduled, unschedulable, nominated int
	events                              int // cluster events between cycles
	claimPods, allocated                int // cycles of pods with a ResourceClaim; those placed (claims allocated)
	capacityPods, shares                int // ... of them asking capacity.requests; shares of devices allocated (shareID)
}

func (c seqCounts) String() string {
	return fmt.Sprintf("%d sequences, %d cycles compared (%d scheduled, %d unschedulable, %d nominated a node; %d stopped at numFeasibleNodesToFind; %d with a ResourceClaim, %d of them placed, %d asking capacity; %d device shares allocated), %d (pod,node) pairs compared of which %d evaluated, %d cluster events",
		c.sequences, c.cycles, c.scheduled, c.unschedulable, c.nominated, c.partial, c.claimPods, c.allocated, c.capacityPods, c.shares, c.pairs, c.evaluated, c.events)
}

// newSequence builds the initial cluster of sequence i: nodes (between
// minNodes and maxNodes), a few bound pods, sometimes volume objects, and
// both sides fed with it in the same order.
func newSequence(ctx context.Context, seed uint64, i, minNodes, maxNodes int) (*sequence, error) {
	g := newGenerator(seed*1_000_003 + uint64(i))
	s := &sequence{g: g, world: &Case{Name: fmt.Sprintf("sequence-%d-%d", seed, i), Namespaces: g.namespaces()},
		logger: klog.FromContext(ctx), defaulted: g.chance(0.5),
		start: metav1.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var err error
	if s.eng, err = sched.New([]byte(`{}`)); err != nil {
		return nil, err
	}
	if err := toWallTime(s.eng); err != nil {
		s.eng.Close()
		return nil, err
	}
	registerMetrics() // the cache's metrics goroutine records into them
	var cacheCtx context.Context
	cacheCtx, s.stop = context.WithCancel(ctx)
	s.cache = internalcache.New(cacheCtx, nil, false)
	s.snap = internalcache.NewEmptySnapshot()
	for range minNodes + g.n(maxNodes-minNodes+1) {
		s.world.Nodes = append(s.world.Nodes, s.newNode())
	}
	for j := range g.n(len(s.world.Nodes) / 2) {
		p := g.pod(fmt.Sprintf("existing-%d", j), false)
		p.Spec.NodeName = pick(g, s.world.Nodes).Name
		s.world.Pods = append(s.world.Pods, p)
		if sharesHostPort(s.world) {
			// Deleting one of two such pods frees the port upstream only
			// (docs/upstream-differences.md, "Host ports shared on a node").
			s.world.Pods = s.world.Pods[:len(s.world.Pods)-1]
		}
	}
	s.world.Pod = &v1.Pod{} // volumes() gives it volumes too
	g.preemption(s.world)
	g.volumes(s.world)
	s.world.Pod = nil
	s.initDRA()
	for range 1 + g.n(6) {
		s.newClass()
	}
	if s.defaulted {
		for _, n := range s.world.Nodes {
			apiDefault(n)
		}
		for _, p := range s.world.Pods {
			apiDefault(p)
		}
	}
	s.world.prepare()
	for _, n := range s.world.Nodes {
		s.cache.AddNode(s.logger, n)
	}
	for _, p := range s.world.Pods {
		if err := s.cache.AddPod(s.logger, p); err != nil {
			return nil, err
		}
	}
	cluster, _, err := s.world.JSON()
	if err == nil {
		_, err = s.eng.Apply(cluster)
	}
	return s, err
}

func (s *sequence) close() {
	if s.up != nil {
		s.up.close()
	}
	s.stop()
	s.eng.Close()
}

// apply sends one watch event to the engine.
func (s *sequence) apply(typ string, obj any) error {
	b, err := json.Marshal(map[string]any{"type": typ, "object": obj})
	if err == nil {
		_, err = s.eng.Apply(b)
	}
	if err != nil {
		return fmt.Errorf("Apply %s: %w", typ, err)
	}
	return nil
}

// newNode makes the next node (not yet added anywhere).
func (s *sequence) newNode() *v1.Node {
	n := s.g.node(fmt.Sprintf("node-%d", s.nodes))
	s.nodes++
	n.TypeMeta = nodeType
	if s.defaulted {
		apiDefault(n)
	}
	return n
}

// newClass adds a pod template: replicas of it are one equivalence class.
// Half the classes are plain replicas (requests, ports, pod affinity, no
// node constraints; half of them tolerate every taint), which fit many
// nodes, so that cycles stop at
// numFeasibleNodesToFind. Volumes are in-tree disks or claims bound
// already: the engine completes the binding of a WaitForFirstConsumer
// claim when it assumes the pod (docs/upstream-differences.md), which the
// upstream side, without a PV controller, does not; single cases cover it.
func (s *sequence) newClass() {
	plain := s.g.chance(0.5)
	p := s.g.pod("template", !plain)
	if plain && s.g.chance(0.5) {
		p.Spec.Tolerations = []v1.Toleration{{Operator: v1.TolerationOpExists}} // as DaemonSets
	}
	if len(s.world.StorageClasses) > 0 {
		for i := range s.g.n(3) {
			v := s.g.podVolume(s.world, p, fmt.Sprintf("vol-%d", i))
			if v.PersistentVolumeClaim == nil || s.boundClaim(p.Namespace, v.PersistentVolumeClaim.ClaimName) {
				p.Spec.Volumes = append(p.Spec.Volumes, v)
			}
		}
	}
	if s.g.chance(0.6) {
		prio := int32(100 * s.g.n(3))
		p.Spec.Priority = &prio
	}
	s.draClass(p)
	if len(s.classes) < 8 {
		s.classes = append(s.classes, p)
	} else {
		s.classes[s.g.n(len(s.classes))] = p
	}
}

// boundClaim reports whether namespace/name is a claim bound to a PV.
func (s *sequence) boundClaim(namespace, name string) bool {
	for _, pvc := range s.world.PVCs {
		if pvc.Namespace == namespace && pvc.Name == name {
			return pvc.Spec.VolumeName != ""
		}
	}
	return false
}

// nextPod is a replica of a class (85 %) or a one-off pod, and the
// template it was made of.
func (s *sequence) nextPod() (*v1.Pod, *v1.Pod) {
	var template *v1.Pod
	if s.g.chance(0.85) {
		template = pick(s.g, s.classes)
	} else {
		s.newClass()
		template = s.classes[len(s.classes)-1]
		if len(s.classes) > 1 {
			s.classes = s.classes[:len(s.classes)-1] // a one-off: not kept as a class
		}
	}
	p := template.DeepCopy()
	p.Name = fmt.Sprintf("pod-%d", s.replicas)
	s.replicas++
	p.TypeMeta = podType
	if p.Namespace == "" {
		p.Namespace = metav1.NamespaceDefault
	}
	p.UID = types.UID(p.Namespace + "/" + p.Name)
	if s.defaulted {
		apiDefault(p)
	}
	return p, template
}

// upstreamNow is upstream's framework over the current objects, rebuilt
// after an informer-backed object changed.
func (s *sequence) upstreamNow(ctx context.Context) (*upstream, error) {
	if s.up == nil {
		up, err := newUpstream(ctx, s.world, s.snap, nil)
		if err != nil {
			return nil, err
		}
		s.up = up
	}
	return s.up, nil
}

// stale drops upstream's framework: its informers show old objects.
func (s *sequence) stale() {
	if s.up != nil {
		s.up.close()
		s.up = nil
	}
}

// cycle schedules the next pod on both sides and compares; a pod placed
// is bound on the engine's node on both sides.
func (s *sequence) cycle(ctx context.Context, n *seqCounts) ([]string, *v1.Pod, error) {
	pod, template := s.nextPod()
	if err := s.podClaim(pod, template); err != nil {
		return nil, pod, err
	}
	if err := s.cache.UpdateSnapshot(s.logger, s.snap); err != nil {
		return nil, pod, err
	}
	up, err := s.upstreamNow(ctx)
	if err != nil {
		return nil, pod, err
	}
	allNodes, err := s.snap.NodeInfos().List()
	if err != nil {
		return nil, pod, err
	}
	freshImageCounts(allNodes)
	names := make([]string, 0, len(allNodes))
	for _, ni := range allNodes {
		names = append(names, ni.Node().Name)
	}
	startWas := s.walk.next
	ud, err := up.decide(ctx, pod, allNodes, &s.walk)
	if err != nil {
		return nil, pod, fmt.Errorf("upstream: %w", err)
	}
	b, err := json.Marshal(pod)
	if err != nil {
		return nil, pod, err
	}
	res, err := s.eng.Schedule(ctx, b, sched.Assume, sched.NodeStatuses, sched.Scores)
	if err != nil {
		return nil, pod, fmt.Errorf("engine: %w", err)
	}
	ed, err := engineDecision(res, names)
	if err != nil {
		return nil, pod, fmt.Errorf("engine: %w", err)
	}
	view := *s.world
	view.Pod = pod
	normalizeSharedPorts(&view, ud, ed)
	normalizePreemptionError(ud, ed)
	n.cycles++
	if len(pod.Status.ResourceClaimStatuses) > 0 {
		n.claimPods++
		if asksCapacity(pod, s.world.ResourceClaims) {
			n.capacityPods++
		}
		if res.Node != "" {
			n.allocated++
		}
	}
	n.pairs += len(names)
	n.evaluated += len(names) - len(ud.Unlisted)
	if len(ud.Unlisted) > 0 && len(ud.Feasible) > 0 {
		n.partial++
	}
	if diffs := compare(ud, ed); len(diffs) > 0 {
		diffs = append(diffs, fmt.Sprintf("(upstream walked %d nodes from nextStartNodeIndex %d: %v)", len(names), startWas, names))
		return diffs, pod, nil
	}
	switch {
	case res.Node != "":
		n.scheduled++
		shares, err := s.allocate(ctx, up, pod, res.Node)
		if err != nil {
			return nil, pod, err
		}
		n.shares += shares
		return nil, pod, s.bind(pod, res.Node)
	case res.NominatedNodeName != "":
		n.nominated++ // the victims are not deleted: the pod is dropped
	default:
		n.unschedulable++
	}
	return nil, pod, nil
}

// freshImageCounts sets the nodes' image summaries to the number of nodes
// reporting each image now. Upstream's snapshot keeps, for a node that did
// not change since, the count as of its last change (UpdateSnapshot clones
// only changed nodes, with ImageStateSummary.Snapshot); the engine counts
// now (docs/upstream-differences.md, "ImageLocality's node count").
func freshImageCounts(nodes []fwk.NodeInfo) {
	count := map[string]int{}
	for _, ni := range nodes {
		for name := range ni.GetImageStates() {
			count[name]++
		}
	}
	for _, ni := range nodes {
		for name, st := range ni.GetImageStates() {
			st.NumNodes = count[name]
		}
	}
}

// bind adds the pod to its node on both sides, as the binding's informer
// event does (the engine assumed it already; the event confirms it).
func (s *sequence) bind(pod *v1.Pod, node string) error {
	pod.Spec.NodeName = node
	t := metav1.NewTime(s.start.Add(time.Duration(s.g.n(2)) * time.Hour))
	pod.Status.StartTime = &t
	s.world.Pods = append(s.world.Pods, pod)
	if err := s.cache.AddPod(s.logger, pod); err != nil {
		return err
	}
	return s.apply("ADDED", pod)
}

// repro says how a sequence got where it differs: the last events and
// cycles, upstream's nextStartNodeIndex, and a file with the cluster now
// (the engine's input List, every event applied) and the pod.
func (s *sequence) repro(pod *v1.Pod, history []string) string {
	if len(history) > 40 {
		history = history[len(history)-40:]
	}
	view := *s.world
	view.Pod = pod
	cluster, podJSON, err := view.JSON()
	file := filepath.Join(os.TempDir(), s.world.Name+".json")
	if err == nil {
		err = os.WriteFile(file, append(append(cluster, '\n'), podJSON...), 0o644)
	}
	if err != nil {
		file = "(not written: " + err.Error() + ")"
	}
	return fmt.Sprintf("--- last events and cycles: %s\n--- upstream's nextStartNodeIndex after the cycle: %d\n--- cluster now and the pod: %s",
		strings.Join(history, "; "), s.walk.next, file)
}

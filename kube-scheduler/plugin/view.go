package plugin

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
)

// maxFeedLag bounds how long PreFilter waits for the feed to catch up with
// the scheduler's snapshot before it gives up with an Error (the pod is
// then retried from the backoff queue). The feed is normally microseconds
// to milliseconds behind; the bound only matters if it is stuck.
const maxFeedLag = time.Second

// engineView records the Nodes and Pods the feed (and Reserve/Unreserve)
// sent the engine, so that PreFilter can make the engine at least as new as
// the scheduler's snapshot (catchUp). The engine and the scheduler's cache
// follow the same informers through separate handlers, each at its own
// pace: without this, a pod retried on an event (a preemption victim's
// deletion) may meet an engine that has not applied it yet, be found
// unschedulable again and wait for the next event.
type engineView struct {
	mu sync.Mutex
	// nodes: node name -> the resourceVersion last sent.
	nodes map[string]string
	// pods: pod key (namespace/name, as the engine keys pods) -> the last
	// version sent; onNode: node name -> keys of the pods sent on it.
	pods   map[string]podRef
	onNode map[string]map[string]struct{}
	// wake, when a waiter made it, is closed by the next record.
	wake chan struct{}
	// verified: the snapshot's nodes with a generation up to this one
	// matched the engine when last checked (generations only grow).
	verified atomic.Int64
	// The informers' stores: newer than or as new as both handlers.
	nodeLister corelisters.NodeLister
	podLister  corelisters.PodLister
	maxLag     time.Duration
}

type podRef struct {
	uid  types.UID
	rv   string
	node string // "" for a pending pod
	// assumed is the pod Reserve sent (placed on node) while it is the
	// last version sent: the informer's next version of the pod is
	// usually its binding, which changes nothing the engine reads.
	assumed *v1.Pod
}

// holds: the engine holds p on node as this version, or as the assumed
// pod that p is the binding of (boundAsAssumed).
func (r podRef) holds(p *v1.Pod, node string) bool {
	if r.uid != p.UID || r.node != node {
		return false
	}
	return r.rv == p.ResourceVersion || (r.assumed != nil && boundAsAssumed(r.assumed, p))
}

// boundAsAssumed: bound is the assumed pod with only what the API server's
// binding writes (pkg/registry/core/pod/storage, setPodNodeAndMetadata:
// spec.nodeName, the cleared status.nominatedNodeName, the PodScheduled
// condition) and a new resourceVersion; anything else (topology labels
// the binding copied, a status the kubelet wrote) is a change the engine
// must be sent before a cycle decides.
func boundAsAssumed(assumed, bound *v1.Pod) bool {
	a, b := bindingFree(assumed), bindingFree(bound)
	return equality.Semantic.DeepEqual(&a, &b)
}

// bindingFree is a shallow copy of p without the fields binding writes.
func bindingFree(p *v1.Pod) v1.Pod {
	c := *p
	c.ResourceVersion, c.Spec.NodeName, c.Status.NominatedNodeName = "", "", ""
	c.Status.Conditions = nil
	for _, cond := range p.Status.Conditions {
		if cond.Type != v1.PodScheduled {
			c.Status.Conditions = append(c.Status.Conditions, cond)
		}
	}
	return c
}

// newEngineView reads the informers' newest versions from the listers of
// the scheduler's Node and Pod informers.
func newEngineView(nodes corelisters.NodeLister, pods corelisters.PodLister) *engineView {
	return &engineView{nodes: map[string]string{}, pods: map[string]podRef{}, onNode: map[string]map[string]struct{}{},
		nodeLister: nodes, podLister: pods, maxLag: maxFeedLag}
}

// record notes an event sent to the engine, whether or not the engine
// accepted it (a rejected object is logged, not retried: waiting for it
// would wait forever). assumed: obj is a pod Reserve placed on its node.
func (v *engineView) record(eventType string, obj any, assumed bool) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	switch o := obj.(type) {
	case *v1.Node:
		if eventType == eventDeleted {
			delete(v.nodes, o.Name)
		} else {
			v.nodes[o.Name] = o.ResourceVersion
		}
	case *v1.Pod:
		key := cache.MetaObjectToName(o).String()
		node := o.Spec.NodeName
		if old, ok := v.pods[key]; ok && old.node != "" {
			if node == "" && old.uid == o.UID && eventType != eventDeleted {
				// A pending pod's update arriving after Reserve (a late
				// status patch): the engine, like the scheduler's cache,
				// keeps the pod on its node.
				node = old.node
			}
			delete(v.onNode[old.node], key)
		}
		if eventType == eventDeleted {
			delete(v.pods, key)
			break
		}
		r := podRef{uid: o.UID, rv: o.ResourceVersion, node: node}
		if assumed {
			r.assumed = o
		}
		v.pods[key] = r
		if node != "" {
			if v.onNode[node] == nil {
				v.onNode[node] = map[string]struct{}{}
			}
			v.onNode[node][key] = struct{}{}
		}
	default:
		return
	}
	v.wakeUp()
}

func (v *engineView) wakeUp() {
	if v.wake != nil {
		close(v.wake)
		v.wake = nil
	}
}

// catchUp returns once the engine is at least as new as the snapshot's
// nodes: for each node whose NodeInfo changed since the last check (its
// generation), the Node and the pods on it are the versions the engine
// holds, or the engine already holds the informer's newest version of each
// that differs (the engine's handler ran ahead of the scheduler's). Else it
// waits for the feed, at most maxLag, then fails: PreFilter returns an
// Error, which sends the pod to the backoff queue. Per cycle it reads one
// generation per node and compares the pods of the changed nodes only
// (usually the last pod's node).
func (v *engineView) catchUp(ctx context.Context, nodes []fwk.NodeInfo) error {
	verified := v.verified.Load()
	top := verified
	var changed []fwk.NodeInfo
	for _, ni := range nodes {
		if g := ni.GetGeneration(); g > verified && ni.Node() != nil {
			changed = append(changed, ni)
			top = max(top, g)
		}
	}
	var timeout *time.Timer
	var start time.Time
	for {
		v.mu.Lock()
		what := ""
		for len(changed) > 0 {
			if what = v.stale(changed[0]); what != "" {
				break
			}
			changed = changed[1:]
		}
		if what == "" {
			v.mu.Unlock()
			v.verified.Store(top)
			if timeout != nil {
				klog.FromContext(ctx).V(5).Info("LibSched: waited for the engine's feed", "duration", time.Since(start))
			}
			return nil
		}
		if v.wake == nil {
			v.wake = make(chan struct{})
		}
		wake := v.wake
		v.mu.Unlock()
		if timeout == nil {
			start, timeout = time.Now(), time.NewTimer(v.maxLag)
			defer timeout.Stop()
		}
		select {
		case <-wake:
		case <-timeout.C:
			return fmt.Errorf("LibSched: the engine has not applied the scheduler's version of %s within %v: retrying", what, v.maxLag)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// stale returns the first object of ni whose snapshot version the engine
// may not have applied yet ("node n1", "pod ns/p"), or "". v.mu is held.
func (v *engineView) stale(ni fwk.NodeInfo) string {
	node := ni.Node()
	if rv, ok := v.nodes[node.Name]; (!ok || rv != node.ResourceVersion) && !v.nodeCurrent(node.Name) {
		return "node " + node.Name
	}
	pods := ni.GetPods()
	matched := 0
	for _, pi := range pods {
		p := pi.GetPod()
		key := cache.MetaObjectToName(p).String()
		if r, ok := v.pods[key]; ok && r.holds(p, node.Name) {
			matched++
		} else if !v.podCurrent(key) {
			return "pod " + key
		}
	}
	onNode := v.onNode[node.Name]
	if matched == len(onNode) {
		return ""
	}
	// The engine holds pods on the node that the snapshot does not.
	inSnapshot := make(map[string]struct{}, len(pods))
	for _, pi := range pods {
		inSnapshot[cache.MetaObjectToName(pi.GetPod()).String()] = struct{}{}
	}
	for key := range onNode {
		if _, ok := inSnapshot[key]; !ok && !v.podCurrent(key) {
			return "pod " + key
		}
	}
	return ""
}

// nodeCurrent: the engine holds the informer's newest version of the node
// (or, like the informer, none). v.mu is held.
func (v *engineView) nodeCurrent(name string) bool {
	rv, sent := v.nodes[name]
	n, err := v.nodeLister.Get(name)
	if err != nil {
		return !sent
	}
	return sent && rv == n.ResourceVersion
}

// podCurrent: the engine holds the informer's newest version of the pod
// (or, like the informer, none); a pod the engine assumed (Reserve) is
// current while the informer still has it pending. v.mu is held.
func (v *engineView) podCurrent(key string) bool {
	r, sent := v.pods[key]
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	p, err := v.podLister.Pods(ns).Get(name)
	if err != nil {
		return !sent
	}
	return sent && r.uid == p.UID && r.rv == p.ResourceVersion && (p.Spec.NodeName == "" || r.node == p.Spec.NodeName)
}

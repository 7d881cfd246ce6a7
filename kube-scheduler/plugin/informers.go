package plugin

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/libsched/libsched/go/sched"
)

// engineInformers are the informers whose objects the engine is sent: what
// the default profile's plugins read (pkg/scheduler/eventhandlers.go,
// addAllEventHandlers), plus Namespaces and PodDisruptionBudgets (pod
// affinity's namespaceSelector; preemption) and the Services,
// ReplicationControllers, ReplicaSets and StatefulSets whose selectors
// PodTopologySpread's system default constraints read, and the
// resource.k8s.io objects DynamicResources reads. ResourceClaimTemplates are
// not watched: like upstream, the scheduler reads only the claims the
// resourceclaim controller generates from them, and system:kube-scheduler
// may not list them (plugin/pkg/auth/authorizer/rbac/bootstrappolicy). Kinds
// the engine does not use yet are counted as ignored by it. The
// resource.k8s.io informers are added only when dra is true (the
// DynamicResourceAllocation feature gate, as addAllEventHandlers in
// pkg/scheduler/eventhandlers.go): an API server that does not serve
// resource.k8s.io/v1 (e.g. one emulating a release before 1.34) would
// otherwise keep them from ever syncing, and every PreFilter would wait.
func engineInformers(f informers.SharedInformerFactory, dra bool) []cache.SharedIndexInformer {
	infs := []cache.SharedIndexInformer{
		f.Core().V1().Nodes().Informer(),
		f.Core().V1().Pods().Informer(),
		f.Core().V1().PersistentVolumes().Informer(),
		f.Core().V1().PersistentVolumeClaims().Informer(),
		f.Core().V1().Namespaces().Informer(),
		f.Core().V1().Services().Informer(),
		f.Core().V1().ReplicationControllers().Informer(),
		f.Apps().V1().ReplicaSets().Informer(),
		f.Apps().V1().StatefulSets().Informer(),
		f.Storage().V1().StorageClasses().Informer(),
		f.Storage().V1().CSINodes().Informer(),
		f.Policy().V1().PodDisruptionBudgets().Informer(),
	}
	if dra {
		infs = append(infs, f.Resource().V1().ResourceClaims().Informer(),
			f.Resource().V1().DeviceClasses().Informer(),
			f.Resource().V1().ResourceSlices().Informer())
	}
	return infs
}

// feed keeps an engine's cluster state following the scheduler's informers,
// and records in view what it sent.
type feed struct {
	engine *sched.Engine
	view   *engineView
	logger klog.Logger
	// profiles are the scheduler names of every profile of this scheduler:
	// their pending pods share its queue, so their nominations count.
	profiles map[string]bool

	// mu serializes the events sent and guards inMemory.
	mu sync.Mutex
	// inMemory holds the nominations this scheduler made (PostFilter) that
	// no event of the pod has shown since, by pod UID: an event of the
	// pending pod without status.nominatedNodeName keeps them, as
	// upstream's nominator keeps a nomination it made in memory through
	// such an update (pkg/scheduler/backend/queue/nominator.go,
	// updateNominatedPodUnlocked). The feed's handler runs apart from the
	// scheduler's: the informer's Add of a pod can reach the engine after
	// that pod's cycle nominated it.
	inMemory map[types.UID]string
}

// register adds feed's handlers to every informer of engineInformers and
// returns the functions that report when each handler has seen its
// informer's initial list.
func (f *feed) register(factory informers.SharedInformerFactory, dra bool) ([]cache.InformerSynced, error) {
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { f.apply(eventAdded, obj) },
		UpdateFunc: func(_, obj any) { f.apply(eventModified, obj) },
		DeleteFunc: func(obj any) { f.apply(eventDeleted, obj) },
	}
	var synced []cache.InformerSynced
	for _, inf := range engineInformers(factory, dra) {
		reg, err := inf.AddEventHandler(handler)
		if err != nil {
			return nil, err
		}
		synced = append(synced, reg.HasSynced)
	}
	return synced, nil
}

// apply sends one informer event to the engine. A handler cannot fail, so
// an object the engine rejects is logged and skipped (the engine is left
// unchanged by a failed apply).
func (f *feed) apply(eventType string, obj any) {
	if err := f.send(eventType, obj); err != nil && !errors.Is(err, sched.ErrClosed) {
		key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		f.logger.Error(err, "LibSched: cluster event not applied", "type", eventType, "kind", fmt.Sprintf("%T", obj), "key", key)
	}
}

// send sends one event to the engine and records it in the view. A pending
// pod of this scheduler goes under the engine's profile name, so that the
// engine keeps it pending with its nomination, as upstream's nominator
// holds the queue's pods (pkg/scheduler/backend/queue/nominator.go);
// another scheduler's pending pod is not sent: upstream never counts its
// nomination. Without this, a profile not named default-scheduler (the
// examples' "libsched") had no nominations counted at all.
func (f *feed) send(eventType string, obj any) error { return f.sendAs(eventType, obj, false) }

// sendAs is send; assumed: obj is a pod Reserve placed on its node.
func (f *feed) sendAs(eventType string, obj any, assumed bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj // a pod's deletion ends its in-memory nomination too
	}
	if p, ok := obj.(*v1.Pod); ok {
		obj = f.keepNomination(eventType, p)
	}
	return f.sendLocked(eventType, obj, assumed)
}

// nominate sends the pod with the nomination its cycle made (node; "" to
// clear it) and keeps that nomination until an event of the pod shows one,
// binds the pod or deletes it.
func (f *feed) nominate(pod *v1.Pod, node string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if node == "" {
		delete(f.inMemory, pod.UID)
	} else {
		if f.inMemory == nil {
			f.inMemory = map[types.UID]string{}
		}
		f.inMemory[pod.UID] = node
	}
	p := *pod // shallow: only the status's nominatedNodeName changes on the copy
	p.Status.NominatedNodeName = node
	return f.sendLocked(eventModified, &p, false)
}

// keepNomination is p, or a copy carrying the nomination made in memory
// when p is a pending pod's event without one. REQUIRES: f.mu held.
func (f *feed) keepNomination(eventType string, p *v1.Pod) *v1.Pod {
	node, ok := f.inMemory[p.UID]
	if !ok {
		return p
	}
	if eventType == eventDeleted || p.Spec.NodeName != "" || p.Status.NominatedNodeName != "" {
		delete(f.inMemory, p.UID)
		return p
	}
	c := *p // shallow: only the status's nominatedNodeName changes on the copy
	c.Status.NominatedNodeName = node
	return &c
}

// sendLocked is sendAs. REQUIRES: f.mu held.
func (f *feed) sendLocked(eventType string, obj any, assumed bool) error {
	if p, ok := obj.(*v1.Pod); ok && p.Spec.NodeName == "" && eventType != eventDeleted {
		if !f.profiles[p.Spec.SchedulerName] {
			return nil
		}
		if p.Spec.SchedulerName != engineProfile {
			c := *p // shallow: only the scheduler name changes on the copy
			c.Spec.SchedulerName = engineProfile
			obj = &c
		}
	}
	err := withEventBuffer(func(buf *bytes.Buffer) error {
		if err := EncodeEvent(buf, eventType, obj); err != nil {
			return err
		}
		_, err := f.engine.Apply(buf.Bytes())
		return err
	})
	f.view.record(eventType, obj, assumed)
	return err
}

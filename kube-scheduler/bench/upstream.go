package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/profile"

	"github.com/libsched/libsched/kube-scheduler/internal/fakewatch"
)

// stallTimeout ends a batch that has made no progress (no binding and no
// scheduling attempt) for this long: its remaining pods count as
// unscheduled (flag --stall). Attempts count as progress because a
// preemptor requeued after its victims are gone waits behind every
// preemptor not yet tried (activeQ orders by priority, then queue time):
// at 5,000 nodes that is minutes of attempts without a binding. A pod left
// for upstream's 5-minute flush of unschedulable pods leaves the loop
// idle, and the default stops well before the flush.
var stallTimeout = 30 * time.Second

// runUpstream runs p through kube-scheduler v1.36.3's own scheduler
// (scheduler.New with the default profile: its framework, queue and cache)
// on a fake clientset, as test/integration/scheduler_perf does on a real API
// server: nodes and namespaces first, each createPods op created and waited
// for until its pods are bound, the measured op timed from its first create
// to its last binding as the pod informer sees it. The scheduling loop is
// the one of Scheduler.Run, with each ScheduleOne timed from the pod's pop
// (a scheduling attempt: the cycle including preemption, binding is async).
// The workload entry's feature gates are set first, as scheduler_perf does
// (process-wide: they stay set for later workloads of the same process).
func runUpstream(ctx context.Context, p *plan) (*outcome, error) {
	for gate, on := range p.featureGates {
		// A gate locked at GA (SchedulerQueueingHints) cannot be turned
		// off any more; the release runs with it on, so the run does too.
		if err := utilfeature.DefaultMutableFeatureGate.Set(fmt.Sprintf("%s=%t", gate, on)); err != nil {
			klog.FromContext(ctx).Info("Feature gate of the workload entry not set", "gate", gate, "value", on, "err", err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The simple tracker: NewClientset's field management costs more per
	// write than a scheduling cycle, which would measure the fake.
	client := fake.NewSimpleClientset() //nolint:staticcheck // see above
	fakewatch.Copying(client)
	// The fake API server does not implement the binding subresource.
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create := action.(clienttesting.CreateAction)
		if create.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding := create.GetObject().(*v1.Binding)
		gvr := v1.SchemeGroupVersion.WithResource("pods")
		obj, err := client.Tracker().Get(gvr, binding.Namespace, binding.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod).DeepCopy()
		pod.Spec.NodeName = binding.Target.Name
		return true, nil, client.Tracker().Update(gvr, pod, pod.Namespace)
	})
	for _, n := range p.nodes {
		if _, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
	}
	for _, ns := range p.ns {
		if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
	}

	factory := scheduler.NewInformerFactory(client, 0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	s, err := scheduler.New(ctx, client, factory, nil, profile.NewRecorderFactory(broadcaster))
	if err != nil {
		return nil, err
	}
	w := newWatcher()
	if _, err := factory.Core().V1().Pods().Informer().AddEventHandler(w); err != nil {
		return nil, err
	}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	// As kube-scheduler's Run (cmd/kube-scheduler/app/server.go): the
	// informers' stores can be synced before the scheduler's handlers have
	// put every Node in its cache; scheduling then would see some nodes only.
	if err := s.WaitForHandlersSync(ctx); err != nil {
		return nil, err
	}
	startLoop(ctx, s, w)

	o := &outcome{}
	for _, batch := range p.init {
		if _, err := createAndWait(ctx, client, w, batch, nil, o); err != nil {
			return nil, err
		}
	}
	w.measure(p.measured.pods)
	start, cpu := time.Now(), cpuTime()
	var left int
	if p.rollover != nil {
		left, err = rollOver(ctx, client, s, w, p, o)
	} else {
		left, err = createAndWait(ctx, client, w, p.measured, p.churn, o)
	}
	if err != nil {
		return nil, err
	}
	// CPU to the end of the wait, which ends within a millisecond of the
	// last binding unless pods were left (then stallTimeout of polling).
	o.elapsed, o.cpu = w.lastBound().Sub(start), cpuTime()-cpu
	o.scheduled, o.unscheduled = len(p.measured.pods)-left, left
	cancel()
	w.mu.Lock()
	defer w.mu.Unlock()
	o.attempts, o.attemptMs, o.preemptions = len(w.attemptMs), w.attemptMs, len(w.nominated)
	o.placements = w.placements
	return o, nil
}

// startLoop runs the queue and ScheduleOne as Scheduler.Run does, timing
// each attempt of a measured pod.
func startLoop(ctx context.Context, s *scheduler.Scheduler, w *watcher) {
	logger := klog.FromContext(ctx)
	s.SchedulingQueue.Run(logger)
	if s.APIDispatcher != nil {
		s.APIDispatcher.Run(logger)
	}
	var popped *v1.Pod
	var poppedAt time.Time
	next := s.NextPod
	s.NextPod = func(l klog.Logger) (*framework.QueuedPodInfo, error) {
		pi, err := next(l)
		popped, poppedAt = nil, time.Now()
		if pi != nil {
			popped = pi.Pod
		}
		return pi, err
	}
	go func() {
		for ctx.Err() == nil {
			s.ScheduleOne(ctx)
			if popped != nil {
				w.attempt(popped, time.Since(poppedAt))
			}
		}
		s.SchedulingQueue.Close()
	}()
}

// rollOver runs the rounds of p.rollover (bench/workload/plan.h): each
// Deployment created and waited for, then the oldest one deleted and nodes
// drained and replaced through the client; it returns the measured pods
// left unbound.
func rollOver(ctx context.Context, client *fake.Clientset, s *scheduler.Scheduler, w *watcher, p *plan, o *outcome) (int, error) {
	live := append([]batch(nil), p.init...)
	nodes := append([]*v1.Node(nil), p.nodes...)
	spare := p.rollover.spareNodes
	left := 0
	for _, round := range p.rollover.rounds {
		l, err := createAndWait(ctx, client, w, round, nil, o)
		if err != nil {
			return 0, err
		}
		left += l
		live = append(live, round)
		old := live[0]
		live = live[1:]
		var gone, drained []string
		for _, pod := range old.pods {
			if err := deletePod(ctx, client, pod.Namespace, pod.Name); err != nil {
				return 0, err
			}
			gone = append(gone, key(pod))
		}
		for _, obj := range old.objects {
			var err error
			switch obj := obj.(type) {
			case *v1.Service:
				err = client.CoreV1().Services(obj.Namespace).Delete(ctx, obj.Name, metav1.DeleteOptions{})
			case *appsv1.ReplicaSet:
				err = client.AppsV1().ReplicaSets(obj.Namespace).Delete(ctx, obj.Name, metav1.DeleteOptions{})
			}
			if err != nil {
				return 0, err
			}
		}
		var added []*v1.Node
		for i := 0; i < p.rollover.replaceNodes && len(spare) > 0; i++ {
			for _, k := range w.podsOn(nodes[0].Name) {
				ns, name, _ := strings.Cut(k, "/")
				if err := deletePod(ctx, client, ns, name); err != nil {
					return 0, err
				}
				gone = append(gone, k)
			}
			if err := client.CoreV1().Nodes().Delete(ctx, nodes[0].Name, metav1.DeleteOptions{}); err != nil {
				return 0, err
			}
			drained = append(drained, nodes[0].Name)
			added = append(added, spare[0])
			nodes, spare = nodes[1:], spare[1:]
		}
		// The new nodes come once the cache holds the deletions: with both
		// on their way its node count already matches while it still holds
		// a drained node, and the next round could bind a pod to that node.
		if err := waitForCache(ctx, client, s, w, gone, drained, nodes); err != nil {
			return 0, err
		}
		for _, n := range added {
			if _, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
				return 0, err
			}
			nodes = append(nodes, n)
		}
		if err := waitForCache(ctx, client, s, w, nil, drained, nodes); err != nil {
			return 0, err
		}
	}
	return left, nil
}

// waitForCache returns once the informer has delivered the deletions of
// `gone` and the scheduler's cache holds `nodes` and the pods the watcher
// sees bound (its handlers run apart from the watcher's), as the engine
// drivers' next step does. A pending pod bound to a drained node between
// its pods' listing and the node's deletion is deleted as the pod garbage
// collector does (pkg/controller/podgc): otherwise the cache keeps that
// node's entry for its pod. It fails after a minute, saying what differs.
func waitForCache(ctx context.Context, client *fake.Clientset, s *scheduler.Scheduler, w *watcher, gone, drained []string, nodes []*v1.Node) error {
	deadline := time.Now().Add(time.Minute)
	for w.anyBound(gone) || !cacheHolds(s, len(nodes), w) {
		for _, node := range drained {
			for _, k := range w.podsOn(node) {
				ns, name, _ := strings.Cut(k, "/")
				if err := deletePod(ctx, client, ns, name); err != nil {
					return err
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("rollover: after a minute the scheduler's cache still differs from the watcher (%s)", cacheState(s, nodes, w))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("interrupted: %w", ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}

// cacheHolds reports whether the scheduler's cache has `nodes` nodes and
// the pods the watcher sees bound: no node or pod event still on its way.
func cacheHolds(s *scheduler.Scheduler, nodes int, w *watcher) bool {
	pods, err := s.Cache.PodCount()
	if err != nil || s.Cache.NodeCount() != nodes {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return pods == len(w.placements)
}

// cacheState says what cacheHolds compares, for an error, and what the
// cache holds that the cluster does not: nodes not in `nodes` (a deleted
// node kept for its pods) with their pods, and the assumed pods.
func cacheState(s *scheduler.Scheduler, nodes []*v1.Node, w *watcher) string {
	pods, err := s.Cache.PodCount()
	live := map[string]bool{}
	for _, n := range nodes {
		live[n.Name] = true
	}
	dump := s.Cache.Dump()
	var extra []string
	for name, info := range dump.Nodes {
		if live[name] {
			continue
		}
		var on []string
		for _, p := range info.GetPods() {
			on = append(on, key(p.GetPod()))
		}
		extra = append(extra, fmt.Sprintf("%s (node object %t) with pods %v", name, info.Node() != nil, on))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return fmt.Sprintf("cache: %d nodes, %d pods (err %v); watcher: %d nodes, %d bound pods; cache's other nodes: %v; assumed pods: %v",
		s.Cache.NodeCount(), pods, err, len(nodes), len(w.placements), extra, sets.List(dump.AssumedPods))
}

// deletePod deletes a pod; one already gone (drained with its node) is fine.
func deletePod(ctx context.Context, client *fake.Clientset, ns, name string) error {
	err := client.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// createAndWait creates a batch's objects and pods (and churn pods on the
// wall clock) and waits until all its pods are bound or progress stalls;
// it returns how many are left unbound.
func createAndWait(ctx context.Context, client *fake.Clientset, w *watcher, b batch, c *churn, o *outcome) (int, error) {
	for _, obj := range b.objects {
		var err error
		switch obj := obj.(type) {
		case *v1.Service:
			_, err = client.CoreV1().Services(obj.Namespace).Create(ctx, obj, metav1.CreateOptions{})
		case *appsv1.ReplicaSet:
			_, err = client.AppsV1().ReplicaSets(obj.Namespace).Create(ctx, obj, metav1.CreateOptions{})
		default:
			err = fmt.Errorf("unexpected object %T", obj)
		}
		if err != nil {
			return 0, err
		}
	}
	pods := b.pods
	for _, pod := range pods {
		if _, err := client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			return 0, err
		}
	}
	nextChurn, ticks := time.Now(), 0
	lastProgress, lastLeft, lastTries := time.Now(), -1, -1
	for {
		left, tries := w.unbound(pods), w.triesSoFar()
		if left == 0 {
			return 0, nil
		}
		now := time.Now()
		if left != lastLeft || tries != lastTries {
			lastProgress, lastLeft, lastTries = now, left, tries
		} else if now.Sub(lastProgress) > stallTimeout {
			return left, nil
		}
		if c != nil && !now.Before(nextChurn) {
			if err := churnUpstream(ctx, client, c.tick(ticks), o); err != nil {
				return 0, err
			}
			ticks++
			nextChurn = nextChurn.Add(c.interval)
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("interrupted: %w", ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

// churnUpstream creates and deletes one churn tick's objects through the
// API, as scheduler_perf's churn op does.
func churnUpstream(ctx context.Context, client *fake.Clientset, tick []churnEvent, o *outcome) error {
	for _, ev := range tick {
		var err error
		switch obj := ev.obj.(type) {
		case *v1.Pod:
			pods := client.CoreV1().Pods(obj.Namespace)
			if ev.deleted {
				err = pods.Delete(ctx, obj.Name, metav1.DeleteOptions{})
			} else {
				o.churnPods++
				_, err = pods.Create(ctx, obj, metav1.CreateOptions{})
			}
		case *v1.Node:
			if ev.deleted {
				err = client.CoreV1().Nodes().Delete(ctx, obj.Name, metav1.DeleteOptions{})
			} else {
				_, err = client.CoreV1().Nodes().Create(ctx, obj, metav1.CreateOptions{})
			}
		case *v1.Service:
			services := client.CoreV1().Services(obj.Namespace)
			if ev.deleted {
				err = services.Delete(ctx, obj.Name, metav1.DeleteOptions{})
			} else {
				_, err = services.Create(ctx, obj, metav1.CreateOptions{})
			}
		default:
			err = fmt.Errorf("unexpected churn object %T", obj)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// watcher follows the pod informer: where pods are bound, when the last
// measured pod was, which pods got a nominated node, and attempt times.
type watcher struct {
	mu         sync.Mutex
	placements map[string]string
	measured   map[string]bool
	nominated  map[string]bool
	attemptMs  []float64
	tries      int // scheduling attempts of any pod
	last       time.Time
}

func newWatcher() *watcher {
	return &watcher{placements: map[string]string{}, measured: map[string]bool{}, nominated: map[string]bool{}}
}

func key(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func (w *watcher) measure(pods []*v1.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range pods {
		w.measured[key(p)] = true
	}
}

func (w *watcher) attempt(p *v1.Pod, d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tries++
	if w.measured[key(p)] {
		w.attemptMs = append(w.attemptMs, float64(d.Nanoseconds())/1e6)
	}
}

func (w *watcher) unbound(pods []*v1.Pod) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, p := range pods {
		if _, ok := w.placements[key(p)]; !ok {
			n++
		}
	}
	return n
}

// anyBound reports whether one of the pods ("ns/name") is still bound.
func (w *watcher) anyBound(pods []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, k := range pods {
		if _, ok := w.placements[k]; ok {
			return true
		}
	}
	return false
}

// podsOn lists the pods bound to node, "ns/name".
func (w *watcher) podsOn(node string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var pods []string
	for k, n := range w.placements {
		if n == node {
			pods = append(pods, k)
		}
	}
	sort.Strings(pods)
	return pods
}

func (w *watcher) triesSoFar() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tries
}

func (w *watcher) lastBound() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

func (w *watcher) OnAdd(obj any, _ bool) { w.OnUpdate(nil, obj) }

func (w *watcher) OnUpdate(_, obj any) {
	p, ok := obj.(*v1.Pod)
	if !ok {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	k := key(p)
	if p.Status.NominatedNodeName != "" {
		w.nominated[k] = true
	}
	if p.Spec.NodeName != "" {
		if _, seen := w.placements[k]; !seen && w.measured[k] {
			w.last = time.Now()
		}
		w.placements[k] = p.Spec.NodeName
	}
}

func (w *watcher) OnDelete(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	if p, ok := obj.(*v1.Pod); ok {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.placements, key(p))
	}
}

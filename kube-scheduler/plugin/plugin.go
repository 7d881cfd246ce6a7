// Package plugin is LibSched, a kube-scheduler framework plugin backed by the
// libsched engine (package github.com/libsched/libsched/go/sched). One
// engine call per scheduling cycle, in PreFilter, answers Filter for every
// node; in plugin mode a second, in PreScore, scores the nodes upstream
// sampled. Filter and Score read the answers from the CycleState. The engine's
// cluster state follows the scheduler's informers. See ../README.md.
package plugin

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/libsched/libsched/go/sched"
)

// Name is the plugin's name in KubeSchedulerConfiguration profiles.
const Name = "LibSched"

// LibSched is the plugin. One instance (and one engine) exists per profile
// that enables it. Its methods may be called concurrently, as the framework
// does; the engine serializes its own calls.
type LibSched struct {
	args   Args
	engine *sched.Engine
	feed   *feed
	// synced reports whether each informer handler has seen its initial
	// list; allSynced caches a true answer.
	synced    []cache.InformerSynced
	allSynced atomic.Bool
	preemptor *preemptor
	// clock moves the engine's clock to the wall time before each cycle.
	clock *engineClock
}

var (
	_ fwk.PreFilterPlugin   = (*LibSched)(nil)
	_ fwk.FilterPlugin      = (*LibSched)(nil)
	_ fwk.PreScorePlugin    = (*LibSched)(nil)
	_ fwk.ScorePlugin       = (*LibSched)(nil)
	_ fwk.ReservePlugin     = (*LibSched)(nil)
	_ fwk.PostFilterPlugin  = (*LibSched)(nil)
	_ fwk.PreEnqueuePlugin  = (*LibSched)(nil)
	_ fwk.EnqueueExtensions = (*LibSched)(nil)
)

// NewFactory returns the plugin's factory (frameworkruntime.PluginFactory)
// for the loaded configuration cfg: it decodes the args, finds the profile
// that enabled LibSched (by the framework's profile name), creates the
// engine from that profile (engineConfig) and registers the informer
// handlers that feed it. A profile the engine cannot honour fails here, so
// the scheduler does not start. Register it with
// app.WithPlugin(plugin.Name, plugin.NewFactory(cfg)).
func NewFactory(cfg *config.KubeSchedulerConfiguration) frameworkruntime.PluginFactory {
	return func(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		return newPlugin(ctx, cfg, obj, h)
	}
}

func newPlugin(ctx context.Context, c *config.KubeSchedulerConfiguration, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
	args, err := decodeArgs(obj)
	if err != nil {
		return nil, err
	}
	src, err := findProfile(c, h.ProfileName())
	if err != nil {
		return nil, err
	}
	engine, err := newEngine(args, src)
	if err != nil {
		return nil, err
	}
	core := h.SharedInformerFactory().Core().V1()
	view := newEngineView(core.Nodes().Lister(), core.Pods().Lister())
	profiles := make(map[string]bool, len(c.Profiles))
	for _, prof := range c.Profiles {
		profiles[prof.SchedulerName] = true
	}
	pl := &LibSched{args: args, engine: engine,
		feed:  &feed{engine: engine, view: view, logger: klog.FromContext(ctx), profiles: profiles},
		clock: newEngineClock(time.Now)}
	// On the wall time before the informers queue any pod (clock.go).
	if err := pl.clock.advance(engine); err != nil {
		engine.Close()
		return nil, fmt.Errorf("LibSched: engine clock: %w", err)
	}
	if pl.preemptor, err = newPreemptor(ctx, h); err != nil {
		engine.Close()
		return nil, fmt.Errorf("LibSched: preemption: %w", err)
	}
	dra := utilfeature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation)
	if pl.synced, err = pl.feed.register(h.SharedInformerFactory(), dra); err != nil {
		engine.Close()
		return nil, fmt.Errorf("LibSched: registering informer handlers: %w", err)
	}
	return pl, nil
}

// Name returns Name.
func (pl *LibSched) Name() string { return Name }

// Close frees the engine; the framework calls it when the scheduler stops
// (frameworkImpl.Close closes plugins that are io.Closers). Events arriving
// later are dropped.
func (pl *LibSched) Close() error { return pl.engine.Close() }

// EventsToRegister: any Node change, and any Pod change the engine's
// plugins read (podMayHelp), can change the engine's answer, so pods the
// plugin rejected are retried on them.
func (pl *LibSched) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		{Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add | fwk.Update}},
		{Event: fwk.ClusterEvent{Resource: fwk.Pod, ActionType: fwk.All}, QueueingHintFn: podMayHelp},
	}, nil
}

// podMayHelp skips a Pod update that changes none of what the engine's
// plugins read of other pods (labels, node, phase, and every input of the
// pod's requests as upstream's resource.PodRequests reads them: containers,
// pod-level spec.resources, overhead, the resources in status and the
// PodResizePending condition; upstream's NodeResourcesFit, InterPodAffinity
// and PodTopologySpread hints look at these), such as preemption's
// DisruptionTarget status patch: retrying on it would run a second
// preemption for victims already being deleted.
func podMayHelp(_ klog.Logger, _ *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	oldPod, okOld := oldObj.(*v1.Pod)
	newPod, okNew := newObj.(*v1.Pod)
	if !okOld || !okNew { // add or delete
		return fwk.Queue, nil
	}
	if !equality.Semantic.DeepEqual(oldPod.Labels, newPod.Labels) || oldPod.Spec.NodeName != newPod.Spec.NodeName ||
		podTerminal(oldPod) != podTerminal(newPod) ||
		(oldPod.DeletionTimestamp == nil) != (newPod.DeletionTimestamp == nil) ||
		!equality.Semantic.DeepEqual(requestInputs(oldPod), requestInputs(newPod)) {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

func podTerminal(p *v1.Pod) bool {
	return p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed
}

// requestInputs gathers what a pod's requests are computed from.
func requestInputs(p *v1.Pod) []any {
	var resizePending *v1.PodCondition
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == v1.PodResizePending {
			resizePending = &p.Status.Conditions[i]
			break
		}
	}
	return []any{
		p.Spec.Containers, p.Spec.InitContainers, p.Spec.Resources, p.Spec.Overhead,
		p.Status.ContainerStatuses, p.Status.InitContainerStatuses, p.Status.Resources,
		p.Status.AllocatedResources, resizePending,
	}
}

// waitForSync blocks until every informer handler has delivered its
// informer's initial list to the engine, so no cycle runs on a partial
// cluster (the scheduler waits for its own handlers, not for ours).
func (pl *LibSched) waitForSync(ctx context.Context) *fwk.Status {
	if pl.allSynced.Load() {
		return nil
	}
	if !cache.WaitForCacheSync(ctx.Done(), pl.synced...) {
		return fwk.AsStatus(fmt.Errorf("LibSched: cluster state not synced: %w", ctx.Err()))
	}
	pl.allSynced.Store(true)
	return nil
}

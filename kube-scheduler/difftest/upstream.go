package difftest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
)

// enginePlugins is the profile the engine runs today
// (libsched/plugins/registry.cc), in default_plugins.go's MultiPoint order
// with its weights. PrioritySort and DefaultBinder are there only because
// NewFramework requires a QueueSort and a Bind plugin; neither affects a
// decision.
var enginePlugins = []config.Plugin{
	{Name: names.PrioritySort},
	{Name: names.NodeUnschedulable},
	{Name: names.NodeName},
	{Name: names.TaintToleration, Weight: 3},
	{Name: names.NodeAffinity, Weight: 2},
	{Name: names.NodePorts},
	{Name: names.NodeResourcesFit, Weight: 1},
	{Name: names.VolumeRestrictions},
	{Name: names.NodeVolumeLimits},
	{Name: names.VolumeBinding},
	{Name: names.VolumeZone},
	{Name: names.PodTopologySpread, Weight: 2},
	{Name: names.InterPodAffinity, Weight: 2},
	// applyDynamicResources puts it where DefaultPreemption is (built
	// apart, preempt.go), so its PostFilter runs first.
	{Name: names.DynamicResources, Weight: 2},
	{Name: names.NodeResourcesBalancedAllocation, Weight: 1},
	{Name: names.ImageLocality, Weight: 1},
	{Name: names.DefaultBinder},
}

// upstreamProfile is enginePlugins with the case's pluginConfig (nil: none)
// defaulted and validated as kube-scheduler loads a config file, and the
// profile's percentageOfNodesToScore (nil: unset).
func upstreamProfile(pluginConfig []byte, percentage *int32) (*config.KubeSchedulerProfile, error) {
	enabled := sets.New[string]()
	for _, p := range enginePlugins {
		enabled.Insert(p.Name)
	}
	args, err := profileArgs(pluginConfig, enabled)
	if err != nil {
		return nil, err
	}
	return &config.KubeSchedulerProfile{
		SchedulerName:            v1.DefaultSchedulerName,
		PercentageOfNodesToScore: percentage,
		Plugins:                  &config.Plugins{MultiPoint: config.PluginSet{Enabled: enginePlugins}},
		PluginConfig:             args,
	}, nil
}

// noDRA is the SharedDRAManager of a case without DRA objects (cheaper
// than informers per case; draManager builds the real one): no extended
// resource is backed by DRA. With no class, NodeResourcesFit and
// BalancedAllocation call nothing but DeviceClassResolver, and
// DynamicResources nothing at all for pods without claims; without a
// manager they crash scoring an extended resource.
type noDRA struct{ fwk.SharedDRAManager }

func (noDRA) DeviceClassResolver() fwk.DeviceClassResolver { return noDeviceClasses{} }

type noDeviceClasses struct{}

func (noDeviceClasses) GetDeviceClass(v1.ResourceName) *resourceapi.DeviceClass { return nil }

// noNominatedPods is the PodNominator of a scheduler with an empty queue:
// the cases set no status.nominatedNodeName, and the engine's C API passes
// no nominated pods either (docs/api.md).
type noNominatedPods struct{}

func (noNominatedPods) AddNominatedPod(klog.Logger, fwk.PodInfo, *fwk.NominatingInfo) {}
func (noNominatedPods) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (noNominatedPods) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)          {}
func (noNominatedPods) NominatedPodsForNode(string) []fwk.PodInfo                     { return nil }

var registerMetrics = sync.OnceFunc(metrics.Register)

// decideUpstream runs one scheduling cycle of c.Pod through upstream's
// framework runtime and in-tree plugins on a snapshot of c, every node
// evaluated (percentageOfNodesToScore 100, in name order).
func decideUpstream(ctx context.Context, c *Case) (*Decision, error) {
	snapshot := internalcache.NewSnapshot(c.Pods, c.Nodes)
	all := int32(100)
	up, err := newUpstream(ctx, c, snapshot, &all)
	if err != nil {
		return nil, err
	}
	defer up.close()
	allNodes, err := snapshot.NodeInfos().List()
	if err != nil {
		return nil, err
	}
	sort.Slice(allNodes, func(i, j int) bool { return allNodes[i].Node().Name < allNodes[j].Node().Name })
	return up.decide(ctx, c.Pod, allNodes, &walk{})
}

// upstream is upstream's framework (the profile of enginePlugins) and
// DefaultPreemption over a snapshot, with c's namespaces, PDBs and volume
// objects behind informers of a fake clientset.
type upstream struct {
	fw         framework.Framework
	pl         *defaultpreemption.DefaultPreemption
	percentage *int32 // the profile's percentageOfNodesToScore (nil: the default, adaptive)
	close      func() // stops the informers
	dra        fwk.SharedDRAManager
	// state is the last decide's CycleState: a sequence runs Reserve on it
	// for the node it binds a pod with claims to (sequence_dra.go).
	state fwk.CycleState
}

func newUpstream(ctx context.Context, c *Case, snapshot *internalcache.Snapshot, percentage *int32) (*upstream, error) {
	registerMetrics() // the framework records into scheduler metrics, nil until registered
	ctx, cancel := context.WithCancel(ctx)
	objects := make([]runtime.Object, 0, len(c.Namespaces)+len(c.PDBs))
	for _, ns := range c.Namespaces {
		objects = append(objects, ns)
	}
	for _, pdb := range c.PDBs {
		objects = append(objects, pdb)
	}
	objects = append(objects, c.volumeObjects()...)
	objects = append(objects, c.draObjects()...)
	client := fake.NewClientset(objects...)
	informerFactory := informers.NewSharedInformerFactory(client, 0)
	up := &upstream{percentage: percentage, close: func() {
		cancel() // the informers run until ctx is done; Shutdown waits for them
		informerFactory.Shutdown()
	}}
	var dra fwk.SharedDRAManager = noDRA{}
	var draSynced []cache.InformerSynced
	profile, err := upstreamProfile(c.PluginConfig, percentage)
	if err == nil && c.hasDRA() {
		dra, draSynced, err = draManager(ctx, client, informerFactory)
	}
	up.dra = dra
	if err == nil {
		up.fw, err = frameworkruntime.NewFramework(ctx, plugins.NewInTreeRegistry(), profile,
			frameworkruntime.WithSnapshotSharedLister(snapshot),
			frameworkruntime.WithClientSet(client),
			frameworkruntime.WithInformerFactory(informerFactory),
			frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(
				informerFactory.Storage().V1().CSINodes().Lister())),
			frameworkruntime.WithPodNominator(noNominatedPods{}),
			frameworkruntime.WithSharedDRAManager(dra),
			frameworkruntime.WithParallelism(1))
		if err != nil {
			err = fmt.Errorf("NewFramework: %w", err)
		}
	}
	if err == nil {
		if up.pl, err = newPreemption(ctx, up.fw); err != nil {
			err = fmt.Errorf("DefaultPreemption: %w", err)
		}
	}
	if err != nil {
		up.close()
		return nil, err
	}
	informerFactory.Start(ctx.Done())
	informerFactory.WaitForCacheSync(ctx.Done())
	// The DRA manager's views (allocated devices, slices) follow the
	// informers through handlers of their own: polled every millisecond,
	// as cache.WaitForCacheSync's 100 ms would double the run's time.
	synced := func(context.Context) (bool, error) {
		for _, s := range draSynced {
			if !s() {
				return false, nil
			}
		}
		return true, nil
	}
	if err := wait.PollUntilContextTimeout(ctx, time.Millisecond, time.Minute, true, synced); err != nil {
		up.close()
		return nil, fmt.Errorf("the DRA manager did not sync: %w", err)
	}
	return up, nil
}

// draManager is the SharedDRAManager scheduler.go builds (an assume cache
// of claims, the ResourceSlice tracker without DeviceTaintRules, which are
// off in v1.36) and the checks that its views have caught up.
func draManager(ctx context.Context, client *fake.Clientset, f informers.SharedInformerFactory) (fwk.SharedDRAManager, []cache.InformerSynced, error) {
	claims := assumecache.NewAssumeCache(klog.FromContext(ctx), f.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	tracker, err := resourceslicetracker.StartTracker(ctx, resourceslicetracker.Options{
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            f.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("resource slice tracker: %w", err)
	}
	m := dynamicresources.NewDRAManager(ctx, claims, tracker, f)
	// The claim cache's handlers share one registration: synced once the
	// allocated devices have seen every claim.
	reg := claims.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	synced := []cache.InformerSynced{reg.HasSynced, tracker.HasSynced}
	// The DeviceClasses' extended resource names (DRAExtendedResource)
	// reach DeviceClassResolver through the handler addAllEventHandlers
	// chains before the scheduler's own (eventhandlers.go); without it
	// every extended resource reads as backed by no class.
	if erc, ok := m.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache); ok && erc != nil {
		classes, err := f.Resource().V1().DeviceClasses().Informer().AddEventHandler(erc)
		if err != nil {
			return nil, nil, fmt.Errorf("extended resource cache: %w", err)
		}
		synced = append(synced, classes.HasSynced)
	}
	return m, synced, nil
}

// postFilter does what RunPostFilterPlugins does with DynamicResources
// (the profile's only PostFilter plugin) before DefaultPreemption
// (preemptUpstream): an Error or UnschedulableAndUnresolvable from the
// first ends it with that message; otherwise preemption runs, and when it
// nominates nobody the message joins both plugins' reasons.
func (up *upstream) postFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, m *framework.NodeToStatus, d *Decision) error {
	_, s := up.fw.RunPostFilterPlugins(ctx, state, pod, m)
	if s.Code() != fwk.Unschedulable {
		d.PostFilterMsg = s.Message()
		return nil
	}
	if err := preemptUpstream(ctx, up.pl, up.fw, state, pod, m, d); err != nil {
		return err
	}
	if len(d.Nominated) == 0 && !d.postFilterError {
		d.PostFilterMsg = strings.Join(append(s.Reasons(), d.PostFilterMsg), ", ")
	}
	return nil
}

// walk is the scheduler's state across cycles that decides which nodes a
// cycle evaluates: nextStartNodeIndex (schedule_one.go).
type walk struct{ next int }

// numFeasibleNodesToFind is schedule_one.go's, for percentage p (0:
// adaptive) and n nodes.
func numFeasibleNodesToFind(p int32, n int) int {
	const minFeasibleNodesToFind, minFeasibleNodesPercentageToFind = 100, 5
	if n < minFeasibleNodesToFind {
		return n
	}
	if p == 0 {
		p = max(50-int32(n)/125, minFeasibleNodesPercentageToFind)
	}
	return max(n*int(p)/100, minFeasibleNodesToFind)
}

// decide does what schedule_one.go's schedulePod does with parallelism 1,
// allNodes in the snapshot's order and w's start index: PreFilter (with
// its PreFilterResult), Filter from nextStartNodeIndex round the nodes
// until numFeasibleNodesToFind nodes fit
// (findNodesThatPassFilters, whose Parallelizer with one worker checks
// the nodes in that order and stops at the first one past the count),
// PreScore and Score when two or more fit, and when none does,
// DefaultPreemption's PostFilter (preemptUpstream) and the FitError; it
// stops before selectHost. A PreFilterResult's nodes are walked in
// allNodes' order (upstream: map order, which matters only when they are
// more than numFeasibleNodesToFind).
func (up *upstream) decide(ctx context.Context, pod *v1.Pod, allNodes []fwk.NodeInfo, w *walk) (*Decision, error) {
	fw := up.fw
	state := framework.NewCycleState()
	up.state = state
	diagnosis := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}
	var feasible []fwk.NodeInfo
	preRes, s, unschedulablePlugins := fw.RunPreFilterPlugins(ctx, state, pod)
	switch {
	case !s.IsSuccess() && !s.IsRejected():
		return &Decision{Error: s.Message()}, nil
	case !s.IsSuccess():
		diagnosis.NodeToStatus.SetAbsentNodesStatus(s)
		diagnosis.PreFilterMsg = s.Message()
	default:
		nodes := allNodes
		if !preRes.AllNodes() {
			nodes = nil
			for _, n := range allNodes {
				if preRes.NodeNames.Has(n.Node().Name) {
					nodes = append(nodes, n)
				}
			}
			// The status findNodesThatFitPod gives nodes a PreFilterResult left out.
			diagnosis.NodeToStatus.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable,
				fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sets.List(unschedulablePlugins))))
		}
		var p int32
		if up.percentage != nil {
			p = *up.percentage
		}
		toFind := numFeasibleNodesToFind(p, len(nodes))
		for i := 0; i < len(nodes) && len(feasible) < toFind; i++ {
			n := nodes[(w.next+i)%len(nodes)]
			status := fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, n)
			switch {
			case status.Code() == fwk.Error:
				return &Decision{Error: status.Message()}, nil
			case status.IsSuccess():
				feasible = append(feasible, n)
			default:
				diagnosis.NodeToStatus.Set(n.Node().Name, status)
			}
		}
		w.next = (w.next + len(feasible) + diagnosis.NodeToStatus.Len()) % len(allNodes)
	}

	d := &Decision{Rejected: map[string]Verdict{}}
	for _, n := range feasible {
		d.Feasible = append(d.Feasible, n.Node().Name)
	}
	sort.Strings(d.Feasible)
	feasibleSet := sets.New(d.Feasible...)
	for _, n := range allNodes {
		name := n.Node().Name
		switch {
		case feasibleSet.Has(name):
		case len(feasible) > 0 && diagnosis.NodeToStatus.Get(name) == diagnosis.NodeToStatus.AbsentNodesStatus():
			// Not evaluated, or left out by a PreFilterResult: a scheduled
			// pod's result shows no status for it.
			d.Unlisted = append(d.Unlisted, name)
		default:
			st := diagnosis.NodeToStatus.Get(name)
			d.Rejected[name] = Verdict{Code: st.Code().String(), Plugin: st.Plugin(), Reasons: st.Reasons()}
		}
	}
	sort.Strings(d.Unlisted)
	switch len(feasible) {
	case 0:
		// schedule_one.go runs PostFilter on the Filter statuses, then
		// prints the FitError with its message.
		if err := up.postFilter(ctx, state, pod, diagnosis.NodeToStatus, d); err != nil {
			return nil, err
		}
		diagnosis.PostFilterMsg = d.PostFilterMsg
		d.Message = (&framework.FitError{Pod: pod, NumAllNodes: len(allNodes), Diagnosis: diagnosis}).Error()
	case 1:
		d.Top = d.Feasible
	default:
		if s := fw.RunPreScorePlugins(ctx, state, pod, feasible); !s.IsSuccess() {
			return nil, fmt.Errorf("PreScore: %w", s.AsError())
		}
		scores, s := fw.RunScorePlugins(ctx, state, pod, feasible)
		if !s.IsSuccess() {
			return nil, fmt.Errorf("Score: %w", s.AsError())
		}
		d.Scores = map[string]map[string]int64{}
		for _, ns := range scores {
			byPlugin := map[string]int64{}
			for _, ps := range ns.Scores {
				byPlugin[ps.Name] = ps.Score
			}
			d.Scores[ns.Name] = byPlugin
		}
		d.Top = topNodes(d.Scores)
	}
	return d, nil
}

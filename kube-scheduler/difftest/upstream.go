package difftest

import (
	"context"
	"fmt"
	"sort"
	"sync"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
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
	{Name: names.NodeResourcesBalancedAllocation, Weight: 1},
	{Name: names.ImageLocality, Weight: 1},
	{Name: names.DefaultBinder},
}

// upstreamProfile is enginePlugins with the case's pluginConfig (nil: none)
// defaulted and validated as kube-scheduler loads a config file.
func upstreamProfile(pluginConfig []byte) (*config.KubeSchedulerProfile, error) {
	enabled := sets.New[string]()
	for _, p := range enginePlugins {
		enabled.Insert(p.Name)
	}
	args, err := profileArgs(pluginConfig, enabled)
	if err != nil {
		return nil, err
	}
	all := int32(100)
	return &config.KubeSchedulerProfile{
		SchedulerName:            v1.DefaultSchedulerName,
		PercentageOfNodesToScore: &all,
		Plugins:                  &config.Plugins{MultiPoint: config.PluginSet{Enabled: enginePlugins}},
		PluginConfig:             args,
	}, nil
}

// noDRA is the SharedDRAManager of a cluster without DeviceClasses, as the
// engine models it: no extended resource is backed by DRA
// (DRAExtendedResource is on in v1.36). With no class, NodeResourcesFit and
// BalancedAllocation call nothing but DeviceClassResolver; without a
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
// framework runtime and in-tree plugins, as schedule_one.go's schedulePod
// does with parallelism 1 and percentageOfNodesToScore 100 (every node is
// filtered), then DefaultPreemption's PostFilter when no node fits
// (preemptUpstream); it stops before selectHost.
func decideUpstream(ctx context.Context, c *Case) (*Decision, error) {
	registerMetrics() // the framework records into scheduler metrics, nil until registered
	ctx, cancel := context.WithCancel(ctx)
	snapshot := internalcache.NewSnapshot(c.Pods, c.Nodes)
	objects := make([]runtime.Object, 0, len(c.Namespaces)+len(c.PDBs))
	for _, ns := range c.Namespaces {
		objects = append(objects, ns)
	}
	for _, pdb := range c.PDBs {
		objects = append(objects, pdb)
	}
	objects = append(objects, c.volumeObjects()...)
	client := fake.NewClientset(objects...)
	informerFactory := informers.NewSharedInformerFactory(client, 0)
	defer func() {
		cancel() // the informers run until ctx is done; Shutdown waits for them
		informerFactory.Shutdown()
	}()
	profile, err := upstreamProfile(c.PluginConfig)
	if err != nil {
		return nil, err
	}
	fw, err := frameworkruntime.NewFramework(ctx, plugins.NewInTreeRegistry(), profile,
		frameworkruntime.WithSnapshotSharedLister(snapshot),
		frameworkruntime.WithClientSet(client),
		frameworkruntime.WithInformerFactory(informerFactory),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(
			informerFactory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithPodNominator(noNominatedPods{}),
		frameworkruntime.WithSharedDRAManager(noDRA{}),
		frameworkruntime.WithParallelism(1))
	if err != nil {
		return nil, fmt.Errorf("NewFramework: %w", err)
	}
	pl, err := newPreemption(ctx, fw)
	if err != nil {
		return nil, fmt.Errorf("DefaultPreemption: %w", err)
	}
	informerFactory.Start(ctx.Done())
	informerFactory.WaitForCacheSync(ctx.Done())

	allNodes, err := snapshot.NodeInfos().List()
	if err != nil {
		return nil, err
	}
	sort.Slice(allNodes, func(i, j int) bool { return allNodes[i].Node().Name < allNodes[j].Node().Name })

	state := framework.NewCycleState()
	pod := c.Pod
	diagnosis := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}
	var feasible []fwk.NodeInfo
	preRes, s, unschedulablePlugins := fw.RunPreFilterPlugins(ctx, state, pod)
	switch {
	case !s.IsSuccess() && !s.IsRejected():
		return nil, fmt.Errorf("PreFilter: %w", s.AsError())
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
		for _, n := range nodes {
			status := fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, n)
			switch {
			case status.Code() == fwk.Error:
				return nil, fmt.Errorf("Filter on %s: %w", n.Node().Name, status.AsError())
			case status.IsSuccess():
				feasible = append(feasible, n)
			default:
				diagnosis.NodeToStatus.Set(n.Node().Name, status)
			}
		}
	}

	d := &Decision{Rejected: map[string]Verdict{}}
	for _, n := range feasible {
		d.Feasible = append(d.Feasible, n.Node().Name)
	}
	feasibleSet := sets.New(d.Feasible...)
	for _, n := range allNodes {
		if name := n.Node().Name; !feasibleSet.Has(name) {
			st := diagnosis.NodeToStatus.Get(name)
			d.Rejected[name] = Verdict{Code: st.Code().String(), Plugin: st.Plugin(), Reasons: st.Reasons()}
		}
	}
	switch len(feasible) {
	case 0:
		// schedule_one.go runs PostFilter on the Filter statuses, then
		// prints the FitError with its message.
		if err := preemptUpstream(ctx, pl, fw, state, pod, diagnosis.NodeToStatus, d); err != nil {
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

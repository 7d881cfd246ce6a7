package plugin

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	policy "k8s.io/api/policy/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
)

// preemptionPrefix starts the PostFilter part of the engine's message, as
// DefaultPreemption prefixes its status.
const preemptionPrefix = " preemption: "

// preemptor acts on the engine's preemption verdict with upstream's own
// code. The engine runs DefaultPreemption's PostFilter inside its cycle and
// returns the nominated node and its victims (docs/api.md); upstream's
// DefaultPreemption, built here, keeps its eligibility check, metrics,
// PreEnqueue gate (asynchronous preemption) and Executor (DisruptionTarget
// condition, victim deletion through the API, lower-priority nominations
// on the node cleared), while its Evaluator's dry run is answered by the
// engine (engineVictims), so upstream's loop does not re-run Filter per
// node. Why not upstream's dry run: it removes victims from a cloned
// NodeInfo and re-runs Filter, which the engine's per-cycle answer cannot
// follow (LibSched has no PreFilterExtensions).
type preemptor struct {
	dp *defaultpreemption.DefaultPreemption
}

func newPreemptor(ctx context.Context, h fwk.Handle) (*preemptor, error) {
	args := &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	dp, err := defaultpreemption.New(ctx, args, h, fts)
	if err != nil {
		return nil, err
	}
	dp.Evaluator = preemption.NewEvaluator(Name, h, &engineVictims{DefaultPreemption: dp}, dp.Executor)
	return &preemptor{dp: dp}, nil
}

// engineVictims is DefaultPreemption's preemption.Interface with the dry
// run replaced by the engine's verdict, read from the cycle state.
type engineVictims struct {
	*defaultpreemption.DefaultPreemption
}

// GetOffsetAndNumCandidates: the engine already chose one node; the dry
// run over all nodes stops at the first (and only) candidate.
func (*engineVictims) GetOffsetAndNumCandidates(int32) (int32, int32) { return 0, 1 }

// SelectVictimsOnNode returns the engine's victims on its nominated node,
// looked up in the snapshot's NodeInfo; any other node has none. PDB
// violations are not counted: with one candidate, pickOneNodeForPreemption
// does not compare them (the engine's choice already respected PDBs).
func (*engineVictims) SelectVictimsOnNode(_ context.Context, state fwk.CycleState, _ *v1.Pod,
	nodeInfo fwk.NodeInfo, _ []*policy.PodDisruptionBudget) ([]*v1.Pod, int, *fwk.Status) {
	s, err := readState(state)
	if err != nil {
		return nil, 0, fwk.AsStatus(err)
	}
	if nodeInfo.Node().Name != s.nominated {
		return nil, 0, fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "No preemption victims found for incoming pod")
	}
	byUID := make(map[string]*v1.Pod, len(nodeInfo.GetPods()))
	for _, pi := range nodeInfo.GetPods() {
		byUID[string(pi.GetPod().UID)] = pi.GetPod()
	}
	victims := make([]*v1.Pod, 0, len(s.victims))
	for _, v := range s.victims {
		p, ok := byUID[v.UID]
		if !ok { // PreFilter checked the same snapshot (victimsInSnapshot)
			return nil, 0, fwk.AsStatus(fmt.Errorf("victim %s/%s is not on node %s", v.Namespace, v.Name, s.nominated))
		}
		victims = append(victims, p)
	}
	return victims, 0, nil
}

// victimsInSnapshot checks that the engine's victims are on its nominated
// node in the cycle's snapshot. The engine and the snapshot follow the
// informers through separate handlers, so a victim may be gone from one
// and not yet from the other. PreFilter then fails with an Error, which
// sends the pod to the backoff queue: an Unschedulable verdict (or a
// PostFilter error, which upstream folds into the FitError) would wait for
// a deletion event already past.
func victimsInSnapshot(s *cycleState, nodes []fwk.NodeInfo) error {
	if s.nominated == "" {
		return nil
	}
	for _, ni := range nodes {
		if ni.Node() == nil || ni.Node().Name != s.nominated {
			continue
		}
		uids := make(map[string]bool, len(ni.GetPods()))
		for _, pi := range ni.GetPods() {
			uids[string(pi.GetPod().UID)] = true
		}
		for _, v := range s.victims {
			if !uids[v.UID] {
				return fmt.Errorf("LibSched: victim %s/%s of the engine is not on node %s in the scheduler's snapshot: retrying", v.Namespace, v.Name, s.nominated)
			}
		}
		return nil
	}
	return fmt.Errorf("LibSched: the engine's nominated node %s is not in the scheduler's snapshot: retrying", s.nominated)
}

// PostFilter acts on the engine's preemption verdict. With a nominated
// node, upstream's Evaluator (DefaultPreemption's PostFilter) evicts the
// victims and nominates the pod. Without one, the engine's own PostFilter
// reasons are the answer (DynamicResources' "no new claims to
// deallocate", then "preemption: ..."), and a former nomination is
// cleared as upstream does when preemption cannot help. In ModePlugin the
// framework runs upstream's DynamicResources, whose PostFilter gives its
// reason itself: only preemption's is LibSched's to add (twice, the
// FailedScheduling message differed from upstream's).
func (pl *LibSched) PostFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	s, err := readState(state)
	if err != nil {
		return nil, fwk.AsStatus(err)
	}
	if s.nominated != "" {
		res, st := pl.preemptor.dp.PostFilter(ctx, state, pod, m)
		pl.nominate(ctx, pod, res)
		return res, st
	}
	before, msg, found := strings.Cut(s.message, preemptionPrefix)
	if !found {
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	klog.FromContext(ctx).V(5).Info("LibSched: no preemption", "pod", klog.KObj(pod), "reason", msg)
	var reasons []string
	if pl.args.Mode != ModePlugin {
		reasons = dynamicResourcesReasons(before)
	}
	reasons = append(reasons, "preemption: "+msg)
	// Upstream keeps the nomination when the pod is not eligible
	// (a nil result) and clears it when no candidate was found.
	if strings.HasPrefix(msg, "not eligible") {
		return nil, fwk.NewStatus(fwk.Unschedulable, reasons...)
	}
	res := framework.NewPostFilterResultWithNominatedNode("")
	pl.nominate(ctx, pod, res)
	return res, fwk.NewStatus(fwk.Unschedulable, reasons...)
}

// nominate gives the engine the pod's new nomination at once, as
// handleSchedulingFailure (pkg/scheduler/schedule_one.go) gives it to the
// scheduler's in-memory nominator before patching status.nominatedNodeName.
// Waiting for the patch to come back through the informer left a window in
// which the next preemptor, not counting this nomination, chose the same
// node and victims already being deleted, then waited for deletion events
// that had passed (scheduler_perf's PreemptionBasic at 1,000 nodes).
func (pl *LibSched) nominate(ctx context.Context, pod *v1.Pod, res *fwk.PostFilterResult) {
	if res == nil || res.Mode() != fwk.ModeOverride || res.NominatedNodeName == pod.Status.NominatedNodeName {
		return
	}
	if err := pl.feed.nominate(pod, res.NominatedNodeName); err != nil {
		klog.FromContext(ctx).Error(err, "LibSched: nomination not applied", "pod", klog.KObj(pod), "node", res.NominatedNodeName)
	}
}

// dynamicResourcesReasons is the reason DynamicResources' PostFilter gave
// before preemption's in the engine's message (its FitError up to
// preemptionPrefix: "0/N nodes are available: <reasons>. <reason>,"), so
// that the scheduler's FitError carries it as upstream's does; none when
// the profile has no DynamicResources. Its reasons hold no ". ".
func dynamicResourcesReasons(before string) []string {
	i := strings.LastIndex(before, ". ")
	if i < 0 || !strings.HasSuffix(before, ",") {
		return nil
	}
	return []string{strings.TrimSuffix(before[i+2:], ",")}
}

// PreEnqueue is DefaultPreemption's: with asynchronous preemption, a pod
// whose victims are still being deleted waits outside the active queue.
func (pl *LibSched) PreEnqueue(ctx context.Context, pod *v1.Pod) *fwk.Status {
	return pl.preemptor.dp.PreEnqueue(ctx, pod)
}

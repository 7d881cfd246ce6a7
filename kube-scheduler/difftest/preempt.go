package difftest

import (
	"context"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
)

// selectRuns is how often SelectCandidate runs to collect upstream's tie
// set: pickOneNodeForPreemption breaks the last tie by map order, so with
// at most 8 tied nodes 200 runs miss one with probability below 1e-11.
const selectRuns = 200

// newPreemption builds upstream's DefaultPreemption with its default args
// (minCandidateNodesAbsolute 100: every candidate of a harness cluster is
// dry-run) and the features of v1.36.3's default gates (as the in-tree
// registry builds it) on fh; call it before the informer factory starts, as it
// registers the PodDisruptionBudget informer.
func newPreemption(ctx context.Context, fh fwk.Handle) (*defaultpreemption.DefaultPreemption, error) {
	args := &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}
	return defaultpreemption.New(ctx, args, fh, feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
}

// preemptUpstream does what DefaultPreemption's PostFilter (Evaluator.Preempt)
// does, without its step 0 (re-reading the pod from the API) and step 5
// (actuation: deleting victims through the clientset): eligibility,
// dry-run on every node Filter found Unschedulable, and the candidate
// choice. It fills d.PostFilterMsg, d.Nominated (every node
// pickOneNodeForPreemption may pick) and d.Victims (each such node's
// victims).
func preemptUpstream(ctx context.Context, pl *defaultpreemption.DefaultPreemption, fh fwk.Handle,
	state fwk.CycleState, pod *v1.Pod, m *framework.NodeToStatus, d *Decision) error {
	if ok, msg := pl.PodEligibleToPreemptOthers(ctx, pod, m.Get(pod.Status.NominatedNodeName)); !ok {
		d.PostFilterMsg = "preemption: " + msg
		return nil
	}
	allNodes, err := fh.SnapshotSharedLister().NodeInfos().List()
	if err != nil {
		return err
	}
	potential, err := m.NodesForStatusCode(fh.SnapshotSharedLister().NodeInfos(), fwk.Unschedulable)
	if err != nil {
		return err
	}
	var candidates []preemption.Candidate
	statuses := framework.NewDefaultNodeToStatus()
	if len(potential) > 0 {
		pdbs, err := pl.Evaluator.PdbLister.List(labels.Everything())
		if err != nil {
			return err
		}
		offset, num := pl.GetOffsetAndNumCandidates(int32(len(potential)))
		d.NominatedAny = int(num) < len(potential)
		candidates, statuses, err = pl.Evaluator.DryRunPreemption(ctx, state, pod, potential, pdbs, offset, num)
		if err != nil && len(candidates) == 0 {
			// Preempt returns the error as its status; PostFilter prefixes
			// it, and RunPostFilterPlugins ends with it alone.
			d.PostFilterMsg, d.postFilterError = "preemption: "+err.Error(), true
			return nil
		}
	}
	if len(candidates) == 0 {
		fitError := &framework.FitError{Pod: pod, NumAllNodes: len(allNodes),
			Diagnosis: framework.Diagnosis{NodeToStatus: statuses}}
		fitError.Diagnosis.NodeToStatus.SetAbsentNodesStatus(
			fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"))
		d.PostFilterMsg = "preemption: " + fitError.Error()
		return nil
	}
	d.Victims = map[string][]string{}
	for range selectRuns {
		c := pl.Evaluator.SelectCandidate(ctx, candidates)
		if _, seen := d.Victims[c.Name()]; seen {
			continue
		}
		d.Nominated = append(d.Nominated, c.Name())
		d.Victims[c.Name()] = podKeys(c.Victims().Pods)
	}
	sort.Strings(d.Nominated)
	return nil
}

// podKeys returns the pods' namespace/name, sorted: victims of equal
// priority may come in either order (docs/upstream-differences.md).
func podKeys(pods []*v1.Pod) []string {
	keys := make([]string, 0, len(pods))
	for _, p := range pods {
		keys = append(keys, p.Namespace+"/"+p.Name)
	}
	sort.Strings(keys)
	return keys
}

// normalizePreemptionError accepts the engine's message when upstream's
// dry run hit Filter Errors (a DRA claim constraint that All mode cannot
// satisfy) and both aggregate the same errors in another order: upstream
// checks the nodes from a random offset (GetOffsetAndNumCandidates), the
// engine from its own, so utilerrors.NewAggregate lists them in another
// order. It reports whether upstream's dry run had errors.
func normalizePreemptionError(up, eng *Decision) bool {
	if !up.postFilterError {
		return false
	}
	if sortedAggregate(up.Message) == sortedAggregate(eng.Message) {
		eng.Message = up.Message
	}
	return true
}

// sortedAggregate is message with the errors of its " preemption: [a, b]"
// aggregate sorted. The errors are RunFilterPlugins' wrapped ones, so each
// starts with `running "`.
func sortedAggregate(message string) string {
	head, agg, found := strings.Cut(message, " preemption: [")
	if !found || !strings.HasSuffix(agg, "]") {
		return message
	}
	const sep = `, running "`
	errs := strings.Split(strings.TrimSuffix(agg, "]"), sep)
	for i := 1; i < len(errs); i++ {
		errs[i] = `running "` + errs[i]
	}
	sort.Strings(errs)
	return head + " preemption: [" + strings.Join(errs, sep[:2]) + "]"
}

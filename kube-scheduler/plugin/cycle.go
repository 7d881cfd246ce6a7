package plugin

import (
	"context"
	"encoding/json"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/libsched/libsched/go/sched"
)

const (
	stateKey fwk.StateKey = Name
	// scoresKey holds PreScore's totals (ModePlugin).
	scoresKey fwk.StateKey = Name + "/scores"
	// engineProfile is the engine's only profile; pods are sent under its
	// name whatever profile of the scheduler runs them.
	engineProfile = v1.DefaultSchedulerName
	// ErrReasonNotSelected is the Filter reason for a node the engine did
	// not choose (ModeAlgorithm) or has not seen yet (an informer event
	// still on its way).
	ErrReasonNotSelected = "node(s) were not selected by libsched"
)

// cycleState is the engine's answer for one pod, written by PreFilter and
// read-only afterwards.
type cycleState struct {
	// node is the engine's choice, "" when none fits.
	node string
	// rejected maps each rejected node to its framework status; every
	// other node of the snapshot is feasible (catchUp made the engine hold
	// them all, and the node counts agree).
	rejected map[string]*fwk.Status
	// nominated and victims are the engine's preemption verdict when the
	// pod fits nowhere but would fit on nominated once victims are gone.
	nominated string
	victims   []sched.Victim
	// message is the engine's FitError, with its PostFilter part
	// (" preemption: ...") when preemption found no node.
	message string
	// pod is the pod as sent to the engine (encodePod), for PreScore.
	pod []byte
}

// Clone returns s: it is never modified after PreFilter.
func (s *cycleState) Clone() fwk.StateData { return s }

// PreFilter brings the engine up to the scheduler's snapshot (catchUp) and
// its clock to the wall time (engineClock), runs one engine cycle for the
// pod over all nodes and stores the answer. In ModeAlgorithm a chosen node
// is returned as the PreFilterResult, so upstream filters that node only.
// In ModePlugin the answer is the rejected nodes only: Score's totals come
// from PreScore, for the nodes upstream's framework kept.
func (pl *LibSched) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	if st := pl.waitForSync(ctx); st != nil {
		return nil, st
	}
	if err := pl.feed.view.catchUp(ctx, nodes); err != nil {
		return nil, fwk.AsStatus(err) // retried from backoff, as below
	}
	doc, err := encodePod(pod, pl.args.Mode)
	if err != nil {
		return nil, fwk.AsStatus(err)
	}
	// ModeAlgorithm filters only the chosen node, so the rejected nodes'
	// statuses matter only when there is none (the FitError); ModePlugin
	// answers Filter for every node. Grouped by verdict: a pod rejected by
	// thousands of nodes has a few groups to decode, not thousands of
	// objects. No scores: upstream scores only the nodes it samples
	// (PreScore).
	flags := []sched.ScheduleFlag{sched.NodeStatusesIfNoNode, sched.NodeStatusGroups}
	if pl.args.Mode == ModePlugin {
		flags = []sched.ScheduleFlag{sched.NodeStatuses, sched.NodeStatusGroups}
	}
	// The engine judges time (DynamicResources' binding timeout) on its
	// clock: the scheduler's wall time, as upstream's time.Now().
	if err := pl.clock.advance(pl.engine); err != nil {
		return nil, fwk.AsStatus(err)
	}
	res, err := pl.engine.Schedule(ctx, doc, flags...)
	if err != nil {
		return nil, fwk.AsStatus(err)
	}
	if res.Reason == sched.ReasonSchedulerError {
		return nil, fwk.NewStatus(fwk.Error, res.Message)
	}
	if res.NumAllNodes != len(nodes) {
		// The engine follows the informers through its own handlers and
		// has not applied a Node event the snapshot has: an Error sends
		// the pod to the backoff queue, where an Unschedulable verdict
		// would wait for an event already past.
		return nil, fwk.AsStatus(fmt.Errorf("LibSched: the engine has %d nodes, the scheduler's snapshot %d: retrying", res.NumAllNodes, len(nodes)))
	}
	s := newCycleState(res)
	s.pod = doc
	if err := victimsInSnapshot(s, nodes); err != nil {
		return nil, fwk.AsStatus(err) // as for a lagging Node event
	}
	state.Write(stateKey, s)
	if pl.args.Mode == ModeAlgorithm && s.node != "" {
		return &fwk.PreFilterResult{NodeNames: sets.New(s.node)}, nil
	}
	return nil, nil
}

// PreFilterExtensions returns nil: the engine's answer does not follow
// pods added or removed during the cycle (nominated pods, preemption's
// dry runs); see README.md, "Limits".
func (pl *LibSched) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// Filter returns the engine's verdict for the node: its status when the
// engine rejected it; success when it is the engine's choice or, in
// ModePlugin, any other node; otherwise ErrReasonNotSelected.
func (pl *LibSched) Filter(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	s, err := readState(state)
	if err != nil {
		return fwk.AsStatus(err)
	}
	name := nodeInfo.Node().Name
	if st, ok := s.rejected[name]; ok {
		return st
	}
	if name == s.node || pl.args.Mode == ModePlugin {
		return nil
	}
	return fwk.NewStatus(fwk.Unschedulable, ErrReasonNotSelected)
}

// Score returns the node's total engine score from PreScore (0 for a node
// the engine did not score); NormalizeScore brings it into
// 0..MaxNodeScore.
func (pl *LibSched) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	d, err := state.Read(scoresKey)
	if err != nil {
		return 0, fwk.AsStatus(err)
	}
	return d.(scoreState)[nodeInfo.Node().Name], nil
}

// ScoreExtensions returns pl: scores need normalizing.
func (pl *LibSched) ScoreExtensions() fwk.ScoreExtensions { return pl }

// NormalizeScore maps the engine's totals (up to 100 x the sum of its
// plugin weights) into 0..MaxNodeScore so that exactly the nodes with the
// top total get MaxNodeScore: selectHost then picks among the engine's
// tie set. Lower scores keep their order (scaled to at most MaxNodeScore-1).
func (pl *LibSched) NormalizeScore(_ context.Context, _ fwk.CycleState, _ *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	normalizeScores(scores)
	return nil
}

func normalizeScores(scores fwk.NodeScoreList) {
	var top int64
	for _, s := range scores {
		top = max(top, s.Score)
	}
	for i := range scores {
		switch {
		case scores[i].Score == top:
			scores[i].Score = fwk.MaxNodeScore
		case scores[i].Score <= 0:
			scores[i].Score = 0
		default: // 0 < score < top
			scores[i].Score = scores[i].Score * (fwk.MaxNodeScore - 1) / top
		}
	}
}

// Reserve assumes the pod on nodeName in the engine, as the scheduler's
// cache does (AssumePod), so the next cycles see the placement before the
// informer reports the binding; the informer's event for the bound pod then
// replaces the assumed copy.
func (pl *LibSched) Reserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	if err := pl.applyPod(eventAdded, pod, nodeName); err != nil {
		return fwk.AsStatus(err)
	}
	return nil
}

// Unreserve forgets the assumed pod (cache.ForgetPod).
func (pl *LibSched) Unreserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, nodeName string) {
	if err := pl.applyPod(eventDeleted, pod, nodeName); err != nil {
		pl.feed.logger.Error(err, "LibSched: forgetting an assumed pod", "pod", pod.Namespace+"/"+pod.Name)
	}
}

// applyPod sends the pod, placed on nodeName, as one event.
func (pl *LibSched) applyPod(eventType string, pod *v1.Pod, nodeName string) error {
	p := *pod // shallow: only top-level fields of the copy change
	p.Spec.NodeName = nodeName
	return pl.feed.sendAs(eventType, &p, eventType == eventAdded)
}

// encodePod is the pod as the engine's Schedule takes it: apiVersion and
// kind set, under the engine's profile. In ModePlugin nominatedNodeName is
// dropped: upstream evaluates the nominated node itself and asks Filter
// about it, so the engine must answer for every node. Also in ModePlugin,
// resource claims are dropped: upstream's DynamicResources, which the
// profile keeps, judges them (and allocates through the API), and the
// engine judges the rest. ModeAlgorithm sends them, so the engine's
// DynamicResources (docs/dra.md) judges them with the claims, classes and
// slices the informers feed it.
func encodePod(pod *v1.Pod, mode Mode) ([]byte, error) {
	p := *pod // shallow: only fields replaced on the copy change
	p.APIVersion, p.Kind = "v1", "Pod"
	p.Spec.SchedulerName = engineProfile
	if mode == ModePlugin {
		p.Status.NominatedNodeName = ""
		if len(p.Spec.ResourceClaims) > 0 {
			p.Spec.ResourceClaims = nil
			p.Spec.Containers = withoutClaims(p.Spec.Containers)
			p.Spec.InitContainers = withoutClaims(p.Spec.InitContainers)
		}
	}
	return json.Marshal(&p)
}

// withoutClaims copies containers with resources.claims removed.
func withoutClaims(containers []v1.Container) []v1.Container {
	out := make([]v1.Container, len(containers))
	for i, c := range containers {
		c.Resources.Claims = nil
		out[i] = c
	}
	return out
}

func newCycleState(res *sched.Result) *cycleState {
	rejected := 0
	for _, g := range res.NodeStatusGroups {
		rejected += len(g.Nodes)
	}
	s := &cycleState{node: res.Node, rejected: make(map[string]*fwk.Status, rejected),
		nominated: res.NominatedNodeName, victims: res.Victims, message: res.Message}
	for _, g := range res.NodeStatusGroups {
		// A status per node: the framework's Filter loop sets the plugin
		// name on each status it gets, from parallel goroutines.
		for _, node := range g.Nodes {
			s.rejected[node] = statusFrom(g.Code, g.Reasons)
		}
	}
	return s
}

// statusFrom maps an engine node status to the framework's, with the same
// code and reasons, so upstream's FitError counts the same reasons.
func statusFrom(engineCode string, reasons []string) *fwk.Status {
	code := fwk.Unschedulable
	switch engineCode {
	case "UnschedulableAndUnresolvable":
		code = fwk.UnschedulableAndUnresolvable
	case "Error":
		code = fwk.Error
	}
	return fwk.NewStatus(code, reasons...)
}

func readState(state fwk.CycleState) (*cycleState, error) {
	d, err := state.Read(stateKey)
	if err != nil {
		return nil, err
	}
	return d.(*cycleState), nil
}

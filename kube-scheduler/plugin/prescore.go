package plugin

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

// scoreState is PreScore's answer: each node upstream scores with its
// total engine score.
type scoreState map[string]int64

// Clone returns s: it is never modified after PreScore.
func (s scoreState) Clone() fwk.StateData { return s }

// PreScore (ModePlugin) asks the engine for the totals of the nodes
// upstream's framework is about to score, those it sampled and found
// feasible (numFeasibleNodesToFind of them: 500 of 5,000 nodes at the
// adaptive percentageOfNodesToScore), not of every feasible node
// (Engine.Score, sched_engine_score): the engine's plugins that normalize
// per cycle (TaintToleration, NodeAffinity, InterPodAffinity) normalize
// over the nodes upstream's own would, and only those nodes' totals cross
// the ABI. The totals are written for Score. ModeAlgorithm returns Skip:
// its Filter passes one node at most, which upstream does not score.
func (pl *LibSched) PreScore(ctx context.Context, state fwk.CycleState, _ *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	if pl.args.Mode != ModePlugin {
		return fwk.NewStatus(fwk.Skip)
	}
	s, err := readState(state)
	if err != nil {
		return fwk.AsStatus(err)
	}
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Node().Name
	}
	res, err := pl.engine.Score(ctx, s.pod, names)
	if err != nil {
		return fwk.AsStatus(err) // a node the engine lost since PreFilter: retried from backoff
	}
	if res.Error {
		return fwk.NewStatus(fwk.Error, res.Message)
	}
	if len(res.TotalScores) != len(names) {
		return fwk.AsStatus(fmt.Errorf("LibSched: the engine scored %d nodes of %d", len(res.TotalScores), len(names)))
	}
	scores := make(scoreState, len(names))
	for i, name := range names {
		scores[name] = res.TotalScores[i]
	}
	state.Write(scoresKey, scores)
	return nil
}

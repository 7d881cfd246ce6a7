package difftest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/libsched/libsched/go/sched"
)

// engineConfig makes the engine evaluate every node, as the upstream side
// does (percentageOfNodesToScore 100), with the case's pluginConfig.
func engineConfig(pluginConfig []byte) []byte {
	if pluginConfig == nil {
		return []byte(`{"percentageOfNodesToScore":100}`)
	}
	return []byte(`{"percentageOfNodesToScore":100,"profiles":[{"pluginConfig":` + string(pluginConfig) + `}]}`)
}

// decideEngine runs one cycle of c.Pod in a fresh libsched engine fed with
// c's objects as JSON (the List and the pod of Case.JSON).
func decideEngine(ctx context.Context, c *Case) (*Decision, error) {
	e, err := sched.New(engineConfig(c.PluginConfig))
	if err != nil {
		return nil, err
	}
	defer e.Close()
	cluster, pod, err := c.JSON()
	if err != nil {
		return nil, err
	}
	if _, err := e.Apply(cluster); err != nil {
		return nil, fmt.Errorf("Apply: %w", err)
	}
	if err := toWallTime(e); err != nil {
		return nil, err
	}
	res, err := e.Schedule(ctx, pod, sched.NodeStatuses, sched.Scores)
	if err != nil {
		return nil, fmt.Errorf("Schedule: %w", err)
	}
	names := make([]string, 0, len(c.Nodes))
	for _, n := range c.Nodes {
		names = append(names, n.Name)
	}
	return engineDecision(res, names)
}

// toWallTime moves a fresh engine's clock (0) to the wall time read as
// Unix time, as the fork does before each cycle (plugin/clock.go):
// DynamicResources' binding timeout compares claims' allocationTimestamp
// with it, where upstream's reads time.Now().
func toWallTime(e *sched.Engine) error {
	if err := e.AdvanceClock(time.Duration(time.Now().UnixMilli()) * time.Millisecond); err != nil {
		return fmt.Errorf("AdvanceClock: %w", err)
	}
	return nil
}

// engineDecision reads the engine's result of a cycle over the nodes
// named (scheduled with NodeStatuses and Scores) as a Decision.
func engineDecision(res *sched.Result, nodes []string) (*Decision, error) {
	if res.Reason == sched.ReasonSchedulerError {
		return &Decision{Error: res.Message}, nil
	}

	d := &Decision{Rejected: map[string]Verdict{}}
	for _, ns := range res.NodeStatuses {
		d.Rejected[ns.Node] = Verdict{Code: ns.Code, Plugin: ns.Plugin, Reasons: ns.Reasons}
	}
	switch {
	case res.Scores != nil && len(res.Scores.Nodes) > 0:
		for _, row := range res.Scores.Nodes {
			d.Feasible = append(d.Feasible, row.Node)
		}
	case res.Node != "":
		d.Feasible = []string{res.Node}
	}
	sort.Strings(d.Feasible)
	if len(d.Feasible) != res.FeasibleNodes {
		return nil, fmt.Errorf("engine reports %d feasible nodes but scored %v", res.FeasibleNodes, d.Feasible)
	}
	// A scheduled pod's result lists only the nodes Filter rejected, not
	// those a PreFilterResult left out or the walk did not reach
	// (docs/api.md): those are unlisted.
	for _, n := range nodes {
		_, rejected := d.Rejected[n]
		if !rejected && !slices.Contains(d.Feasible, n) {
			if res.Node == "" {
				return nil, fmt.Errorf("engine neither rejects nor scores node %s", n)
			}
			d.Unlisted = append(d.Unlisted, n)
		}
	}
	sort.Strings(d.Unlisted)
	if res.Reason == sched.ReasonUnschedulable {
		d.Message = res.Message
	}
	if res.NominatedNodeName != "" {
		d.Nominated = []string{res.NominatedNodeName}
		victims := make([]string, 0, len(res.Victims))
		for _, v := range res.Victims {
			victims = append(victims, v.Namespace+"/"+v.Name)
		}
		sort.Strings(victims)
		d.Victims = map[string][]string{res.NominatedNodeName: victims}
	}
	switch {
	case len(d.Feasible) == 1:
		d.Top = d.Feasible
	case res.Scores != nil && len(res.Scores.Nodes) > 0:
		d.Scores = map[string]map[string]int64{}
		for _, row := range res.Scores.Nodes {
			byPlugin := map[string]int64{}
			for i, p := range res.Scores.Plugins {
				byPlugin[p] = row.Scores[i]
			}
			d.Scores[row.Node] = byPlugin
		}
		d.Top = topNodes(d.Scores)
	}
	return d, nil
}

// listJSON encodes objects as a v1 List, the shape `kubectl get -o json`
// prints and sched_engine_apply accepts.
func listJSON(items []any) ([]byte, error) {
	return json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
}

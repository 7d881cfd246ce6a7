package sched

// #include <sched/sched.h>
import "C"

// ScheduleFlag selects optional behaviour of Engine.Schedule. The values are
// the SCHED_SCHEDULE_* flags of sched.h; pass several to combine them.
type ScheduleFlag uint32

const (
	// Assume adds the pod to the chosen node before Schedule returns
	// (upstream's cache.AssumePod), so the next call sees it there. A later
	// event for the same namespace/name replaces it.
	Assume ScheduleFlag = C.SCHED_SCHEDULE_ASSUME
	// NodeStatuses fills Result.NodeStatuses: every rejected node with its
	// plugin and reasons.
	NodeStatuses ScheduleFlag = C.SCHED_SCHEDULE_NODE_STATUSES
	// NodeStatusesIfNoNode fills Result.NodeStatuses only when no node was
	// chosen: what upstream's FitError needs, without listing the rejected
	// nodes of a pod that was placed. NodeStatuses, if also given, wins.
	NodeStatusesIfNoNode ScheduleFlag = C.SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE
	// NodeStatusGroups, with NodeStatuses or NodeStatusesIfNoNode, fills
	// Result.NodeStatusGroups instead of Result.NodeStatuses: the same
	// verdicts grouped by code, plugin and reasons, a few groups instead of
	// one entry per rejected node, so a pod that fits nowhere on a large
	// cluster decodes in a fraction of the time.
	NodeStatusGroups ScheduleFlag = C.SCHED_SCHEDULE_NODE_STATUS_GROUPS
	// Scores fills Result.Scores: per-plugin weighted scores of every
	// feasible node.
	Scores ScheduleFlag = C.SCHED_SCHEDULE_SCORES
	// ScoreTotals fills Result.ScoreTotals: every scored node's total
	// score, grouped by total (equal totals are common), without the
	// per-plugin rows of Scores, so an answer for every node of a large
	// cluster (what a plugin-mode kube-scheduler fork needs for Score)
	// decodes in a fraction of the time.
	ScoreTotals ScheduleFlag = C.SCHED_SCHEDULE_SCORE_TOTALS
)

// Reason is the outcome of a scheduling cycle, as kube-scheduler writes it
// in the pod's PodScheduled condition.
type Reason string

// The reasons a Result can carry.
const (
	// ReasonScheduled: a node was chosen (Result.Node).
	ReasonScheduled Reason = "Scheduled"
	// ReasonUnschedulable: no node fits; Result.Message is upstream's
	// FitError message ("0/3 nodes are available: ...").
	ReasonUnschedulable Reason = "Unschedulable"
	// ReasonSchedulerError: a plugin failed; Result.Message says why.
	ReasonSchedulerError Reason = "SchedulerError"
)

// Result is the outcome of Engine.Schedule: the "Schedule result" document
// of docs/api.md, decoded. It mirrors upstream's ScheduleResult and
// FitError (pkg/scheduler/schedule_one.go, framework/types.go).
type Result struct {
	// Pod is the pod's "namespace/name".
	Pod string `json:"pod"`
	// Node is the chosen node, "" when the pod was not scheduled.
	Node string `json:"node"`
	// Reason says whether the pod was scheduled.
	Reason Reason `json:"reason"`
	// Message explains why the pod was not scheduled; "" when it was.
	Message string `json:"message"`
	// NumAllNodes is the number of nodes in the cluster.
	NumAllNodes int `json:"numAllNodes"`
	// EvaluatedNodes counts the nodes visited, feasible or rejected
	// (ScheduleResult.EvaluatedNodes).
	EvaluatedNodes int `json:"evaluatedNodes"`
	// FeasibleNodes counts the nodes that passed every Filter plugin.
	FeasibleNodes int `json:"feasibleNodes"`
	// Assumed is true when the pod was added to Node (flag Assume).
	Assumed bool `json:"assumed"`
	// NominatedNodeName is set when preemption (DefaultPreemption's
	// PostFilter) found a node that fits once Victims are gone; the engine
	// deletes nothing: the caller evicts the victims and schedules the pod
	// again with status.nominatedNodeName set.
	NominatedNodeName string `json:"nominatedNodeName,omitempty"`
	// Victims are the pods to evict for NominatedNodeName, most important
	// first.
	Victims []Victim `json:"victims,omitempty"`
	// NodeStatuses lists every rejected node; only with flag NodeStatuses
	// (or NodeStatusesIfNoNode when Node is empty).
	NodeStatuses []NodeStatus `json:"nodeStatuses"`
	// NodeStatusGroups lists every rejected node, grouped by verdict; with
	// flag NodeStatusGroups in place of NodeStatuses.
	NodeStatusGroups []NodeStatusGroup `json:"nodeStatusGroups"`
	// Scores holds the feasible nodes' scores; only with flag Scores (and
	// then with no nodes when fewer than two nodes were feasible, as
	// upstream skips scoring).
	Scores *ScoreTable `json:"scores"`
	// ScoreTotals lists every scored node's total score, grouped by total,
	// groups in the order of their first node; only with flag ScoreTotals
	// (empty when fewer than two nodes were feasible).
	ScoreTotals []ScoreTotal `json:"scoreTotals"`
}

// ScoreTotal is one group of Result.ScoreTotals: the nodes whose weighted
// scores sum to TotalScore (ScoreTable's NodeScores.TotalScore).
type ScoreTotal struct {
	TotalScore int64    `json:"totalScore"`
	Nodes      []string `json:"nodes"`
}

// Victim is a pod preemption would evict.
type Victim struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid"`
}

// NodeStatus is why one node was rejected.
type NodeStatus struct {
	// Node is the node's name.
	Node string `json:"node"`
	// Code is the framework status code name: "Unschedulable",
	// "UnschedulableAndUnresolvable", ...
	Code string `json:"code"`
	// Plugin is the first plugin that rejected the node.
	Plugin string `json:"plugin"`
	// Reasons are the plugin's reasons, e.g. "Insufficient cpu".
	Reasons []string `json:"reasons"`
}

// NodeStatusGroup is the nodes rejected with one verdict: groups come in the
// order of their first node in NodeStatuses, and each group's nodes in that
// order too.
type NodeStatusGroup struct {
	// Code, Plugin and Reasons are as in NodeStatus.
	Code    string   `json:"code"`
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons"`
	// Nodes names the nodes rejected this way.
	Nodes []string `json:"nodes"`
}

// ScoreTable holds weighted per-plugin scores (upstream's
// fwk.NodePluginScores).
type ScoreTable struct {
	// Plugins names the Score plugins, in order; plugins whose PreScore
	// returned Skip are absent.
	Plugins []string `json:"plugins"`
	// Nodes holds one row per scored node.
	Nodes []NodeScores `json:"nodes"`
}

// NodeScores is one node's row of a ScoreTable.
type NodeScores struct {
	// Node is the node's name.
	Node string `json:"node"`
	// TotalScore is the sum of Scores.
	TotalScore int64 `json:"totalScore"`
	// Scores are weighted scores, parallel to ScoreTable.Plugins.
	Scores []int64 `json:"scores"`
}

// ApplySummary is what Engine.Apply did (the summary document of
// docs/api.md).
type ApplySummary struct {
	// Applied counts the Node and Pod items applied.
	Applied int `json:"applied"`
	// Ignored counts items of other kinds, by kind.
	Ignored map[string]int `json:"ignored"`
	// PendingPods counts pods without spec.nodeName, which the engine does
	// not keep.
	PendingPods int `json:"pendingPods"`
}

package difftest

import (
	"sort"
	"strings"
)

// Decision is what one scheduling cycle decided, in a form both the engine
// and upstream's framework can fill: the comparable parts of
// schedule_one.go's ScheduleResult and FitError.
type Decision struct {
	// Rejected maps every node that did not pass PreFilter/Filter to its
	// status (upstream's Diagnosis.NodeToStatus, absent nodes included).
	Rejected map[string]Verdict
	// Unlisted names, sorted, the nodes a scheduled pod's cycle shows no
	// status for: left out by a PreFilterResult, or not evaluated because
	// numFeasibleNodesToFind nodes fit before them (the engine's result
	// lists no status for them, as upstream shows a Diagnosis only in a
	// FitError).
	Unlisted []string
	// Feasible lists the nodes that passed every Filter plugin, sorted.
	Feasible []string
	// Scores maps node -> plugin -> weighted score (fwk.NodePluginScores);
	// nil when fewer than two nodes were feasible (schedulePod skips
	// scoring then).
	Scores map[string]map[string]int64
	// Top is the tie set: the feasible nodes with the highest total score,
	// sorted. selectHost picks one of them; which one is not determined.
	Top []string
	// Message is FitError.Error() with the PostFilter message; "" when a
	// node was feasible.
	Message string
	// Error is the text of a plugin's Error that ended the cycle
	// (RunPreFilterPlugins' or RunFilterPlugins' wrapping of it, as
	// schedulePod returns it); the other fields are then empty.
	Error string
	// PostFilterMsg (upstream only) is the PostFilter plugins' message,
	// part of Message.
	PostFilterMsg string
	// postFilterError (upstream only): DefaultPreemption's PostFilter
	// returned an Error, whose message alone is PostFilterMsg.
	postFilterError bool
	// Nominated is the node preemption nominates (engine: at most one;
	// upstream: every node pickOneNodeForPreemption may pick, sorted, as
	// it breaks the last tie by map order).
	Nominated []string
	// NominatedAny (upstream only): preemption dry-ran fewer nodes than
	// could host the pod, from a random offset
	// (GetOffsetAndNumCandidates), so only whether it nominated a node is
	// determined.
	NominatedAny bool
	// Victims maps each node of Nominated to its victims' namespace/name,
	// sorted.
	Victims map[string][]string
}

// Verdict is one rejected node's status.
type Verdict struct {
	Code    string   // fwk.Code name, e.g. "UnschedulableAndUnresolvable"
	Plugin  string   // the plugin that rejected the node ("" when none is recorded)
	Reasons []string // fwk.Status.Reasons(), in order
}

func (v Verdict) String() string {
	return v.Code + " " + v.Plugin + " [" + strings.Join(v.Reasons, "; ") + "]"
}

// topNodes returns the sorted names of the nodes with the highest total.
func topNodes(scores map[string]map[string]int64) []string {
	var top []string
	best := int64(-1 << 63)
	for node, byPlugin := range scores {
		var total int64
		for _, s := range byPlugin {
			total += s
		}
		switch {
		case total > best:
			best, top = total, []string{node}
		case total == best:
			top = append(top, node)
		}
	}
	sort.Strings(top)
	return top
}

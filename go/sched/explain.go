package sched

// #include <sched/sched.h>
import "C"

import "context"

// Explanation says where a pending pod would fit and why not elsewhere,
// node by node and plugin by plugin (sched_engine_explain; docs/api.md,
// "Explain").
type Explanation struct {
	Pod string `json:"pod"`
	// Error is true when the pod could not be evaluated (no nodes, a
	// plugin's Error status); Message says why.
	Error bool `json:"error"`
	// Message is upstream's FitError text ("0/N nodes are available: ...")
	// when no node fits, else "K/N nodes are feasible.".
	Message string `json:"message"`
	// Summary is Message and the nearest misses in at most 1,024 bytes:
	// what fits a Kubernetes Event's message.
	Summary       string `json:"summary"`
	NumAllNodes   int64  `json:"numAllNodes"`
	FeasibleNodes int64  `json:"feasibleNodes"`
	// PreFilter is set when a PreFilter plugin rejected the pod.
	PreFilter *Verdict `json:"preFilter,omitempty"`
	// Reasons is the FitError histogram: each reason with its node count,
	// most nodes first.
	Reasons []ReasonCount `json:"reasons"`
	// NearestMisses groups the nodes that one Filter plugin alone rejects,
	// most nodes first.
	NearestMisses []NearMiss    `json:"nearestMisses"`
	ScorePlugins  []ScoreWeight `json:"scorePlugins"`
	// Nodes holds every node, in the engine's node-list order.
	Nodes []NodeExplanation `json:"nodes"`
}

// Verdict is one plugin's (or the cycle's) outcome on a node: Code is a
// framework status code name ("Success", "Unschedulable",
// "UnschedulableAndUnresolvable", ...).
type Verdict struct {
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons"`
}

// ReasonCount is a FitError histogram entry.
type ReasonCount struct {
	Reason string `json:"reason"`
	Nodes  int64  `json:"nodes"`
}

// NearMiss is a group of nodes one plugin alone rejects for the same
// reasons. Shortfalls (NodeResourcesFit) hold the smallest lack per
// resource; Taint (TaintToleration) the untolerated taint, key=value:Effect.
type NearMiss struct {
	Plugin      string      `json:"plugin"`
	Reasons     []string    `json:"reasons"`
	Taint       string      `json:"taint,omitempty"`
	Shortfalls  []Shortfall `json:"shortfalls,omitempty"`
	Nodes       int64       `json:"nodes"`
	ExampleNode string      `json:"exampleNode"`
	// Text says it for people: "needs 300m more cpu on 12 nodes".
	Text string `json:"text"`
}

// Shortfall is how much of a resource a node lacks: Amount in milli-CPU
// for cpu, bytes for memory and ephemeral-storage, counts otherwise;
// Quantity in Kubernetes notation ("300m", "1Gi").
type Shortfall struct {
	Resource string `json:"resource"`
	Amount   int64  `json:"amount"`
	Quantity string `json:"quantity"`
}

// ScoreWeight is a Score plugin that ran and its weight.
type ScoreWeight struct {
	Name   string `json:"name"`
	Weight int64  `json:"weight"`
}

// NodeExplanation is one node: the cycle's verdict (embedded), each Filter
// plugin's own, and for a feasible node the scores per ScorePlugins entry.
type NodeExplanation struct {
	Node     string `json:"node"`
	Feasible bool   `json:"feasible"`
	Verdict
	Filters    []Verdict     `json:"filters"`
	Scores     []PluginScore `json:"scores"`
	TotalScore int64         `json:"totalScore"`
}

// PluginScore is one Score plugin on one node: Score's value, after
// NormalizeScore, and times the plugin's weight.
type PluginScore struct {
	Raw        int64 `json:"raw"`
	Normalized int64 `json:"normalized"`
	Weighted   int64 `json:"weighted"`
}

// Explain evaluates a pending core/v1 Pod (JSON) against every node and
// says why it fits where it does and nowhere else (sched_engine_explain).
// It changes nothing in the engine. A bad pod is an error with the field's
// path, as for Schedule.
func (e *Engine) Explain(ctx context.Context, pod []byte) (*Explanation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return decoded[Explanation](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_explain(ce, cBytes(pod), C.size_t(len(pod)), out, cerr)
	})
}

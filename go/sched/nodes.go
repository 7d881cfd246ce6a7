package sched

// #include <sched/sched.h>
import "C"

import "encoding/json"

// NodeQuery selects the nodes Nodes reports (docs/api.md, "Nodes"); the
// zero value selects every node. Both fields given: both must hold.
type NodeQuery struct {
	// Names keeps only these nodes; names that are no node are skipped.
	Names []string `json:"names,omitempty"`
	// LabelSelector keeps only the nodes whose labels it matches, as
	// metav1.LabelSelectorAsSelector converts it.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
}

// LabelSelector is a metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is a metav1.LabelSelectorRequirement; Operator
// is In, NotIn, Exists or DoesNotExist.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// NodeState is one node as the engine schedules against it: framework.NodeInfo's
// aggregates (pkg/scheduler/framework/types.go).
type NodeState struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels"`
	// Allocatable is status.allocatable.
	Allocatable Resource `json:"allocatable"`
	// Requested is NodeInfo.Requested: the requests of the pods bound or
	// assumed on the node, each as the scheduler counts it (init
	// containers, sidecars, overhead); AllowedPodNumber is 0.
	Requested Resource `json:"requested"`
	// NonZeroRequested is NodeInfo.NonZeroRequested (100m CPU and 200Mi of
	// memory for containers requesting none); only MilliCPU and Memory.
	NonZeroRequested Resource `json:"nonZeroRequested"`
	// PodCount counts the pods bound or assumed on the node.
	PodCount int64 `json:"podCount"`
}

// Resource is a framework.Resource: MilliCPU in milli-CPU, Memory and
// EphemeralStorage in bytes, AllowedPodNumber the pods resource,
// ScalarResources the extended, hugepages-* and attachable-volumes-*
// resources by name.
type Resource struct {
	MilliCPU         int64            `json:"milliCPU"`
	Memory           int64            `json:"memory"`
	EphemeralStorage int64            `json:"ephemeralStorage"`
	AllowedPodNumber int64            `json:"allowedPodNumber"`
	ScalarResources  map[string]int64 `json:"scalarResources"`
}

// Nodes reports the nodes q selects, sorted by name, with their allocatable
// and requested resources (sched_engine_nodes): what a caller needs for
// utilization without recomputing pod requests. It changes nothing. A bad
// query (an empty name, a selector the API server would refuse) is an error
// with the field's path, e.g. "labelSelector.matchExpressions[0]".
func (e *Engine) Nodes(q NodeQuery) ([]NodeState, error) {
	query, err := json.Marshal(q)
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "node query: " + err.Error()}
	}
	var doc struct {
		Nodes []NodeState `json:"nodes"`
	}
	err = e.call(func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_nodes(ce, cBytes(query), C.size_t(len(query)), out, cerr)
	}, &doc)
	if err != nil {
		return nil, err
	}
	return doc.Nodes, nil
}

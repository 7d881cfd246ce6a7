package sched

// #include <sched/sched.h>
import "C"

import (
	"context"
	"encoding/json"
)

// Drain says whether nodes can be removed and where their pods would go
// (sched_engine_drain; docs/api.md, "Drain").
type Drain struct {
	// Removable is true when every node asked about is.
	Removable bool `json:"removable"`
	// Nodes are the nodes asked about, in the order given.
	Nodes []DrainNode `json:"nodes"`
	// Pods are the pods that move, in scheduling (queue) order.
	Pods []DrainPod `json:"pods"`
	// Left are the pods that do not move: DaemonSet and mirror pods.
	Left []DrainLeft `json:"left"`
}

// DrainNode is the verdict on one node.
type DrainNode struct {
	Node string `json:"node"`
	// Removable: no eviction blocked and every moving pod found a node.
	Removable bool `json:"removable"`
	// Moved counts the pods scheduled again; Pending those that fit
	// nowhere; Blocked those whose eviction a PodDisruptionBudget blocks;
	// Left the DaemonSet and mirror pods.
	Moved   int64 `json:"moved"`
	Pending int64 `json:"pending"`
	Blocked int64 `json:"blocked"`
	Left    int64 `json:"left"`
}

// DrainPod is where one pod of a drained node goes.
type DrainPod struct {
	Pod  string `json:"pod"`
	From string `json:"from"`
	// Node is "" when the pod fits nowhere; Message is then its FitError.
	Node    string `json:"node"`
	Message string `json:"message,omitempty"`
	// BlockingPDB is the "namespace/name" of the PodDisruptionBudget that
	// blocks the pod's eviction, if any.
	BlockingPDB string `json:"blockingPDB,omitempty"`
}

// DrainLeft is a pod that is not scheduled again, and why ("DaemonSet",
// "MirrorPod").
type DrainLeft struct {
	Pod    string `json:"pod"`
	From   string `json:"from"`
	Reason string `json:"reason"`
}

// Drain evicts the pods of nodes (names of nodes the engine has, distinct,
// at least one) and schedules them again on the other nodes in queue
// order, each assumed before the next, then undoes it all: can the nodes
// be removed? DaemonSet pods are evicted without moving, mirror pods left;
// PodDisruptionBudgets block evictions as cluster-autoscaler's scale-down
// does. The engine is left as it was (only the equivalence cache drops its
// entries).
func (e *Engine) Drain(ctx context.Context, nodes []string) (*Drain, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	body, err := json.Marshal(struct {
		Nodes []string `json:"nodes"`
	}{nodes})
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "drain request: " + err.Error()}
	}
	return decoded[Drain](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_drain(ce, cBytes(body), C.size_t(len(body)), out, cerr)
	})
}

// Preempt is the preemption what-if: the Result Schedule would return for
// the pending core/v1 Pod pod (JSON) without flags — Node when it fits
// as is, else NominatedNodeName and the Victims preemption would evict —
// with nothing changed (sched_engine_preempt; only the equivalence cache
// drops its entries).
func (e *Engine) Preempt(ctx context.Context, pod []byte) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	body, err := json.Marshal(struct {
		Pod json.RawMessage `json:"pod"`
	}{pod})
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "preempt request: " + err.Error()}
	}
	return decoded[Result](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_preempt(ce, cBytes(body), C.size_t(len(body)), out, cerr)
	})
}

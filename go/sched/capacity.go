package sched

// #include <sched/sched.h>
import "C"

import (
	"context"
	"encoding/json"
)

// Capacity says how many more replicas of a pod template fit, and where
// (sched_engine_capacity; docs/api.md, "Capacity").
type Capacity struct {
	Pod      string `json:"pod"`
	Replicas int64  `json:"replicas"`
	// Capped is true when maxReplicas fit (the cluster may hold more).
	Capped bool `json:"capped"`
	// Message is the FitError of the first replica that fit nowhere
	// ("" when capped).
	Message string `json:"message"`
	// Nodes counts the replicas per node, sorted by node name.
	Nodes []NodeReplicas `json:"nodes"`
	// Placements is each replica's node, in scheduling order.
	Placements []string `json:"placements"`
}

// NodeReplicas is how many replicas went to one node.
type NodeReplicas struct {
	Node     string `json:"node"`
	Replicas int64  `json:"replicas"`
}

// Capacity schedules copies of the pending core/v1 Pod template pod
// (JSON) one after another, each assumed before the next, as
// kube-scheduler places a ReplicaSet's pods, until one fits nowhere or
// maxReplicas fit (0: the library's bound, 100000), then undoes it all.
// A replica that could fit only by preemption ends the count. The engine
// is left as it was (only the equivalence cache drops its entries).
func (e *Engine) Capacity(ctx context.Context, pod []byte, maxReplicas int) (*Capacity, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req := struct {
		Pod         json.RawMessage `json:"pod"`
		MaxReplicas int             `json:"maxReplicas,omitempty"`
	}{pod, maxReplicas}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "capacity request: " + err.Error()}
	}
	return decoded[Capacity](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_capacity(ce, cBytes(body), C.size_t(len(body)), out, cerr)
	})
}

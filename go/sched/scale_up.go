package sched

// #include <sched/sched.h>
import "C"

import (
	"context"
	"encoding/json"
)

// NodeTemplate is a node group's template node (core/v1 Node JSON) and how
// many new nodes of it the estimate may add (0: the library's default,
// 1000).
type NodeTemplate struct {
	Node     json.RawMessage `json:"node"`
	MaxNodes int             `json:"maxNodes,omitempty"`
}

// ScaleUp is the answer of sched_engine_scale_up (docs/api.md, "Scale-up").
type ScaleUp struct {
	// Existing lists the pods that fit existing nodes, in order.
	Existing []PodPlacement `json:"existing"`
	// Templates holds one estimate per template, in request order.
	Templates []TemplateEstimate `json:"templates"`
	// Unhelped lists the pods on no existing node that no template's
	// fresh node fits, with each template's FitError.
	Unhelped []UnhelpedPod `json:"unhelped"`
}

// PodPlacement is where a pod ("namespace/name") went.
type PodPlacement struct {
	Pod  string `json:"pod"`
	Node string `json:"node"`
}

// TemplateEstimate is cluster-autoscaler's binpacking estimate for one
// template.
type TemplateEstimate struct {
	Template string `json:"template"`
	// Nodes is the estimate: new nodes with pods.
	Nodes int64 `json:"nodes"`
	// NewNodes are the nodes added ("<template>-scaleup-<i>") with their
	// pod counts, in creation order.
	NewNodes []NewNode `json:"newNodes"`
	// Placements are the pods placed on new nodes, in estimate order.
	Placements []PodPlacement `json:"placements"`
	// Pending are the pods the template leaves pending.
	Pending []ScaleUpPending `json:"pending"`
}

// NewNode is one node the estimate added.
type NewNode struct {
	Node string `json:"node"`
	Pods int64  `json:"pods"`
}

// ScaleUpPending is a pod a template does not place: Reason "NoFit" (no
// fresh node of the template fits it), "NewNode" (a fresh node in the
// estimate did not, as zonal spread can) or "MaxNodes" (beyond maxNodes).
// Message is the template node's FitError ("" for MaxNodes).
type ScaleUpPending struct {
	Pod     string `json:"pod"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// UnhelpedPod is a pod no template helps.
type UnhelpedPod struct {
	Pod     string           `json:"pod"`
	Reasons []TemplateReason `json:"reasons"`
}

// TemplateReason is one template's FitError for a pod.
type TemplateReason struct {
	Template string `json:"template"`
	Message  string `json:"message"`
}

// ScaleUp asks how many new nodes of each template make the pending pods
// (core/v1 Pod JSON, in queue order) fit, and where they go:
// cluster-autoscaler's binpacking estimate, each fit decided by the
// engine's Filter plugins against the cluster plus the new nodes. Pods
// that fit existing nodes go there first. The engine is left as it was
// (only the equivalence cache drops its entries).
func (e *Engine) ScaleUp(ctx context.Context, pods []json.RawMessage, templates []NodeTemplate) (*ScaleUp, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if pods == nil {
		pods = []json.RawMessage{}
	}
	if templates == nil {
		templates = []NodeTemplate{}
	}
	req := struct {
		Pods          []json.RawMessage `json:"pods"`
		NodeTemplates []NodeTemplate    `json:"nodeTemplates"`
	}{pods, templates}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "scale-up request: " + err.Error()}
	}
	return decoded[ScaleUp](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_scale_up(ce, cBytes(body), C.size_t(len(body)), out, cerr)
	})
}

package sched

// #include <sched/sched.h>
import "C"

import (
	"context"
	"encoding/json"
)

// ScoreAnswer is the engine's scores of a pod on chosen nodes
// (sched_engine_score; docs/api.md, "Score").
type ScoreAnswer struct {
	// Error is true when PreFilter rejected the pod or a plugin failed;
	// Message says why, and TotalScores is empty.
	Error   bool   `json:"error"`
	Message string `json:"message"`
	// TotalScores is parallel to the nodes asked about: each node's sum of
	// weighted scores (as Result.ScoreTotals' TotalScore).
	TotalScores []int64 `json:"totalScores"`
}

// Score scores the pending core/v1 Pod pod (JSON) on nodes alone (names
// of nodes the engine has, distinct, at least one): PreFilter, then
// PreScore, Score, NormalizeScore and the weights over exactly those
// nodes, no Filter, as upstream's prioritizeNodes over the feasible nodes
// a cycle found. What a kube-scheduler framework running the engine as a
// plugin asks for the nodes it sampled: plugins that normalize per cycle
// normalize over them, and only their totals cross the ABI. Changes no
// state, queue or random source (the equivalence cache as Schedule does:
// never a different result). A bad pod or node list is an error with the
// field's path.
func (e *Engine) Score(ctx context.Context, pod []byte, nodes []string) (*ScoreAnswer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	body, err := json.Marshal(struct {
		Pod   json.RawMessage `json:"pod"`
		Nodes []string        `json:"nodes"`
	}{pod, nodes})
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "score request: " + err.Error()}
	}
	return decoded[ScoreAnswer](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_score(ce, cBytes(body), C.size_t(len(body)), out, cerr)
	})
}

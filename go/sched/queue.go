package sched

// #include <sched/sched.h>
import "C"

import (
	"context"
	"time"
)

// Run runs scheduling cycles from the engine's scheduling queue at the
// current queue time, as kube-scheduler's scheduleOne loop
// (sched_engine_run): up to maxCycles pods, or with 0 until activeQ is
// empty. A pod that fits is assumed on its node; one that does not waits in
// the queue for a cluster event that may help it. flags may be NodeStatuses
// and Scores (Assume is an error: every placed pod is assumed). Pending
// pods enter the queue through Apply. Mirrors pkg/scheduler/schedule_one.go
// and backend/queue.
//
// ctx is checked before the call only: the C call runs its cycles to the
// end.
func (e *Engine) Run(ctx context.Context, maxCycles uint32, flags ...ScheduleFlag) (*RunResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := combine(flags)
	return decoded[RunResult](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_run(ce, C.uint32_t(maxCycles), C.uint32_t(f), out, cerr)
	})
}

// AdvanceClock moves the queue's clock forward by d (whole milliseconds;
// negative is an error), then moves the pods whose backoff ended or that
// waited 5 minutes unschedulable (sched_engine_advance_clock). The clock
// moves only here; nothing happens in the background. An error
// (CodeInvalidArgument) leaves the clock unchanged.
func (e *Engine) AdvanceClock(d time.Duration) error {
	if d < 0 {
		return &Error{Code: CodeInvalidArgument, Message: "negative clock advance " + d.String()}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.c == nil {
		return ErrClosed
	}
	var cerr *C.sched_error
	if st := C.sched_engine_advance_clock(e.c, C.uint64_t(d.Milliseconds()), &cerr); st != C.SCHED_OK {
		return errorFrom(st, cerr)
	}
	return nil
}

// Queue reports where every queued pod is and why (sched_engine_queue).
func (e *Engine) Queue() (*QueueState, error) {
	return decoded[QueueState](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_queue(ce, out, cerr)
	})
}

// Stats reports the engine's counters (sched_engine_stats). It changes
// nothing.
func (e *Engine) Stats() (*Stats, error) {
	return decoded[Stats](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_stats(ce, out, cerr)
	})
}

// decoded runs fn through e.call and returns the document decoded as a T.
func decoded[T any](e *Engine, fn func(*C.sched_engine, **C.char, **C.sched_error) C.sched_status) (*T, error) {
	v := new(T)
	if err := e.call(fn, v); err != nil {
		return nil, err
	}
	return v, nil
}

// combine ORs flags into one value.
func combine(flags []ScheduleFlag) ScheduleFlag {
	var f ScheduleFlag
	for _, flag := range flags {
		f |= flag
	}
	return f
}

// RunResult is what Run did: one Result per cycle, in order.
type RunResult struct {
	Results []Result `json:"results"`
}

// QueueName is the part of the scheduling queue holding a pod.
type QueueName string

// The queues of docs/api.md, "Queue".
const (
	QueueActive        QueueName = "Active"        // activeQ: ready to try
	QueueBackoff       QueueName = "Backoff"       // backoffQ: waiting out its backoff
	QueueUnschedulable QueueName = "Unschedulable" // waiting for a cluster event, or gated
	QueueInFlight      QueueName = "InFlight"      // popped for a cycle (not seen through the C API)
)

// QueueState is the scheduling queue (docs/api.md, "Queue").
type QueueState struct {
	// NowMillis is the queue's clock: milliseconds since the engine was
	// created, moved only by AdvanceClock.
	NowMillis int64 `json:"nowMillis"`
	// SchedulingCycle counts the cycles run so far.
	SchedulingCycle int64 `json:"schedulingCycle"`
	// Pods lists every queued pod.
	Pods []QueuedPod `json:"pods"`
}

// QueuedPod is where one pod waits, and why.
type QueuedPod struct {
	// Pod is "namespace/name".
	Pod string `json:"pod"`
	// Queue holds it.
	Queue QueueName `json:"queue"`
	// Attempts counts its scheduling attempts.
	Attempts int `json:"attempts"`
	// UnschedulablePlugins rejected it in its last cycle.
	UnschedulablePlugins []string `json:"unschedulablePlugins"`
	// GatingPlugin is "SchedulingGates" while spec.schedulingGates is set.
	GatingPlugin string `json:"gatingPlugin,omitempty"`
	// QueuedAtMillis is when it was queued, on the queue's clock.
	QueuedAtMillis int64 `json:"queuedAtMillis"`
	// BackoffExpiresAtMillis is when its backoff ends; nil until it failed.
	BackoffExpiresAtMillis *int64 `json:"backoffExpiresAtMillis,omitempty"`
	// NominatedNodeName is the node a preemption in Run nominated it to,
	// while the nomination holds ("" when none; upstream's
	// status.nominatedNodeName, backend/queue/nominator.go).
	NominatedNodeName string `json:"nominatedNodeName,omitempty"`
}

// Stats are the engine's counters (docs/api.md, "Statistics").
type Stats struct {
	// EquivalenceCache sums the equivalence-class caches of the profiles.
	EquivalenceCache EquivalenceCacheStats `json:"equivalenceCache"`
}

// EquivalenceCacheStats are the equivalence-class cache's counters since
// the engine was created; all zero with Enabled false when the config set
// equivalenceCache: false.
type EquivalenceCacheStats struct {
	Enabled       bool  `json:"enabled"`
	Hits          int64 `json:"hits"`          // cycles that found their class's entry
	Misses        int64 `json:"misses"`        // cycles that created it
	Bypasses      int64 `json:"bypasses"`      // cycles that could not use the cache
	ScoreBypasses int64 `json:"scoreBypasses"` // cached cycles where a Score plugin scored every node afresh
	Repairs       int64 `json:"repairs"`       // node evaluations in hit cycles
	Reused        int64 `json:"reused"`        // node verdicts and score rows taken from the cache
	Parked        int64 `json:"parked"`        // hit cycles answered by the failure memo
}

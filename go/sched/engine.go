package sched

// #include <stdlib.h>
// #include <string.h>
// #include <sched/sched.h>
import "C"

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"unsafe"
)

// Engine is a scheduling engine: cluster state (nodes, bound and assumed
// pods) and the scheduling profiles of its configuration. It wraps a
// sched_engine handle.
//
// All methods may be called concurrently from any goroutine. An Engine must
// be released with Close; a finalizer frees a forgotten one, but only when
// the garbage collector gets to it.
type Engine struct {
	// mu is held shared by every call into the library (which serializes
	// calls on one engine itself) and exclusively by Close, because
	// sched_engine_free must not race with other calls.
	mu sync.RWMutex
	c  *C.sched_engine // nil once closed
}

// New creates an engine from a KubeSchedulerConfiguration in JSON (the
// subset in docs/api.md, "Config"); "{}" is the default profile. Unknown
// fields and invalid values are errors with CodeInvalidArgument and the
// field's path.
func New(config []byte) (*Engine, error) {
	var ce *C.sched_engine
	var cerr *C.sched_error
	if st := C.sched_engine_new(cBytes(config), C.size_t(len(config)), &ce, &cerr); st != C.SCHED_OK {
		return nil, errorFrom(st, cerr)
	}
	e := &Engine{c: ce}
	runtime.SetFinalizer(e, (*Engine).Close)
	return e, nil
}

// Close frees the engine. It waits for calls in flight; later calls return
// ErrClosed. Close is idempotent and always returns nil (the error result
// satisfies io.Closer).
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.c == nil {
		return nil
	}
	C.sched_engine_free(e.c)
	e.c = nil
	runtime.SetFinalizer(e, nil)
	return nil
}

// Apply applies cluster changes: one watch event
// {"type":"ADDED"|"MODIFIED"|"DELETED","object":{...}}, a JSON array of
// events, a List, or a single object (docs/api.md, "Cluster events"). Pods
// with spec.nodeName are bound to that node. It is all-or-nothing: when an
// item is invalid the error names its path and nothing is applied. Mirrors
// the scheduler cache's informer handlers (pkg/scheduler/eventhandlers.go).
func (e *Engine) Apply(events []byte) (ApplySummary, error) {
	var summary ApplySummary
	err := e.call(func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_apply(ce, cBytes(events), C.size_t(len(events)), out, cerr)
	}, &summary)
	return summary, err
}

// Schedule runs one scheduling cycle for a pending core/v1 Pod in JSON and
// returns the outcome. A pod that fits nowhere is not an error: the Result
// has Reason ReasonUnschedulable and upstream's FitError message. flags add
// Assume, NodeStatuses or Scores. A spec.schedulerName that names no
// profile is an error with path "spec.schedulerName". Mirrors
// pkg/scheduler/schedule_one.go (schedulePod).
//
// ctx is checked before the call only: a cycle, once started, runs to its
// end (the C call cannot be interrupted), so cancellation never leaves a
// half-assumed pod.
func (e *Engine) Schedule(ctx context.Context, pod []byte, flags ...ScheduleFlag) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := combine(flags)
	return decoded[Result](e, func(ce *C.sched_engine, out **C.char, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_schedule(ce, cBytes(pod), C.size_t(len(pod)), C.uint32_t(f), out, cerr)
	})
}

// call runs fn on the live handle under the shared lock and decodes the
// JSON document it returns into v.
//
// Go memory handed to fn's C call (the input bytes, out and cerr) holds no
// Go pointers, so the cgo rules allow passing it without copying: it stays
// put for the duration of the call, and the library keeps no pointer into
// its inputs after returning (sched.h convention 4). The deferred RUnlock
// keeps e reachable until the C call has returned, so the finalizer cannot
// free the handle mid-call (the job runtime.KeepAlive does elsewhere).
func (e *Engine) call(fn func(*C.sched_engine, **C.char, **C.sched_error) C.sched_status, v any) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.c == nil {
		return ErrClosed
	}
	var out *C.char
	var cerr *C.sched_error
	if st := fn(e.c, &out, &cerr); st != C.SCHED_OK {
		return errorFrom(st, cerr)
	}
	defer C.sched_free(unsafe.Pointer(out))
	// Decoding straight from C memory saves a copy; json.Unmarshal keeps no
	// reference to its input.
	doc := unsafe.Slice((*byte)(unsafe.Pointer(out)), C.strlen(out))
	if err := json.Unmarshal(doc, v); err != nil {
		return &Error{Code: CodeInternal, Message: "undecodable result: " + err.Error()}
	}
	return nil
}

// cBytes returns b's data as a C pointer, nil for an empty slice (the C API
// accepts NULL with length 0).
func cBytes(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b)))
}

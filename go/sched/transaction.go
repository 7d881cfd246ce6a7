package sched

// #include <sched/sched.h>
import "C"

// Begin opens a transaction (sched_engine_begin): every later call on the
// engine, from any goroutine, is part of it until Commit keeps or Revert
// takes back its changes. The shape of cluster-autoscaler's ClusterSnapshot
// Fork/Revert/Commit, without a copy: Revert costs the changes made since
// Begin, not the cluster's size. Transactions nest (docs/api.md,
// "Transactions").
func (e *Engine) Begin() error {
	return e.transact(func(ce *C.sched_engine, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_begin(ce, cerr)
	})
}

// Commit keeps the changes of the innermost open transaction
// (sched_engine_commit); nested, they become part of the enclosing one.
// CodeInvalidArgument when none is open.
func (e *Engine) Commit() error {
	return e.transact(func(ce *C.sched_engine, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_commit(ce, cerr)
	})
}

// Revert puts back everything the innermost open transaction changed:
// objects, assumed pods, the queue and its clock, nominations and the
// random source (sched_engine_revert). CodeInvalidArgument when none is
// open.
func (e *Engine) Revert() error {
	return e.transact(func(ce *C.sched_engine, cerr **C.sched_error) C.sched_status {
		return C.sched_engine_revert(ce, cerr)
	})
}

func (e *Engine) transact(fn func(*C.sched_engine, **C.sched_error) C.sched_status) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.c == nil {
		return ErrClosed
	}
	var cerr *C.sched_error
	if st := fn(e.c, &cerr); st != C.SCHED_OK {
		return errorFrom(st, cerr)
	}
	return nil
}

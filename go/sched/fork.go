package sched

// #include <sched/sched.h>
import "C"

import "runtime"

// Fork returns a new engine equal to e (sched_engine_fork): the same
// objects, assumed pods, queue, nominations, clock, config and random
// source, so both decide alike from here; a change to either never shows
// in the other. The child starts with no transaction open. e and its forks
// share one lock inside the library: they may be used and closed from any
// goroutines at once, and their calls serialize. It costs O(1) whatever the
// numbers of nodes, pods and pending pods (the state and the queue are
// shared copy-on-write, each side copying a piece when it first changes it;
// docs/api.md, "Fork"). The child must be closed like any Engine.
func (e *Engine) Fork() (*Engine, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.c == nil {
		return nil, ErrClosed
	}
	var child *C.sched_engine
	var cerr *C.sched_error
	if st := C.sched_engine_fork(e.c, &child, &cerr); st != C.SCHED_OK {
		return nil, errorFrom(st, cerr)
	}
	f := &Engine{c: child}
	runtime.SetFinalizer(f, (*Engine).Close)
	return f, nil
}

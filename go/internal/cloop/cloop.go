// Package cloop calls the C API in loops written in C. It is the baseline
// for the per-call overhead of package sched: the same calls without cgo
// transitions, locking or result decoding per call (bench/RESULTS.md).
package cloop

/*
#cgo pkg-config: libsched
#include <sched/sched.h>

// n calls of sched_engine_apply, each asking for and freeing the summary as
// sched.Engine.Apply does.
static sched_status apply_n(sched_engine *e, const char *json, size_t len, long n) {
  for (long i = 0; i < n; ++i) {
    char *summary = NULL;
    sched_status st = sched_engine_apply(e, json, len, &summary, NULL);
    sched_free(summary);
    if (st != SCHED_OK) return st;
  }
  return SCHED_OK;
}

// n calls of sched_engine_schedule without flags.
static sched_status schedule_n(sched_engine *e, const char *json, size_t len, long n) {
  for (long i = 0; i < n; ++i) {
    char *result = NULL;
    sched_status st = sched_engine_schedule(e, json, len, 0, &result, NULL);
    sched_free(result);
    if (st != SCHED_OK) return st;
  }
  return SCHED_OK;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Engine is a bare sched_engine handle. Not safe for concurrent Close.
type Engine struct{ c *C.sched_engine }

// New creates a default-profile engine and applies events to it.
func New(events []byte) (*Engine, error) {
	e := &Engine{}
	config := []byte("{}")
	if err := check("sched_engine_new", C.sched_engine_new(cBytes(config), C.size_t(len(config)), &e.c, nil)); err != nil {
		return nil, err
	}
	if err := e.ApplyN(events, 1); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// ApplyN applies events n times in one C loop.
func (e *Engine) ApplyN(events []byte, n int) error {
	return check("sched_engine_apply", C.apply_n(e.c, cBytes(events), C.size_t(len(events)), C.long(n)))
}

// ScheduleN schedules pod n times (no flags) in one C loop.
func (e *Engine) ScheduleN(pod []byte, n int) error {
	return check("sched_engine_schedule", C.schedule_n(e.c, cBytes(pod), C.size_t(len(pod)), C.long(n)))
}

// Close frees the engine.
func (e *Engine) Close() { C.sched_engine_free(e.c) }

func check(call string, st C.sched_status) error {
	if st != C.SCHED_OK {
		return errors.New("cloop: " + call + " failed: " + C.GoString(C.sched_status_name(st)))
	}
	return nil
}

// cBytes returns b's data as a C pointer; b must not be empty.
func cBytes(b []byte) *C.char { return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))) }

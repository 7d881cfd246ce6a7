// Package sched is a Go binding of libsched, a Kubernetes pod scheduling
// engine that makes kube-scheduler's default-profile decisions (the pinned
// upstream release is reported by UpstreamVersion).
//
// The package is a thin layer over the C ABI in include/sched/sched.h and
// uses only the standard library. Inputs and outputs are the JSON documents
// described in docs/api.md: an Engine is created from a
// KubeSchedulerConfiguration, fed Kubernetes watch events or Lists of Nodes
// and Pods with Apply, and asked where a pending Pod should run with
// Schedule.
//
// # Thread safety
//
// Every method of Engine may be called from any goroutine, concurrently,
// including Close: the library serializes calls on one engine internally,
// and Close waits for calls in flight before it frees the engine. Distinct
// engines share nothing.
//
// # Errors
//
// Failures are *Error values carrying the library's status code, its
// message and the JSON path of the offending input field. Test the code
// with errors.Is against ErrInvalidArgument, ErrOutOfMemory or ErrInternal;
// a call on a closed engine returns ErrClosed. A failed call changes
// nothing in the engine.
//
// # Linking
//
// The package links libsched through pkg-config (package "libsched"),
// dynamically by default. Built with the tag sched_static it links the
// static archive libsched.a instead, so the binary does not need
// libsched.so at run time. docs/go.md has the details.
package sched

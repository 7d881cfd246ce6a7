//go:build !sched_static

package sched

// Dynamic linking (the default): -lsched resolves to libsched.so, found at
// run time through the SONAME libsched.so.0.

// #cgo pkg-config: libsched
import "C"

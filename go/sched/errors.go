package sched

// #include <sched/sched.h>
import "C"

import "errors"

// Code is a libsched status code (sched_status in sched.h). Values are those
// of the C enum, which are never renumbered.
type Code int

// The failure codes a call can report. SCHED_OK never appears in an Error.
const (
	// CodeInvalidArgument: the input is malformed, has a wrong type, or
	// names something invalid.
	CodeInvalidArgument Code = C.SCHED_INVALID_ARGUMENT
	// CodeOutOfMemory: the library could not allocate memory.
	CodeOutOfMemory Code = C.SCHED_OUT_OF_MEMORY
	// CodeInternal: a broken internal invariant of the library.
	CodeInternal Code = C.SCHED_INTERNAL
)

// String returns the library's name of the code ("INVALID_ARGUMENT", ...;
// "UNKNOWN" for a value the library does not define).
func (c Code) String() string {
	return C.GoString(C.sched_status_name(C.sched_status(c)))
}

// Sentinel errors for errors.Is. Every *Error unwraps to the one matching
// its Code.
var (
	// ErrInvalidArgument matches errors with CodeInvalidArgument.
	ErrInvalidArgument = errors.New("sched: invalid argument")
	// ErrOutOfMemory matches errors with CodeOutOfMemory.
	ErrOutOfMemory = errors.New("sched: out of memory")
	// ErrInternal matches errors with CodeInternal.
	ErrInternal = errors.New("sched: internal error")
	// ErrClosed is returned by calls on an Engine after Close. It is not an
	// *Error: the library was not called.
	ErrClosed = errors.New("sched: engine is closed")
)

// Error is a failure reported by the library (sched_error in sched.h).
// Errors are immutable and may be shared between goroutines.
type Error struct {
	// Code is the status the C call returned.
	Code Code
	// Message is the library's message; about one input field it reads
	// "<path>: <detail>".
	Message string
	// Path is the JSON path of the offending input field, e.g.
	// "items[2].status.allocatable.cpu", or "" when the error is not about
	// one field.
	Path string
}

// Error returns "sched: " followed by the library's message.
func (e *Error) Error() string { return "sched: " + e.Message }

// Unwrap returns the sentinel error of e.Code (ErrInvalidArgument, ...), or
// nil for a code this package does not know, so errors.Is(err,
// ErrInvalidArgument) tests the code.
func (e *Error) Unwrap() error {
	switch e.Code {
	case CodeInvalidArgument:
		return ErrInvalidArgument
	case CodeOutOfMemory:
		return ErrOutOfMemory
	case CodeInternal:
		return ErrInternal
	}
	return nil
}

// errorFrom turns a failed call's status and optional error object into an
// *Error and frees the object. cerr may be nil: the caller passed no error
// object, or the library could not allocate one (out of memory).
func errorFrom(status C.sched_status, cerr *C.sched_error) error {
	if cerr == nil {
		return &Error{Code: Code(status), Message: Code(status).String()}
	}
	defer C.sched_error_free(cerr)
	return &Error{
		Code:    Code(C.sched_error_code(cerr)),
		Message: C.GoString(C.sched_error_message(cerr)),
		Path:    C.GoString(C.sched_error_path(cerr)),
	}
}

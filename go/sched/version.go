package sched

// #include <sched/sched.h>
import "C"

// Version returns the linked library's version, "MAJOR.MINOR.PATCH"
// (sched_version).
func Version() string { return C.GoString(C.sched_version()) }

// VersionNumber returns the linked library's version as
// MAJOR*10000 + MINOR*100 + PATCH (sched_version_number).
func VersionNumber() int { return int(C.sched_version_number()) }

// HeaderVersion is the version of the sched.h this package was compiled
// against; it differs from Version when a newer libsched.so is loaded at
// run time.
const HeaderVersion = C.SCHED_VERSION_STRING

// UpstreamVersion returns the kube-scheduler release whose decisions the
// engine mirrors, e.g. "v1.36.3" (sched_upstream_version).
func UpstreamVersion() string { return C.GoString(C.sched_upstream_version()) }

//go:build sched_static

package sched

// Static linking (build tag sched_static). pkg-config --static adds the
// archive's private dependencies (cJSON, xxHash, libstdc++, libm). Its Libs
// still say -lsched, which the linker would resolve to libsched.so, so the
// archive is named explicitly first (-l:libsched.a; GNU ld applies every -L
// to every -l whatever their order) and --as-needed lets the linker drop
// libsched.so, whose symbols are all defined by then.

// #cgo pkg-config: --static libsched
// #cgo LDFLAGS: -l:libsched.a -Wl,--as-needed
import "C"

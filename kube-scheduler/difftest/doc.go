// Package difftest is the differential test of libsched against
// kube-scheduler v1.36.3: each case (a cluster and a pod) is scheduled by
// upstream's own framework runtime and in-tree plugins and by the engine
// (through package sched), and every determined part of the two decisions
// must agree. See docs/differential-test.md.
package difftest

// Package schedtest builds the small Kubernetes JSON documents that the
// tests and benchmarks of package sched feed to the engine.
package schedtest

import "fmt"

// Node returns a core/v1 Node named name with allocatable cpu (a quantity,
// e.g. "2" or "500m"), 4Gi of memory and room for pods pods.
func Node(name, cpu string, pods int) []byte {
	return []byte(fmt.Sprintf(`{"kind":"Node","apiVersion":"v1","metadata":{"name":%q,`+
		`"labels":{"kubernetes.io/hostname":%q}},"status":{"allocatable":`+
		`{"cpu":%q,"memory":"4Gi","pods":"%d"}}}`, name, name, cpu, pods))
}

// Pod returns a core/v1 Pod prod/name with one container requesting cpu
// and 100Mi of memory, bound to nodeName unless it is "".
func Pod(name, cpu, nodeName string) []byte {
	bind := ""
	if nodeName != "" {
		bind = fmt.Sprintf(`"nodeName":%q,`, nodeName)
	}
	return []byte(fmt.Sprintf(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,`+
		`"namespace":"prod","uid":%q},"spec":{%s"containers":[{"name":"c","image":"nginx",`+
		`"resources":{"requests":{"cpu":%q,"memory":"100Mi"}}}]}}`, name, name+"-uid", bind, cpu))
}

// Event wraps object in a watch event of type typ ("ADDED", "MODIFIED",
// "DELETED").
func Event(typ string, object []byte) []byte {
	return []byte(fmt.Sprintf(`{"type":%q,"object":%s}`, typ, object))
}

// Array joins documents into a JSON array (an array of events for Apply).
func Array(docs ...[]byte) []byte {
	out := []byte{'['}
	for i, d := range docs {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, d...)
	}
	return append(out, ']')
}

// The workload of the per-call overhead benchmarks, shared by package sched
// and package cloop so both measure the same calls.
var (
	// BenchCluster adds four nodes (bench/RESULTS.md, "Go package per-call
	// overhead").
	BenchCluster = Array(
		Event("ADDED", Node("bench-1", "4", 110)),
		Event("ADDED", Node("bench-2", "8", 110)),
		Event("ADDED", Node("bench-3", "16", 110)),
		Event("ADDED", Node("bench-4", "32", 110)))
	// BenchEvent modifies one node of BenchCluster without changing it.
	BenchEvent = Event("MODIFIED", Node("bench-1", "4", 110))
	// BenchPod is a pending pod that fits every node of BenchCluster.
	BenchPod = Pod("bench-pod", "500m", "")
)

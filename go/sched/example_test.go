package sched_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/libsched/libsched/go/sched"
)

func ExampleNew() {
	engine, err := sched.New([]byte(`{"percentageOfNodesToScore":100}`))
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close()

	// Two nodes, as `kubectl get nodes -o json` prints them.
	summary, err := engine.Apply([]byte(`{"kind":"List","items":[
	  {"kind":"Node","apiVersion":"v1","metadata":{"name":"small"},
	   "status":{"allocatable":{"cpu":"1","memory":"2Gi","pods":"110"}}},
	  {"kind":"Node","apiVersion":"v1","metadata":{"name":"large"},
	   "status":{"allocatable":{"cpu":"8","memory":"32Gi","pods":"110"}}}]}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("applied:", summary.Applied)

	pod := []byte(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-0","namespace":"default"},
	  "spec":{"containers":[{"name":"web","resources":{"requests":{"cpu":"2"}}}]}}`)
	result, err := engine.Schedule(context.Background(), pod, sched.Assume, sched.NodeStatuses)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result.Pod, "->", result.Node, result.Reason)
	for _, s := range result.NodeStatuses {
		fmt.Println("rejected:", s.Node, s.Plugin, s.Reasons)
	}
	// Output:
	// applied: 2
	// default/web-0 -> large Scheduled
	// rejected: small NodeResourcesFit [Insufficient cpu]
}

func ExampleError() {
	engine, err := sched.New([]byte(`{}`))
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close()

	_, err = engine.Apply([]byte(`{"kind":"Node","metadata":{"name":"n1"},
	  "status":{"allocatable":{"cpu":"two"}}}`))
	var serr *sched.Error
	if errors.Is(err, sched.ErrInvalidArgument) && errors.As(err, &serr) {
		fmt.Println("bad field:", serr.Path)
	}
	// Output:
	// bad field: status.allocatable.cpu
}

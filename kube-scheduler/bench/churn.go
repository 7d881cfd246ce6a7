package main

import (
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// churn is a scheduler_perf churn op (executor.go runChurnOp), as the C
// driver has it (bench/workload/plan.h, Churn; keep the two in step):
// every interval, for each template, "create" mode makes one object;
// "recreate" mode keeps number slots per template and in turn fills an
// empty slot or deletes the slot's object. The first tick is at the start
// of the measured op.
type churn struct {
	namespace string           // of namespaced objects: "namespace-<op index>"
	templates []runtime.Object // *v1.Pod, *v1.Node or *v1.Service, with generateName
	recreate  bool
	number    int // recreate: slots per template
	interval  time.Duration
}

// churnEvent is one object a churn tick creates or deletes.
type churnEvent struct {
	deleted bool
	obj     runtime.Object
}

// loadChurn reads a churn op's templates.
func loadChurn(corpus, mode string, number int, paths []string, interval int, opIndex int) (*churn, error) {
	if mode != "create" && mode != "recreate" {
		return nil, fmt.Errorf("churn mode %q", mode)
	}
	c := &churn{namespace: fmt.Sprintf("namespace-%d", opIndex), recreate: mode == "recreate", number: number}
	if c.number == 0 {
		c.number = 1
	}
	// scheduler_perf's default interval (executor.go runChurnOp).
	if interval == 0 {
		interval = 500
	}
	c.interval = time.Duration(interval) * time.Millisecond
	for _, p := range paths {
		var head struct {
			Kind string `json:"kind"`
		}
		path := templatePath(corpus, p)
		if err := readJSON(path, &head); err != nil {
			return nil, err
		}
		var obj runtime.Object
		switch head.Kind {
		case "Pod":
			obj = &v1.Pod{}
		case "Node":
			obj = &v1.Node{}
		case "Service":
			obj = &v1.Service{}
		default:
			return nil, fmt.Errorf("churn template of kind %q", head.Kind)
		}
		if err := readJSON(path, obj); err != nil {
			return nil, err
		}
		c.templates = append(c.templates, obj)
	}
	if len(c.templates) == 0 {
		return nil, fmt.Errorf("churn op without templatePaths")
	}
	return c, nil
}

// tick returns what churn tick t (0-based) creates and deletes, in
// template order (bench/workload/plan.h, ChurnTick).
func (c *churn) tick(t int) []churnEvent {
	deleted, index := false, t
	if c.recreate {
		slot, round := t%c.number, t/c.number
		deleted, index = round%2 == 1, round/2*c.number+slot
	}
	events := make([]churnEvent, 0, len(c.templates))
	for _, tmpl := range c.templates {
		var obj runtime.Object
		switch tmpl := tmpl.(type) {
		case *v1.Pod:
			obj = makePod(tmpl, c.namespace, index)
		case *v1.Node:
			// As the API server defaults it (SetDefaults_NodeStatus); no
			// hostname label: nobody sets one on these.
			n := tmpl.DeepCopy()
			n.Name, n.GenerateName = indexed(tmpl.GenerateName, index), ""
			if n.Status.Allocatable == nil {
				n.Status.Allocatable = n.Status.Capacity.DeepCopy()
			}
			obj = n
		case *v1.Service:
			s := tmpl.DeepCopy()
			s.Name, s.GenerateName, s.Namespace = indexed(tmpl.GenerateName, index), "", c.namespace
			s.UID = types.UID(c.namespace + ".svc." + s.Name)
			obj = s
		}
		events = append(events, churnEvent{deleted: deleted, obj: obj})
	}
	return events
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/libsched/libsched/go/sched"
)

// runLibschedGo runs p through package go/sched as a Go caller would: the
// cluster applied once, then each pod marshalled and scheduled with Assume
// in creation order (Engine.Schedule does not read the engine's queue).
// A preemptor's victims are deleted (DELETED events) and the pod is tried
// again with status.nominatedNodeName set; a pod that fits nowhere is left
// (upstream parks it until an event, and these workloads send none that
// help). Churn pods are created on the wall clock during the measured op.
func runLibschedGo(ctx context.Context, p *plan) (*outcome, error) {
	e, err := sched.New([]byte("{}"))
	if err != nil {
		return nil, err
	}
	defer e.Close()
	o := &outcome{placements: map[string]string{}}
	// Typed objects marshal without apiVersion and kind, which the engine
	// reads; the List's items get them from a copy carrying TypeMeta.
	objects := make([]any, 0, len(p.nodes)+len(p.ns))
	for _, n := range p.nodes {
		n := n.DeepCopy()
		n.APIVersion, n.Kind = "v1", "Node"
		objects = append(objects, n)
	}
	for _, ns := range p.ns {
		ns := ns.DeepCopy()
		ns.APIVersion, ns.Kind = "v1", "Namespace"
		objects = append(objects, ns)
	}
	list, err := json.Marshal(map[string]any{"kind": "List", "items": objects})
	if err != nil {
		return nil, err
	}
	if _, err := e.Apply(list); err != nil {
		return nil, err
	}
	for _, batch := range p.init {
		if err := scheduleBatch(ctx, e, batch, nil, o, false); err != nil {
			return nil, err
		}
	}
	start, cpu := time.Now(), cpuTime()
	if err := scheduleBatch(ctx, e, p.measured, p.churn, o, true); err != nil {
		return nil, err
	}
	o.elapsed, o.cpu = time.Since(start), cpuTime()-cpu
	return o, nil
}

func scheduleBatch(ctx context.Context, e *sched.Engine, pods []*v1.Pod, c *churn, o *outcome, measured bool) error {
	nextChurn := time.Now()
	for _, pod := range pods {
		if measured && c != nil && !time.Now().Before(nextChurn) {
			cp := makePod(c.template, c.namespace, o.churnPods)
			o.churnPods++
			nextChurn = nextChurn.Add(c.interval)
			if _, err := scheduleOne(ctx, e, cp, o, false); err != nil {
				return err
			}
		}
		placed, err := scheduleOne(ctx, e, pod, o, measured)
		if err != nil {
			return err
		}
		if measured {
			if placed {
				o.scheduled++
			} else {
				o.unscheduled++
			}
		}
	}
	return nil
}

// scheduleOne schedules pod, evicting victims and retrying once per
// preemption; it reports whether the pod was placed.
func scheduleOne(ctx context.Context, e *sched.Engine, pod *v1.Pod, o *outcome, measured bool) (bool, error) {
	pod = pod.DeepCopy()
	for try := 0; try < 3; try++ {
		t0 := time.Now()
		b, err := json.Marshal(pod)
		if err != nil {
			return false, err
		}
		r, err := e.Schedule(ctx, b, sched.Assume)
		if err != nil {
			return false, err
		}
		if measured {
			o.attempts++
			o.attemptMs = append(o.attemptMs, float64(time.Since(t0).Nanoseconds())/1e6)
		}
		key := pod.Namespace + "/" + pod.Name
		if r.Node != "" {
			o.placements[key] = r.Node
			return true, nil
		}
		if len(r.Victims) == 0 {
			return false, nil
		}
		o.preemptions++
		events := make([]map[string]any, len(r.Victims))
		for i, v := range r.Victims {
			events[i] = map[string]any{"type": "DELETED", "object": map[string]any{
				"apiVersion": "v1", "kind": "Pod",
				"metadata": map[string]string{"namespace": v.Namespace, "name": v.Name, "uid": v.UID}}}
			delete(o.placements, v.Namespace+"/"+v.Name)
		}
		del, err := json.Marshal(events)
		if err != nil {
			return false, err
		}
		if _, err := e.Apply(del); err != nil {
			return false, fmt.Errorf("deleting victims: %w", err)
		}
		pod.Status.NominatedNodeName = r.NominatedNodeName
	}
	return false, nil
}

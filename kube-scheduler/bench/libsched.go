package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/libsched/libsched/go/sched"
	"github.com/libsched/libsched/kube-scheduler/plugin"
)

// runLibschedGo runs p through package go/sched as a Go caller would: the
// cluster applied once, then each pod marshalled and scheduled with Assume
// in creation order (Engine.Schedule does not read the engine's queue).
// A preemptor's victims are deleted (DELETED events) and the pod is tried
// again with status.nominatedNodeName set; a pod that fits nowhere is left
// (upstream parks it until an event, and these workloads send none that
// help). Churn ticks run on the wall clock during the measured op (churn.go).
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
	if p.rollover != nil {
		err = rollOverGo(ctx, e, p, o)
	} else {
		err = scheduleBatch(ctx, e, p.measured, p.churn, o, true)
	}
	if err != nil {
		return nil, err
	}
	o.elapsed, o.cpu = time.Since(start), cpuTime()-cpu
	return o, nil
}

// applyEvents applies watch events of type typ for objs, encoded as the
// fork's feed encodes an informer's object (plugin.EncodeEvent: apiVersion
// and kind set on a shallow copy, one json encode).
func applyEvents(e *sched.Engine, typ string, objs ...runtime.Object) error {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, obj := range objs {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := plugin.EncodeEvent(&buf, typ, obj); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	_, err := e.Apply(buf.Bytes())
	return err
}

// rollOverGo runs the rounds of p.rollover (bench/workload/plan.h) with
// watch events for the deletions and the new nodes.
func rollOverGo(ctx context.Context, e *sched.Engine, p *plan, o *outcome) error {
	live := append([]batch(nil), p.init...)
	nodes := append([]*v1.Node(nil), p.nodes...)
	spare := p.rollover.spareNodes
	for _, round := range p.rollover.rounds {
		if err := scheduleBatch(ctx, e, round, nil, o, true); err != nil {
			return err
		}
		live = append(live, round)
		var gone []runtime.Object
		for _, pod := range live[0].pods {
			gone = append(gone, pod)
			delete(o.placements, pod.Namespace+"/"+pod.Name)
		}
		gone = append(gone, live[0].objects...)
		live = live[1:]
		var added []runtime.Object
		for i := 0; i < p.rollover.replaceNodes && len(spare) > 0; i++ {
			for k, n := range o.placements {
				if n == nodes[0].Name {
					ns, name, _ := strings.Cut(k, "/")
					gone = append(gone, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "." + name)}})
					delete(o.placements, k)
				}
			}
			gone = append(gone, nodes[0])
			added = append(added, spare[0])
			nodes, spare = append(nodes[1:], spare[0]), spare[1:]
		}
		if err := applyEvents(e, "DELETED", gone...); err != nil {
			return err
		}
		if err := applyEvents(e, "ADDED", added...); err != nil {
			return err
		}
	}
	return nil
}

func scheduleBatch(ctx context.Context, e *sched.Engine, b batch, c *churn, o *outcome, measured bool) error {
	if len(b.objects) > 0 {
		if err := applyEvents(e, "ADDED", b.objects...); err != nil {
			return err
		}
	}
	nextChurn, ticks := time.Now(), 0
	for _, pod := range b.pods {
		if measured && c != nil && !time.Now().Before(nextChurn) {
			if err := churnGo(ctx, e, c.tick(ticks), o); err != nil {
				return err
			}
			ticks++
			nextChurn = nextChurn.Add(c.interval)
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

// churnGo applies one churn tick: a new pod is scheduled at once (a pod
// that fits nowhere is left, as in scheduleBatch), other objects and every
// deletion are watch events.
func churnGo(ctx context.Context, e *sched.Engine, tick []churnEvent, o *outcome) error {
	for _, ev := range tick {
		pod, isPod := ev.obj.(*v1.Pod)
		switch {
		case isPod && !ev.deleted:
			o.churnPods++
			if _, err := scheduleOne(ctx, e, pod, o, false); err != nil {
				return err
			}
			continue
		case isPod:
			delete(o.placements, pod.Namespace+"/"+pod.Name)
		}
		typ := "ADDED"
		if ev.deleted {
			typ = "DELETED"
		}
		if err := applyEvents(e, typ, ev.obj); err != nil {
			return err
		}
	}
	return nil
}

// scheduleOne schedules pod, evicting victims and retrying once per
// preemption; it reports whether the pod was placed.
func scheduleOne(ctx context.Context, e *sched.Engine, pod *v1.Pod, o *outcome, measured bool) (bool, error) {
	// A shallow copy: only status.nominatedNodeName is written below.
	cp := *pod
	pod = &cp
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

package sched_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

func TestScaleUp(t *testing.T) {
	cluster := schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
		schedtest.Event("ADDED", schedtest.Pod("bound", "1500m", "n1")))
	e := newEngine(t, `{"seed":3}`)
	if _, err := e.Apply(cluster); err != nil {
		t.Fatal(err)
	}
	var pods []json.RawMessage
	for i := 0; i < 5; i++ {
		pods = append(pods, schedtest.Pod(fmt.Sprintf("web-%d", i), "1", ""))
	}
	tmpl := []sched.NodeTemplate{{Node: schedtest.Node("pool", "2", 110)}}
	before, err := e.Nodes(sched.NodeQuery{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.ScaleUp(context.Background(), pods, tmpl)
	if err != nil {
		t.Fatal(err)
	}
	if after, err := e.Nodes(sched.NodeQuery{}); err != nil || !reflect.DeepEqual(after, before) {
		t.Errorf("ScaleUp changed the nodes: %+v, %v", after, err)
	}
	if len(s.Templates) != 1 || s.Templates[0].Nodes != 3 || len(s.Templates[0].Placements) != 5 ||
		len(s.Existing) != 0 || len(s.Unhelped) != 0 {
		t.Fatalf("ScaleUp = %+v", s)
	}
	// The slow path: a twin with that many template nodes fits all five,
	// one by one; with one fewer, one stays pending.
	for _, extra := range []int64{s.Templates[0].Nodes, s.Templates[0].Nodes - 1} {
		twin := newEngine(t, `{"seed":3}`)
		docs := [][]byte{cluster}
		for i := int64(0); i < extra; i++ {
			docs = append(docs, schedtest.Array(schedtest.Event("ADDED", schedtest.Node(fmt.Sprintf("pool-scaleup-%d", i), "2", 110))))
		}
		for _, d := range docs {
			if _, err := twin.Apply(d); err != nil {
				t.Fatal(err)
			}
		}
		fit := 0
		for _, p := range pods {
			r, err := twin.Schedule(context.Background(), p, sched.Assume)
			if err != nil {
				t.Fatal(err)
			}
			if r.Node != "" {
				fit++
			}
		}
		if want := extra == s.Templates[0].Nodes; (fit == len(pods)) != want {
			t.Errorf("%d template nodes: %d of %d fit", extra, fit, len(pods))
		}
	}
	var serr *sched.Error
	if _, err := e.ScaleUp(context.Background(), []json.RawMessage{schedtest.Pod("p", "1", "n1")}, tmpl); !errors.As(err, &serr) || serr.Path != "pods[0].spec.nodeName" {
		t.Errorf("bound pod: %v", err)
	}
}

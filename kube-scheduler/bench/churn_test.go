package main

import (
	"fmt"
	"reflect"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestChurnTick follows scheduler_perf's churn modes (executor.go
// runChurnOp) tick by tick: "create" makes one object per template each
// tick; "recreate" fills an empty slot or deletes the slot's object.
func TestChurnTick(t *testing.T) {
	templates := []runtime.Object{
		&v1.Node{ObjectMeta: metav1.ObjectMeta{GenerateName: "node-churn-"}},
		&v1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "pod-h-"}},
	}
	for _, tc := range []struct {
		name     string
		recreate bool
		number   int
		want     []string // per tick: "+" or "-" and the Node's name
	}{
		{"create", false, 1, []string{"+node-churn-00000", "+node-churn-00001", "+node-churn-00002", "+node-churn-00003"}},
		{"recreate 1", true, 1, []string{"+node-churn-00000", "-node-churn-00000", "+node-churn-00001", "-node-churn-00001"}},
		{"recreate 2", true, 2, []string{"+node-churn-00000", "+node-churn-00001", "-node-churn-00000", "-node-churn-00001", "+node-churn-00002"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &churn{namespace: "namespace-1", templates: templates, recreate: tc.recreate, number: tc.number}
			var got []string
			for i := range tc.want {
				tick := c.tick(i)
				node, pod := tick[0].obj.(*v1.Node), tick[1].obj.(*v1.Pod)
				if tick[0].deleted != tick[1].deleted || pod.Namespace != "namespace-1" ||
					pod.Name != "pod-h-"+node.Name[len("node-churn-"):] {
					t.Fatalf("tick %d: node %s deleted=%v, pod %s/%s deleted=%v", i, node.Name, tick[0].deleted, pod.Namespace, pod.Name, tick[1].deleted)
				}
				sign := "+"
				if tick[0].deleted {
					sign = "-"
				}
				got = append(got, sign+node.Name)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ticks = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestChurnNodeDefaults: a churn Node gets allocatable from its capacity,
// as the API server defaults it, and no hostname label.
func TestChurnNodeDefaults(t *testing.T) {
	c, err := loadChurn("../../bench/corpus", "recreate", 1,
		[]string{"../templates/churn/node-default.yaml", "../templates/churn/service-default.yaml"}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.interval.Milliseconds() != 500 {
		t.Errorf("default interval %v, want scheduler_perf's 500ms", c.interval)
	}
	tick := c.tick(0)
	n, s := tick[0].obj.(*v1.Node), tick[1].obj.(*v1.Service)
	if got := fmt.Sprint(n.Status.Allocatable.Pods()); got != "0" || len(n.Labels) != 0 {
		t.Errorf("node %s: allocatable pods %s, labels %v", n.Name, got, n.Labels)
	}
	if s.Namespace != "namespace-1" || s.Name != "service-churn-00000" || s.Spec.Selector["app"] != "foo" {
		t.Errorf("service %s/%s selector %v", s.Namespace, s.Name, s.Spec.Selector)
	}
}

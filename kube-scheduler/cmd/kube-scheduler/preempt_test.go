package main

import (
	"context"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	clienttesting "k8s.io/client-go/testing"
)

// TestPreempts: in each example profile a high-priority pod that fits
// nowhere preempts as upstream's Evaluator does: the victim gets the
// DisruptionTarget condition and is deleted through the API, the preemptor's
// status.nominatedNodeName is set, and it is bound once the victim is gone.
func TestPreempts(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.file, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client, s := startScheduler(ctx, t, examplePath(ex.file))
			defer s.Profiles.Close()
			if _, err := client.CoreV1().Nodes().Create(ctx, makeNode("n1", "2", nil), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			low, high := makePod("low", "2"), makePod("high", "2")
			lowPrio, highPrio := int32(0), int32(1000)
			low.Spec.Priority, high.Spec.Priority = &lowPrio, &highPrio
			if _, err := client.CoreV1().Pods("default").Create(ctx, low, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			waitForNode(ctx, t, client, low)
			if _, err := client.CoreV1().Pods("default").Create(ctx, high, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := waitForNode(ctx, t, client, high); got != "n1" {
				t.Fatalf("high bound to %q, want n1", got)
			}
			var disrupted, deleted, nominated bool
			for _, a := range client.Actions() {
				switch a := a.(type) {
				case clienttesting.PatchAction:
					patch := string(a.GetPatch())
					if a.GetName() == "low" && a.GetSubresource() == "status" && strings.Contains(patch, "DisruptionTarget") &&
						strings.Contains(patch, "PreemptionByScheduler") {
						disrupted = true
					}
					if a.GetName() == "high" && a.GetSubresource() == "status" && strings.Contains(patch, `"nominatedNodeName":"n1"`) {
						nominated = true
					}
				case clienttesting.DeleteAction:
					if a.GetResource().Resource == "pods" && a.GetName() == "low" {
						deleted = true
					}
				}
			}
			if !disrupted || !deleted || !nominated {
				t.Errorf("victim given DisruptionTarget %v, deleted %v; preemptor nominated to n1 %v: want all", disrupted, deleted, nominated)
			}
		})
	}
}

// TestNominationReachesTheEngineBeforeTheAPI: in whole-algorithm mode the
// engine counts a preemptor's nomination from the moment PostFilter makes
// it, as upstream's in-memory nominator does, not once the status patch
// comes back through the informer. The API here never shows high1's
// nomination and never deletes its victim low1 (an API server lagging for
// ever). high2 must then leave low1's node to high1 and preempt low2, as
// upstream's dry run counts the nominated high1 there; counting the
// nomination late, high2 chose low1 (the lower-priority victim) too, and
// waited for a node that high1 holds.
func TestNominationReachesTheEngineBeforeTheAPI(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, s := startScheduler(ctx, t, examplePath("config-algorithm.yaml"))
	defer s.Profiles.Close()
	client.PrependReactor("patch", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		patch := action.(clienttesting.PatchAction)
		if patch.GetName() != "high1" || patch.GetSubresource() != "status" || !strings.Contains(string(patch.GetPatch()), "nominatedNodeName") {
			return false, nil, nil
		}
		obj, err := client.Tracker().Get(v1.SchemeGroupVersion.WithResource("pods"), patch.GetNamespace(), patch.GetName())
		return true, obj, err
	})
	client.PrependReactor("delete", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		return action.(clienttesting.DeleteAction).GetName() == "low1", nil, nil
	})
	for _, n := range []string{"n1", "n2"} {
		if _, err := client.CoreV1().Nodes().Create(ctx, makeNode(n, "2", nil), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	lowNode := map[string]string{}
	for i, name := range []string{"low1", "low2"} {
		low := makePod(name, "2")
		prio := int32(10 * i) // low1 is the cheaper victim: every preemptor's first choice
		low.Spec.Priority = &prio
		if _, err := client.CoreV1().Pods("default").Create(ctx, low, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		lowNode[name] = waitForNode(ctx, t, client, low)
	}
	highPrio := int32(1000)
	high1, high2 := makePod("high1", "2"), makePod("high2", "2")
	high1.Spec.Priority, high2.Spec.Priority = &highPrio, &highPrio
	if _, err := client.CoreV1().Pods("default").Create(ctx, high1, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextCancel(ctx, 5*time.Millisecond, true, func(context.Context) (bool, error) {
		for _, a := range client.Actions() {
			if d, ok := a.(clienttesting.DeleteAction); ok && d.GetName() == "low1" {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("high1 did not preempt low1: %v", err)
	}
	if _, err := client.CoreV1().Pods("default").Create(ctx, high2, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := waitForNode(ctx, t, client, high2); got != lowNode["low2"] {
		t.Errorf("high2 on %s, want %s (low2's node; low1's is high1's nomination)", got, lowNode["low2"])
	}
}

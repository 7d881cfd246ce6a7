package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
)

// referenceEvent is the feed's encoding before issue 15: a deep copy of
// the object with its TypeMeta set, in json.Marshal's watch event. It is
// the oracle of TestEncodeEventMatchesTheReference and the "reference"
// side of BenchmarkEncodeEvent.
func referenceEvent(eventType string, obj any) ([]byte, error) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	ro := obj.(runtime.Object)
	gvks, _, err := scheme.Scheme.ObjectKinds(ro)
	if err != nil {
		return nil, err
	}
	ro = ro.DeepCopyObject()
	ro.GetObjectKind().SetGroupVersionKind(gvks[0])
	return json.Marshal(struct {
		Type   string         `json:"type"`
		Object runtime.Object `json:"object"`
	}{eventType, ro})
}

// perfPod is a pod of scheduler_perf's SchedulingBasic (pod-default.yaml)
// as the scheduler's Pod informer holds it once bound: the API server's
// defaults, the binding's PodScheduled condition, no managedFields (the
// informer drops them).
func perfPod(i int) *v1.Pod {
	res := v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m"), v1.ResourceMemory: resource.MustParse("500Mi")}
	grace, priority := int64(30), int32(0)
	policy, links := v1.PreemptLowerPriority, true
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i), GenerateName: "pod-", Namespace: "namespace-1",
			UID: "3f1c1c5e-6f5b-4b8e-9a39-6d0c1f6b2f7a", ResourceVersion: "123456",
			CreationTimestamp: metav1.Unix(1_790_000_000, 0)},
		Spec: v1.PodSpec{
			Containers: []v1.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10.1",
				Ports:                    []v1.ContainerPort{{ContainerPort: 80, Protocol: v1.ProtocolTCP}},
				Resources:                v1.ResourceRequirements{Limits: res, Requests: res},
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: v1.TerminationMessageReadFile, ImagePullPolicy: v1.PullIfNotPresent}},
			RestartPolicy: v1.RestartPolicyAlways, TerminationGracePeriodSeconds: &grace, DNSPolicy: v1.DNSClusterFirst,
			SecurityContext: &v1.PodSecurityContext{}, SchedulerName: v1.DefaultSchedulerName, NodeName: "node-0001",
			EnableServiceLinks: &links, Priority: &priority, PreemptionPolicy: &policy,
			Tolerations: []v1.Toleration{
				{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute},
				{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute}},
		},
		Status: v1.PodStatus{Phase: v1.PodPending, QOSClass: v1.PodQOSGuaranteed,
			Conditions: []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: metav1.Unix(1_790_000_001, 0)}}},
	}
}

// perfNode is a node of scheduler_perf (node-default.yaml) as the Node
// informer holds it: with the managedFields of its creation.
func perfNode(i int) *v1.Node {
	name := fmt.Sprintf("node-%04d", i)
	capacity := v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("32Gi"),
		v1.ResourcePods: resource.MustParse("110")}
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, GenerateName: "sample-node-", UID: "9d2f4c0a-1b7e-4a55-8a61-2c3d4e5f6a7b",
			ResourceVersion: "4711", CreationTimestamp: metav1.Unix(1_790_000_000, 0),
			Labels: map[string]string{v1.LabelHostname: name, v1.LabelTopologyZone: "zone1"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "scheduler_perf.test", Operation: metav1.ManagedFieldsOperationUpdate,
				APIVersion: "v1", Time: &metav1.Time{Time: metav1.Unix(1_790_000_000, 0).Time}, FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:kubernetes.io/hostname":{},"f:topology.kubernetes.io/zone":{}}},"f:status":{"f:allocatable":{".":{},"f:cpu":{},"f:memory":{},"f:pods":{}},"f:capacity":{".":{},"f:cpu":{},"f:memory":{},"f:pods":{}},"f:phase":{}}}`)}}},
		},
		Status: v1.NodeStatus{Capacity: capacity, Allocatable: capacity, Phase: v1.NodeRunning,
			Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}},
	}
}

// BenchmarkEncodeEvent: the feed's encoding of one informer event, before
// issue 15 (reference: deep copy, json.Marshal of the event) and now
// (EncodeEvent into a pooled buffer: shallow copy, managedFields left out),
// in one run, for a bound scheduler_perf pod and node.
func BenchmarkEncodeEvent(b *testing.B) {
	for _, obj := range []struct {
		name string
		obj  runtime.Object
	}{{"pod", perfPod(1)}, {"node", perfNode(1)}} {
		b.Run(obj.name+"/reference", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := referenceEvent(eventModified, obj.obj); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(obj.name+"/feed", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				err := withEventBuffer(func(buf *bytes.Buffer) error { return EncodeEvent(buf, eventModified, obj.obj) })
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

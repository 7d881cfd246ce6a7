package plugin

import (
	"encoding/json"
	appsv1 "k8s.io/api/apps/v1"
	"testing"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
)

func TestEncodeEvent(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "x", Namespace: "ns"}
	tests := []struct {
		name      string
		eventType string
		obj       any
		wantGVK   schema.GroupVersionKind
		wantApply int // ApplySummary.Applied
	}{
		{name: "node", eventType: eventAdded, obj: &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
			wantGVK: v1.SchemeGroupVersion.WithKind("Node"), wantApply: 1},
		{name: "bound pod", eventType: eventModified, obj: &v1.Pod{ObjectMeta: meta, Spec: v1.PodSpec{NodeName: "n1"}},
			wantGVK: v1.SchemeGroupVersion.WithKind("Pod"), wantApply: 1},
		{name: "deleted pod tombstone", eventType: eventDeleted,
			obj:     cache.DeletedFinalStateUnknown{Key: "ns/x", Obj: &v1.Pod{ObjectMeta: meta, Spec: v1.PodSpec{NodeName: "n1"}}},
			wantGVK: v1.SchemeGroupVersion.WithKind("Pod"), wantApply: 1},
		{name: "namespace", eventType: eventAdded, obj: &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}},
			wantGVK: v1.SchemeGroupVersion.WithKind("Namespace"), wantApply: 1},
		{name: "pdb", eventType: eventAdded, obj: &policyv1.PodDisruptionBudget{ObjectMeta: meta},
			wantGVK: policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"), wantApply: 1},
		{name: "service", eventType: eventAdded, obj: &v1.Service{ObjectMeta: meta},
			wantGVK: v1.SchemeGroupVersion.WithKind("Service"), wantApply: 1},
		{name: "replica set", eventType: eventAdded, obj: &appsv1.ReplicaSet{ObjectMeta: meta},
			wantGVK: appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), wantApply: 1},
		{name: "pv", eventType: eventAdded, obj: &v1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: "pv"}},
			wantGVK: v1.SchemeGroupVersion.WithKind("PersistentVolume"), wantApply: 1},
		{name: "pvc", eventType: eventModified, obj: &v1.PersistentVolumeClaim{ObjectMeta: meta},
			wantGVK: v1.SchemeGroupVersion.WithKind("PersistentVolumeClaim"), wantApply: 1},
		{name: "storage class", eventType: eventAdded, obj: &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "sc"}},
			wantGVK: storagev1.SchemeGroupVersion.WithKind("StorageClass"), wantApply: 1},
		{name: "csinode", eventType: eventDeleted, obj: &storagev1.CSINode{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
			wantGVK: storagev1.SchemeGroupVersion.WithKind("CSINode"), wantApply: 1},
	}
	engine := newTestEngine(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := encodeEvent(tc.eventType, tc.obj)
			if err != nil {
				t.Fatalf("encodeEvent: %v", err)
			}
			var got struct {
				Type   string `json:"type"`
				Object struct {
					metav1.TypeMeta
					Metadata metav1.ObjectMeta `json:"metadata"`
				} `json:"object"`
			}
			if err := json.Unmarshal(doc, &got); err != nil {
				t.Fatalf("%s: %v", doc, err)
			}
			if got.Type != tc.eventType || got.Object.GroupVersionKind() != tc.wantGVK {
				t.Errorf("got type %q, %v; want %q, %v", got.Type, got.Object.GroupVersionKind(), tc.eventType, tc.wantGVK)
			}
			if got.Object.Metadata.Name == "" {
				t.Errorf("object lost its metadata: %s", doc)
			}
			summary, err := engine.Apply(doc)
			if err != nil {
				t.Fatalf("Apply(%s): %v", doc, err)
			}
			if summary.Applied != tc.wantApply || len(summary.Ignored) != 0 {
				t.Errorf("Apply summary %+v, want applied %d, nothing ignored", summary, tc.wantApply)
			}
		})
	}
}

// The informer's object is shared: encoding must not set its TypeMeta.
func TestEncodeEventLeavesObjectAlone(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	if _, err := encodeEvent(eventAdded, node); err != nil {
		t.Fatal(err)
	}
	if node.Kind != "" || node.APIVersion != "" {
		t.Errorf("encodeEvent set the informer object's TypeMeta: %+v", node.TypeMeta)
	}
}

func TestEncodeEventRejectsNonObjects(t *testing.T) {
	for _, obj := range []any{"a string", nil, cache.DeletedFinalStateUnknown{Key: "k", Obj: 42}} {
		if doc, err := encodeEvent(eventAdded, obj); err == nil {
			t.Errorf("encodeEvent(%#v) = %s, want an error", obj, doc)
		}
	}
}

package plugin

import (
	"bytes"
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
)

// encoded is EncodeEvent's event in a buffer of its own.
func encoded(eventType string, obj any) ([]byte, error) {
	var buf bytes.Buffer
	err := EncodeEvent(&buf, eventType, obj)
	return buf.Bytes(), err
}

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
			doc, err := encoded(tc.eventType, tc.obj)
			if err != nil {
				t.Fatalf("EncodeEvent: %v", err)
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
	if _, err := encoded(eventAdded, node); err != nil {
		t.Fatal(err)
	}
	if node.Kind != "" || node.APIVersion != "" {
		t.Errorf("EncodeEvent set the informer object's TypeMeta: %+v", node.TypeMeta)
	}
}

func TestEncodeEventRejectsNonObjects(t *testing.T) {
	for _, obj := range []any{"a string", nil, cache.DeletedFinalStateUnknown{Key: "k", Obj: 42}} {
		if doc, err := encoded(eventAdded, obj); err == nil {
			t.Errorf("EncodeEvent(%#v) = %s, want an error", obj, doc)
		}
	}
}

// TestEncodeEventMatchesTheReference: what the engine is sent is the
// reference encoding (a deep copy marshalled whole) byte for byte, except
// metadata.managedFields, which the engine does not read, and the newline
// after the object. Fails if the encoder drops or changes any other field.
func TestEncodeEventMatchesTheReference(t *testing.T) {
	richPod := perfPod(2)
	richPod.Labels = map[string]string{"app": "a", "<html>": "&"}
	richPod.Spec.NodeName = ""
	richPod.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "a"}}, TopologyKey: v1.LabelHostname}}}}
	richPod.Status.NominatedNodeName = "node-0002"
	richPod.Status.Conditions = append(richPod.Status.Conditions, v1.PodCondition{Type: v1.DisruptionTarget, Status: v1.ConditionTrue})
	richPod.ManagedFields = perfNode(3).ManagedFields
	for _, tc := range []struct {
		name      string
		eventType string
		obj       any
	}{
		{"bound pod", eventModified, perfPod(1)},
		{"pending pod with affinity, nomination and managedFields", eventAdded, richPod},
		{"node with managedFields", eventAdded, perfNode(1)},
		{"tombstone", eventDeleted, cache.DeletedFinalStateUnknown{Key: "ns/p", Obj: perfPod(4)}},
		{"pdb", eventModified, &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "pdb", Namespace: "ns"},
			Status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encoded(tc.eventType, tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			// The reference encodes a copy without managedFields.
			obj := tc.obj
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			ro := obj.(runtime.Object).DeepCopyObject()
			m, err := meta.Accessor(ro)
			if err != nil {
				t.Fatal(err)
			}
			m.SetManagedFields(nil)
			want, err := referenceEvent(tc.eventType, ro)
			if err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, got); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			if !bytes.Equal(compact.Bytes(), want) {
				t.Errorf("EncodeEvent:\n%s\nwant (reference):\n%s", compact.Bytes(), want)
			}
			if bytes.Contains(got, []byte("managedFields")) {
				t.Errorf("managedFields sent to the engine: %s", got)
			}
		})
	}
}

// The informer's object keeps its managedFields (only the copy sent to the
// engine leaves them out).
func TestEncodeEventLeavesManagedFieldsAlone(t *testing.T) {
	node := perfNode(1)
	if _, err := encoded(eventAdded, node); err != nil {
		t.Fatal(err)
	}
	if len(node.ManagedFields) != 1 {
		t.Errorf("EncodeEvent changed the informer object's managedFields: %+v", node.ManagedFields)
	}
}

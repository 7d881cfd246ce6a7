package plugin

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
)

// Watch event types of the engine's apply input (docs/api.md, "Cluster
// events"), as the API server's watch names them.
const (
	eventAdded    = "ADDED"
	eventModified = "MODIFIED"
	eventDeleted  = "DELETED"
)

// watchEvent is one {"type": ..., "object": {...}} event.
type watchEvent struct {
	Type   string         `json:"type"`
	Object runtime.Object `json:"object"`
}

// encodeEvent returns the engine's watch event for an informer object: a
// typed object, or the cache.DeletedFinalStateUnknown tombstone a delete
// handler may get. Typed informer objects have an empty TypeMeta (the
// decoder strips it), so apiVersion and kind are set, on a deep copy: the
// informer's object is shared and read-only.
func encodeEvent(eventType string, obj any) ([]byte, error) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	ro, ok := obj.(runtime.Object)
	if !ok {
		return nil, fmt.Errorf("%T is not a runtime.Object", obj)
	}
	gvks, _, err := scheme.Scheme.ObjectKinds(ro)
	if err != nil {
		return nil, err
	}
	ro = ro.DeepCopyObject()
	ro.GetObjectKind().SetGroupVersionKind(gvks[0])
	return json.Marshal(watchEvent{Type: eventType, Object: ro})
}

package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
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

// maxPooledEvent is the largest buffer eventBuffers keeps: a rare large
// object (a Node listing many images) does not pin its buffer for ever.
const maxPooledEvent = 64 << 10

// eventBuffers are the buffers events are encoded into, reused across
// events: the feed encodes one event per informer event, from each
// informer's handler goroutine and from Reserve/Unreserve.
var eventBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// withEventBuffer calls fn with an empty buffer from eventBuffers and
// returns the buffer to the pool afterwards: fn must not keep buf's bytes.
func withEventBuffer(fn func(buf *bytes.Buffer) error) error {
	buf := eventBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	err := fn(buf)
	if buf.Cap() <= maxPooledEvent {
		eventBuffers.Put(buf)
	}
	return err
}

// EncodeEvent writes into buf the engine's watch event
// {"type":...,"object":{...}} for an informer object: a typed object, or
// the cache.DeletedFinalStateUnknown tombstone a delete handler may get.
// Typed informer objects have an empty TypeMeta (the decoder strips it), so
// apiVersion and kind are set on a shallow copy (the informer's object is
// shared and read-only), which also leaves out metadata.managedFields: the
// engine reads no field of it (docs/api.md, "Cluster events"), and the
// scheduler's Pod informer already drops it (pkg/scheduler/scheduler.go,
// newPodInformer) but the others keep it. The object's JSON is
// encoding/json's, as json.Marshal writes it, followed by a newline.
// Exported for kube-scheduler/bench, whose go/sched column feeds the
// engine its events the way this feed does.
func EncodeEvent(buf *bytes.Buffer, eventType string, obj any) error {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	ro, ok := obj.(runtime.Object)
	if !ok {
		return fmt.Errorf("%T is not a runtime.Object", obj)
	}
	gvks, _, err := scheme.Scheme.ObjectKinds(ro)
	if err != nil {
		return err
	}
	ro = shallowCopy(ro)
	ro.GetObjectKind().SetGroupVersionKind(gvks[0])
	if m, err := meta.Accessor(ro); err == nil {
		m.SetManagedFields(nil)
	}
	typ, err := json.Marshal(eventType)
	if err != nil {
		return err
	}
	buf.WriteString(`{"type":`)
	buf.Write(typ)
	buf.WriteString(`,"object":`)
	if err := json.NewEncoder(buf).Encode(ro); err != nil {
		return err
	}
	buf.WriteByte('}')
	return nil
}

// shallowCopy returns a copy of the struct ro points to, sharing its
// slices, maps and pointers (the typed API objects are all pointers to
// structs; anything else is deep-copied).
func shallowCopy(ro runtime.Object) runtime.Object {
	v := reflect.ValueOf(ro)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return ro.DeepCopyObject()
	}
	c := reflect.New(v.Elem().Type())
	c.Elem().Set(v.Elem())
	return c.Interface().(runtime.Object)
}

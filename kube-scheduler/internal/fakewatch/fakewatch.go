// Package fakewatch makes a fake clientset's watches behave as an API
// server's in the one way upstream's scheduler relies on: each event
// carries an object of its own.
package fakewatch

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
)

// Client is a fake clientset (fake.NewClientset or NewSimpleClientset).
type Client interface {
	Tracker() clienttesting.ObjectTracker
	PrependWatchReactor(resource string, reaction clienttesting.WatchReactionFunc)
}

// Copying makes every watch of client deliver its own copy of each object,
// as an API server's watch decodes a new one per event. client-go's fake
// tracker hands a new watch the stored objects themselves
// (testing/fixture.go, tracker.Watch delivering the objects newer than the
// List), and upstream's pod informer writes to what it receives
// (SetManagedFields in pkg/scheduler/scheduler.go newPodInformer): a Get of
// the same object meanwhile is a data race, which go test -race found in
// the fork's TestPreempts. A copy costs microseconds against the
// milliseconds of a scheduling cycle.
func Copying(client Client) {
	tracker := client.Tracker()
	client.PrependWatchReactor("*", func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if w, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		return true, watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
			if e.Object != nil {
				e.Object = e.Object.DeepCopyObject()
			}
			return e, true
		}), nil
	})
}

package fakewatch

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// A watch started after a List gets the objects created in between. The
// fake as client-go ships it hands over its stored object, so a watcher's
// write shows in the next Get (the aliasing behind the race); with Copying
// it does not. Should client-go copy them one day, the first case fails and
// Copying can go.
func TestWatchersWriteOnlyTheirCopies(t *testing.T) {
	for _, tc := range []struct {
		name        string
		copying     bool
		wantAliased bool
	}{
		{"fake as shipped", false, true},
		{"Copying", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			client := fake.NewClientset()
			if tc.copying {
				Copying(client)
			}
			pods := client.CoreV1().Pods("ns")
			list, err := pods.List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pods.Create(ctx, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			w, err := pods.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			e := <-w.ResultChan()
			e.Object.(*v1.Pod).Labels = map[string]string{"written": "by the watcher"}
			got, err := pods.Get(ctx, "p", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if aliased := got.Labels["written"] != ""; aliased != tc.wantAliased {
				t.Errorf("the watcher's write shows in Get: %v, want %v", aliased, tc.wantAliased)
			}
		})
	}
}

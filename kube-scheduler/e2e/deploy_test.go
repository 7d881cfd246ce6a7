package e2e

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	authnv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"
)

// applyManifest creates every object of a multi-document YAML file of
// kube-scheduler/deploy/, as `kubectl create -f` would; objects that exist
// already are left as they are. It returns the objects.
func applyManifest(ctx context.Context, t *testing.T, c kubernetes.Interface, file string) []runtime.Object {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "deploy", file))
	if err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := dec.Read()
		if err != nil {
			break
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(doc, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		objs = append(objs, obj)
		opts := metav1.CreateOptions{}
		switch o := obj.(type) {
		case *v1.ServiceAccount:
			_, err = c.CoreV1().ServiceAccounts(o.Namespace).Create(ctx, o, opts)
		case *v1.ConfigMap:
			_, err = c.CoreV1().ConfigMaps(o.Namespace).Create(ctx, o, opts)
		case *rbacv1.ClusterRoleBinding:
			_, err = c.RbacV1().ClusterRoleBindings().Create(ctx, o, opts)
		case *rbacv1.Role:
			_, err = c.RbacV1().Roles(o.Namespace).Create(ctx, o, opts)
		case *rbacv1.RoleBinding:
			_, err = c.RbacV1().RoleBindings(o.Namespace).Create(ctx, o, opts)
		case *appsv1.Deployment:
			_, err = c.AppsV1().Deployments(o.Namespace).Create(ctx, o, opts)
		default:
			t.Fatalf("%s: no creation for %T", file, obj)
		}
		if err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("%s: creating %T: %v", file, obj, err)
		}
	}
	return objs
}

// deploy applies deploy/rbac.yaml and deploy/deployment.yaml, and returns
// the scheduler's configuration file: the ConfigMap's, with a kubeconfig
// holding a token of the manifests' ServiceAccount (so the scheduler runs
// with exactly the RBAC shipped) and short leader-election periods.
func (e *env) deploy(ctx context.Context, t *testing.T) string {
	t.Helper()
	applyManifest(ctx, t, e.client, "rbac.yaml")
	var config string
	for _, obj := range applyManifest(ctx, t, e.client, "deployment.yaml") {
		if cm, ok := obj.(*v1.ConfigMap); ok {
			config = cm.Data["config.yaml"]
		}
	}
	if config == "" {
		t.Fatal("deployment.yaml has no ConfigMap with config.yaml")
	}
	tr, err := e.client.CoreV1().ServiceAccounts("kube-system").CreateToken(ctx, "libsched-scheduler",
		&authnv1.TokenRequest{Spec: authnv1.TokenRequestSpec{}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := clientcmd.LoadFromFile(filepath.Join(e.dir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	kc := clientcmdapi.NewConfig()
	for name, cl := range admin.Clusters {
		kc.Clusters[name] = cl
		kc.AuthInfos["sa"] = &clientcmdapi.AuthInfo{Token: tr.Status.Token}
		kc.Contexts["sa"] = &clientcmdapi.Context{Cluster: name, AuthInfo: "sa"}
		kc.CurrentContext = "sa"
	}
	dir := t.TempDir()
	kcPath := filepath.Join(dir, "scheduler.kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kcPath); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(config), &doc); err != nil {
		t.Fatal(err)
	}
	doc["clientConnection"] = map[string]any{"kubeconfig": kcPath}
	le, _ := doc["leaderElection"].(map[string]any)
	if le == nil {
		t.Fatal("the ConfigMap's config has no leaderElection")
	}
	le["leaseDuration"], le["renewDeadline"], le["retryPeriod"] = "4s", "3s", "1s"
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

package plugin

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		name     string
		raw      string // "" means no args
		wantMode Mode
		wantErr  string
	}{
		{name: "no args", wantMode: ModePlugin},
		{name: "plugin mode", raw: `{"mode":"Plugin","percentageOfNodesToScore":30,"seed":7}`, wantMode: ModePlugin},
		{name: "algorithm mode", raw: `{"mode":"Algorithm","percentageOfNodesToScore":30,"seed":7}`, wantMode: ModeAlgorithm},
		{name: "plugins", raw: `{"mode":"Algorithm","plugins":{"score":{"disabled":[{"name":"*"}]}}}`, wantMode: ModeAlgorithm},
		{name: "bad mode", raw: `{"mode":"Both"}`, wantErr: `mode: unsupported value "Both"`},
		{name: "bad percentage", raw: `{"mode":"Algorithm","percentageOfNodesToScore":101}`, wantErr: "percentageOfNodesToScore: 101 not in 0..100"},
		{name: "bad type", raw: `{"seed":"x"}`, wantErr: "LibSched args"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var obj runtime.Object
			if tc.raw != "" {
				obj = &runtime.Unknown{Raw: []byte(tc.raw), ContentType: runtime.ContentTypeJSON}
			}
			args, err := decodeArgs(obj)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("decodeArgs error %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if args.Mode != tc.wantMode {
				t.Errorf("mode %q, want %q", args.Mode, tc.wantMode)
			}
		})
	}
}

package train

import (
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/backend"
)

// renamed is the Go backend under another name: what ResolveEngine sees of an XLA backend.
type renamed struct{ compute.Backend }

func (renamed) Name() string { return "xla" }

// TestResolveEngine: unrolled graphs on the pure-Go backend and the step engine elsewhere unless
// Config.Engine or $DW_ENGINE says otherwise; a bad value is named.
func TestResolveEngine(t *testing.T) {
	goBk := backend.MustShared()
	if !backend.IsGo(goBk) {
		t.Fatalf("IsGo(%q) = false", goBk.Name())
	}
	xla := renamed{goBk}
	for _, tc := range []struct {
		name        string
		bk          compute.Backend
		cfg, env    string
		want, error string
	}{
		{"go default", goBk, "", "", EngineUnrolled, ""},
		{"xla default", xla, "", "", EngineSteps, ""},
		{"env steps on go", goBk, "", "steps", EngineSteps, ""},
		{"env unrolled on xla", xla, "", "unrolled", EngineUnrolled, ""},
		{"config beats env", goBk, EngineSteps, "unrolled", EngineSteps, ""},
		{"bad env", goBk, "", "fast", "", "DW_ENGINE"},
		{"bad config", goBk, "fast", "", "", "Config.Engine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EngineEnv, tc.env)
			got, err := ResolveEngine(tc.bk, tc.cfg)
			if tc.error != "" {
				if err == nil || !strings.Contains(err.Error(), tc.error) {
					t.Errorf("error %v, want one naming %s", err, tc.error)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("ResolveEngine = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

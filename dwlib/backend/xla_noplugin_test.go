package backend

import (
	"strings"
	"testing"
)

// TestXLAWithoutPluginIsAClearError: with no plugin anywhere, asking for XLA fails at once (no
// download) and the message says what to set.
func TestXLAWithoutPluginIsAClearError(t *testing.T) {
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", t.TempDir())
	_, err := NewWithConfig("xla")
	if err == nil {
		t.Skip("an XLA plugin is installed on this machine")
	}
	for _, want := range []string{"GOMLX_BACKEND", "plugin"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	t.Log(err)
}

package backend

import (
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	t.Setenv(EnvVar, "")
	if got := Config(); got != DefaultConfig {
		t.Errorf("Config() with %s unset = %q, want %q", EnvVar, got, DefaultConfig)
	}
	t.Setenv(EnvVar, "xla:cuda")
	if got := Config(); got != "xla:cuda" {
		t.Errorf("Config() = %q, want the environment's %q", got, "xla:cuda")
	}
}

func TestNewWithConfigErrors(t *testing.T) {
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", "")
	for _, tc := range []struct{ config, want string }{
		{"tpu-magic", `unknown backend "tpu-magic"`},
		{"xla:/nonexistent/pjrt_c_api_cuda_plugin.so", "PJRT plugin file not found"},
		{"xla:cuda", "PJRT_PLUGIN_LIBRARY_PATH is not set"},
	} {
		_, err := NewWithConfig(tc.config)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewWithConfig(%q) error = %v, want it to contain %q", tc.config, err, tc.want)
		}
		if tc.config != "tpu-magic" && !strings.Contains(err.Error(), "GOMLX_BACKEND") {
			t.Errorf("NewWithConfig(%q) error does not say what to set: %v", tc.config, err)
		}
	}
}

// TestGoMeansUnboundedPool checks that both the default and a bare "go" get the unbounded
// worker pool (DefaultConfig), and that options given with "go:" are kept.
func TestGoMeansUnboundedPool(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"", "parallelism=-1"},
		{"go", "parallelism=-1"},
		{"go:parallelism=1", "parallelism=1"},
		{"go:parallelism=3,ops_sequential", "parallelism=3"},
	} {
		t.Setenv(EnvVar, tc.env)
		b, err := New()
		if err != nil {
			t.Fatalf("%s=%q: %v", EnvVar, tc.env, err)
		}
		if d := b.Description(); !strings.Contains(d, tc.want) {
			t.Errorf("%s=%q: backend %q, want %s", EnvVar, tc.env, d, tc.want)
		}
		b.Finalize()
	}
}

func TestDefaultBackendIsPureGo(t *testing.T) {
	t.Setenv(EnvVar, "")
	b, err := New()
	if err != nil {
		t.Fatalf("New() with the default config: %v", err)
	}
	defer b.Finalize()
	if b.String() != "go" {
		t.Errorf("default backend = %q (%s), want the pure-Go backend \"go\"", b.String(), b.Name())
	}
}

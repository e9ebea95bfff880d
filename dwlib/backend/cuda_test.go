package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJAXWheelLayout: for a plugin inside a JAX CUDA wheel (site-packages/jax_plugins/xla_cuda13/)
// prepareXLA points XLA_FLAGS at site-packages/nvidia and turns go-xla's warning off; with the
// libraries next to the plugin (../nvidia, go-xla's own layout) or given by DW_CUDA_DATA_DIR or
// XLA_FLAGS it leaves everything as it is.
func TestJAXWheelLayout(t *testing.T) {
	for _, tc := range []struct {
		name      string
		nvidia    string // where the nvidia/ folder is, relative to site-packages ("" none)
		flags     string // XLA_FLAGS before
		wantFlags string // XLA_FLAGS after, with SITE for site-packages
		wantCheck string // GOPJRT_CUDA_CHECKS after
	}{
		{"jax wheel", "nvidia", "", "--xla_gpu_cuda_data_dir=SITE/nvidia", "0"},
		{"jax wheel with other flags", "nvidia", "--xla_gpu_autotune_level=0", "--xla_gpu_autotune_level=0 --xla_gpu_cuda_data_dir=SITE/nvidia", "0"},
		{"jax wheel with a data dir given", "nvidia", "--xla_gpu_cuda_data_dir=/opt/cuda", "--xla_gpu_cuda_data_dir=/opt/cuda", "0"},
		{"go-xla layout", "jax_plugins/nvidia", "", "", ""},
		{"no libraries", "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := t.TempDir()
			plugin := filepath.Join(site, "jax_plugins", "xla_cuda13", "xla_cuda_plugin.so")
			if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(plugin, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.nvidia != "" {
				if err := os.MkdirAll(filepath.Join(site, tc.nvidia), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("XLA_FLAGS", tc.flags)
			t.Setenv("GOPJRT_CUDA_CHECKS", "")
			t.Setenv("DW_CUDA_DATA_DIR", "")
			if err := prepareXLA("xla:" + plugin); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tc.wantFlags, "SITE", site)
			if got := os.Getenv("XLA_FLAGS"); got != want {
				t.Errorf("XLA_FLAGS = %q, want %q", got, want)
			}
			if got := os.Getenv("GOPJRT_CUDA_CHECKS"); got != tc.wantCheck {
				t.Errorf("GOPJRT_CUDA_CHECKS = %q, want %q", got, tc.wantCheck)
			}
		})
	}
}

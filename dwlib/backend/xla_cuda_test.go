package backend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCUDADataDirJAXWheel: for a plugin inside a JAX wheel (site-packages/jax_plugins/xla_cuda13/
// with the libraries in site-packages/nvidia/), prepareXLA passes site-packages/nvidia to XLA and
// turns off go-xla's check, which looks only at jax_plugins/nvidia and would warn; where go-xla
// finds the libraries itself, where the user chose, or with DW_CUDA_DATA_DIR, it leaves go-xla's
// behaviour alone.
func TestCUDADataDirJAXWheel(t *testing.T) {
	site := t.TempDir()
	plugin := filepath.Join(site, "jax_plugins", "xla_cuda13", "xla_cuda_plugin.so")
	mustMkdir(t, filepath.Dir(plugin))
	if err := os.WriteFile(plugin, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wheelLibs := filepath.Join(site, "nvidia")
	mustMkdir(t, wheelLibs)
	config := "xla:" + plugin

	t.Run("wheel", func(t *testing.T) {
		t.Setenv("XLA_FLAGS", "--xla_dump_to=/tmp/x")
		t.Setenv("DW_CUDA_DATA_DIR", "")
		t.Setenv(goxlaCUDAChecks, "")
		if err := prepareXLA(config); err != nil {
			t.Fatal(err)
		}
		if got, want := os.Getenv("XLA_FLAGS"), "--xla_dump_to=/tmp/x --xla_gpu_cuda_data_dir="+wheelLibs; got != want {
			t.Errorf("XLA_FLAGS = %q, want %q", got, want)
		}
		if got := os.Getenv(goxlaCUDAChecks); got != "0" {
			t.Errorf("%s = %q, want 0", goxlaCUDAChecks, got)
		}
	})
	t.Run("user flag kept", func(t *testing.T) {
		t.Setenv("XLA_FLAGS", "--xla_gpu_cuda_data_dir=/opt/cuda")
		t.Setenv(goxlaCUDAChecks, "")
		if err := prepareXLA(config); err != nil {
			t.Fatal(err)
		}
		if got := os.Getenv("XLA_FLAGS"); got != "--xla_gpu_cuda_data_dir=/opt/cuda" {
			t.Errorf("XLA_FLAGS = %q, want the user's", got)
		}
		if got := os.Getenv(goxlaCUDAChecks); got != "" {
			t.Errorf("%s = %q, want it unset", goxlaCUDAChecks, got)
		}
	})
	t.Run("DW_CUDA_DATA_DIR", func(t *testing.T) {
		t.Setenv("XLA_FLAGS", "")
		t.Setenv("DW_CUDA_DATA_DIR", "/opt/nv")
		t.Setenv(goxlaCUDAChecks, "")
		if err := prepareXLA(config); err != nil {
			t.Fatal(err)
		}
		if got := os.Getenv("XLA_FLAGS"); got != "--xla_gpu_cuda_data_dir=/opt/nv" {
			t.Errorf("XLA_FLAGS = %q", got)
		}
		if got := os.Getenv(goxlaCUDAChecks); got != "" {
			t.Errorf("%s = %q, want it unset", goxlaCUDAChecks, got)
		}
	})
	t.Run("go-xla finds it", func(t *testing.T) {
		mustMkdir(t, filepath.Join(site, "jax_plugins", "nvidia"))
		defer os.RemoveAll(filepath.Join(site, "jax_plugins", "nvidia"))
		t.Setenv("XLA_FLAGS", "")
		t.Setenv("DW_CUDA_DATA_DIR", "")
		t.Setenv(goxlaCUDAChecks, "")
		if err := prepareXLA(config); err != nil {
			t.Fatal(err)
		}
		if got := os.Getenv("XLA_FLAGS"); strings.Contains(got, "cuda_data_dir") {
			t.Errorf("XLA_FLAGS = %q, want go-xla left to set it", got)
		}
	})
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

package backend

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomlx/go-xla/compute/xla"
)

// xlaHelp is appended to XLA errors: what to install or set.
const xlaHelp = `To use the XLA/PJRT backend (GPU), point GoMLX at a PJRT plugin file by absolute path, e.g.
  GOMLX_BACKEND=xla:/path/to/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so
(the CUDA plugin inside a JAX CUDA wheel works), or set PJRT_PLUGIN_LIBRARY_PATH to a directory holding
pjrt_c_api_<name>_plugin.so and use GOMLX_BACKEND=xla:<name>. The NVIDIA libraries are looked up in
../nvidia next to the plugin's folder, or ../../nvidia (a JAX wheel's site-packages/nvidia); override
with DW_CUDA_DATA_DIR or XLA_FLAGS=--xla_gpu_cuda_data_dir=DIR.
Unset GOMLX_BACKEND to use the pure-Go backend. See environment.md.`

// prepareXLA turns off GoMLX's plugin auto-install (it downloads from the network at start-up),
// checks that the plugin named by the configuration exists, and tells XLA where the NVIDIA
// libraries are (cudaDataDir).
func prepareXLA(config string) error {
	xla.EnableAutoInstall(false)
	_, plugin, _ := strings.Cut(config, ":")
	plugin, _, _ = strings.Cut(plugin, ",")
	if filepath.IsAbs(plugin) {
		if _, err := os.Stat(plugin); err != nil {
			return fmt.Errorf("backend %q: PJRT plugin file not found: %w\n%s", config, err, xlaHelp)
		}
	} else if plugin != "" && plugin != "cpu" && os.Getenv("PJRT_PLUGIN_LIBRARY_PATH") == "" {
		return fmt.Errorf("backend %q: plugin %q given by name but PJRT_PLUGIN_LIBRARY_PATH is not set\n%s", config, plugin, xlaHelp)
	}
	flags := os.Getenv("XLA_FLAGS")
	if strings.Contains(flags, "--xla_gpu_cuda_data_dir") {
		return nil // the user's own choice
	}
	dir, quiet := cudaDataDir(plugin)
	if dir == "" {
		return nil
	}
	if quiet && os.Getenv(goxlaCUDAChecks) == "" {
		if err := os.Setenv(goxlaCUDAChecks, "0"); err != nil {
			return err
		}
	}
	return os.Setenv("XLA_FLAGS", strings.TrimSpace(flags+" --xla_gpu_cuda_data_dir="+dir))
}

// goxlaCUDAChecks is the variable go-xla's pjrt.cudaPluginCheckDrivers (pjrt/cuda_linux.go)
// reads: any value but "", "1", "true" or "yes" turns its check off. (Its warning text spells
// it GOPJR_CUDA_CHECKS, which nothing reads.)
const goxlaCUDAChecks = "GOPJRT_CUDA_CHECKS"

// cudaDataDir returns the NVIDIA library folder to pass to XLA as --xla_gpu_cuda_data_dir, or ""
// to leave it to go-xla; quiet reports that go-xla's own check would warn for nothing.
//
// DW_CUDA_DATA_DIR, when set, is the answer. Otherwise, for a plugin given by absolute path:
// go-xla v0.4.x (pjrt.cudaNVidiaPath, called by pjrt.cudaPluginCheckDrivers after loading a CUDA
// plugin) looks only at <folder of the plugin's folder>/nvidia and, when that exists, sets
// XLA_FLAGS=--xla_gpu_cuda_data_dir to it; when it does not, it warns "Can't find nvidia/
// subdirectory next to the cuda plugin" and sets nothing. A JAX wheel keeps the plugin in
// site-packages/jax_plugins/xla_cuda13/ and the libraries in site-packages/nvidia/, one level
// further up (the plugin's RPATH, $ORIGIN/../../nvidia, finds them there, so it runs). For that
// layout this returns site-packages/nvidia and quiet.
func cudaDataDir(plugin string) (dir string, quiet bool) {
	if d := os.Getenv("DW_CUDA_DATA_DIR"); d != "" {
		return d, false
	}
	if !filepath.IsAbs(plugin) {
		return "", false
	}
	up := filepath.Dir(filepath.Dir(plugin))
	if isDir(filepath.Join(up, "nvidia")) {
		return "", false // go-xla finds it and sets XLA_FLAGS itself
	}
	if wheel := filepath.Join(filepath.Dir(up), "nvidia"); isDir(wheel) {
		return wheel, true
	}
	return "", false
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

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
../nvidia next to the plugin; override with DW_CUDA_DATA_DIR or XLA_FLAGS=--xla_gpu_cuda_data_dir=DIR.
Unset GOMLX_BACKEND to use the pure-Go backend. See environment.md.`

// prepareXLA turns off GoMLX's plugin auto-install (it downloads from the network at start-up),
// checks that the plugin named by the configuration exists, and applies DW_CUDA_DATA_DIR.
//
// go-xla finds the NVIDIA libraries itself in ../nvidia next to a plugin file and keeps an
// --xla_gpu_cuda_data_dir already present in XLA_FLAGS. JAX's CUDA wheels keep them in
// site-packages/nvidia, one level higher (measured on an H200: go-xla warned "Can't find nvidia/
// subdirectory next to the cuda plugin"): prepareXLA points XLA_FLAGS there. DW_CUDA_DATA_DIR is
// for libraries installed anywhere else. (go-xla v0.1.4 wrote a
// hard-coded developer path instead, which this function used to work around.)
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
	dir := os.Getenv("DW_CUDA_DATA_DIR")
	if dir == "" && filepath.IsAbs(plugin) {
		dir = jaxNvidiaDir(plugin)
		if dir != "" {
			// go-xla looks for the libraries in ../nvidia next to the plugin only
			// (pjrt.cudaPluginCheckDrivers, go-xla v0.4.x) and warns when they are not there;
			// JAX's wheels keep them one level higher. Found them: silence that check.
			if err := os.Setenv("GOPJRT_CUDA_CHECKS", "0"); err != nil {
				return err
			}
		}
	}
	if dir == "" || strings.Contains(flags, "--xla_gpu_cuda_data_dir") {
		return nil
	}
	return os.Setenv("XLA_FLAGS", strings.TrimSpace(flags+" --xla_gpu_cuda_data_dir="+dir))
}

// jaxNvidiaDir returns site-packages/nvidia for a plugin inside a JAX CUDA wheel
// (site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so), or "" when the plugin's own ../nvidia
// exists (go-xla finds that itself) or neither does.
func jaxNvidiaDir(plugin string) string {
	isDir := func(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
	up2 := filepath.Dir(filepath.Dir(plugin))
	if isDir(filepath.Join(up2, "nvidia")) {
		return ""
	}
	if d := filepath.Join(filepath.Dir(up2), "nvidia"); isDir(d) {
		return d
	}
	return ""
}

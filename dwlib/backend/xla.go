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
// go-xla v0.3.0 finds the NVIDIA libraries itself in ../nvidia next to a plugin file (where JAX
// wheels put them) and keeps an --xla_gpu_cuda_data_dir already present in XLA_FLAGS; so
// DW_CUDA_DATA_DIR is only needed for libraries installed elsewhere. (go-xla v0.1.4 wrote a
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
	if dir == "" || strings.Contains(flags, "--xla_gpu_cuda_data_dir") {
		return nil
	}
	return os.Setenv("XLA_FLAGS", strings.TrimSpace(flags+" --xla_gpu_cuda_data_dir="+dir))
}

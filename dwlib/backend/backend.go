package backend

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	_ "github.com/gomlx/compute/gobackend" // The default, pure-Go backend.
)

// DefaultConfig is the backend configuration used when GOMLX_BACKEND is unset: GoMLX's pure-Go
// backend with an unbounded worker pool.
//
// GoMLX's own default bounds the pool at 2 × GOMAXPROCS workers, and its parallel executor runs each
// ready node in one of them. A large matrix product (4 Mi multiply-adds or more, SIMD build or not)
// then asks the same pool for more workers from inside its node (workerspool.Pool.Saturate); when
// every worker holds such a node, each waits for a worker none will release and the step hangs.
// scripts/pool-deadlock reproduces it (hung 3 to 6 times in 10 with 8 independent [256, 256]
// products on 2 cores, gomlx v0.28); "parallelism=-1" (an unbounded pool, whose Saturate still
// starts at most GOMAXPROCS helpers per product) and "ops_sequential" never hung. On gomlx v0.26
// the same setting avoided a deadlock of another kind. On gomlx v0.28.16 (compute v0.1.14, whose
// parallel executor no longer blocks on the pool) GoMLX's own pool does not hang either; the
// setting stays, as the configuration every benchmark of the project ran with.
const DefaultConfig = "go:parallelism=-1"

// EnvVar is GoMLX's environment variable that selects the backend, e.g. "go" or
// "xla:/abs/path/pjrt_c_api_cuda_plugin.so".
const EnvVar = compute.ConfigEnvVar

// Config returns the backend configuration the project will use: $GOMLX_BACKEND if set and not
// empty, else DefaultConfig.
func Config() string {
	if c := strings.TrimSpace(os.Getenv(EnvVar)); c != "" {
		return c
	}
	return DefaultConfig
}

// Name returns the backend name part of a configuration ("go" for "go:ops_sequential").
func Name(config string) string {
	name, _, _ := strings.Cut(config, ":")
	return name
}

// New creates a backend for Config(). For XLA it first checks the plugin (see prepareXLA) so that a
// missing plugin is a clear error instead of an automatic download.
func New() (compute.Backend, error) {
	return NewWithConfig(Config())
}

// NewWithConfig creates a backend from an explicit configuration string ("go", "go:parallelism=4",
// "xla:cuda", "xla:/abs/path/pjrt_c_api_cuda_plugin.so", ...).
func NewWithConfig(config string) (compute.Backend, error) {
	switch name := Name(config); name {
	case "go":
		if config == "go" { // GoMLX's default pool can hang: DefaultConfig
			config = DefaultConfig
		}
		return newQuietly(config)
	case "xla", "stablehlo", "shlo", "hlo":
		if err := prepareXLA(config); err != nil {
			return nil, err
		}
		b, err := compute.NewWithConfig(config)
		if err != nil {
			return nil, fmt.Errorf("backend %q: %w\n%s", config, err, xlaHelp)
		}
		return b, nil
	default:
		return nil, fmt.Errorf("unknown backend %q in %s=%q: valid backends are %q (pure Go, default) and %q (XLA/PJRT, for GPUs)",
			name, EnvVar, config, "go", "xla")
	}
}

var (
	sharedOnce    sync.Once
	sharedBackend compute.Backend
	sharedErr     error
)

// Shared returns the process-wide backend, created on first use with New. Creating a backend is
// expensive (XLA loads a plugin), and every executable of a process should share one.
func Shared() (compute.Backend, error) {
	sharedOnce.Do(func() { sharedBackend, sharedErr = New() })
	return sharedBackend, sharedErr
}

// MustShared is Shared for programs and tests that cannot continue without a backend.
func MustShared() compute.Backend {
	b, err := Shared()
	if err != nil {
		panic(err)
	}
	return b
}

// newQuietly creates a backend while discarding what its constructor prints to stdout: the pure-Go
// backend announces its parallelism setting with a Printf, which would otherwise land in every
// notebook cell and CLI output.
func newQuietly(config string) (compute.Backend, error) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return compute.NewWithConfig(config)
	}
	defer devNull.Close()
	stdout := os.Stdout
	os.Stdout = devNull
	defer func() { os.Stdout = stdout }()
	return compute.NewWithConfig(config)
}

// IsGo reports whether b is GoMLX's pure-Go backend (its Name is "Go Backend"; "go" is accepted
// too). Everything else (XLA through PJRT) compiles graphs ahead of running them, at a cost per
// node that shapes how dwlib/train builds rollouts.
func IsGo(b compute.Backend) bool {
	if b == nil {
		return false
	}
	n := b.Name()
	return n == "Go Backend" || n == "go"
}

package noise

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Factory builds a sampler from its configuration; cfg is nil for defaults.
type Factory func(cfg Config) (Sampler, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Factory{}
)

// Register adds a sampler constructor under name. It panics if name is empty
// or already registered (registration is a programming-time decision, usually
// in an init function).
func Register(name string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if name == "" || f == nil {
		panic("noise.Register: empty name or nil factory")
	}
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("noise.Register: sampler %q already registered", name))
	}
	registry[name] = f
}

// Names lists the registered sampler names in sorted order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New creates the sampler registered under name. At most one cfg may be given;
// without it the sampler's paper defaults are used. A checkpointed sampler is
// restored with New(name) followed by UnmarshalJSON, since the JSON state
// carries the configuration.
func New(name string, cfg ...Config) (Sampler, error) {
	registryMu.RLock()
	f, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("noise: unknown sampler %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	if len(cfg) > 1 {
		return nil, fmt.Errorf("noise: New(%q) takes at most one config, got %d", name, len(cfg))
	}
	var c Config
	if len(cfg) == 1 && cfg[0] != nil {
		c = cfg[0]
		if c.SamplerName() != name {
			return nil, fmt.Errorf("noise: New(%q) given a config for sampler %q", name, c.SamplerName())
		}
	}
	return f(c)
}

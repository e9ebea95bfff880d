package kernelext

import "github.com/internal-dw/dwgo/kernelext/runcache"

// Cached returns the stored result of the computation identified by name,
// config (its full JSON) and dataSeed, or runs compute and stores the result
// under <repo>/data/cache/runs (see runcache.Default for the environment
// overrides). Stale and corrupt entries are reported and recomputed, never
// reused; see package runcache.
//
//	res, err := kernelext.Cached("train", cfg, seed, func() (train.Result, error) {
//		return train.Run(cfg, kernelext.NewReporter())
//	})
func Cached[T any](name string, config any, dataSeed int64, compute func() (T, error)) (T, error) {
	c, err := runcache.Default()
	if err != nil {
		var zero T
		return zero, err
	}
	return CachedIn(c, name, config, dataSeed, compute)
}

// CachedIn is Cached in the cache c (as runcache.DefaultIn gives for a command's own directories).
func CachedIn[T any](c *runcache.Cache, name string, config any, dataSeed int64, compute func() (T, error)) (T, error) {
	v, _, err := runcache.Get(c, name, config, dataSeed, compute)
	return v, err
}

package runcache

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/internal-dw/dwgo/kernelext/repo"
)

// Environment variables read by Default.
const (
	// DirEnv overrides the cache directory (default <repo>/data/cache/runs).
	DirEnv = "DW_CACHE_DIR"
	// VersionEnv overrides DefaultVersion.
	VersionEnv = "DW_CACHE_VERSION"
	// ModeEnv set to "refresh" recomputes (and overwrites) every entry.
	ModeEnv = "DW_CACHE"
	// VerboseEnv set (to anything but "" or "0") sends every lookup's line to stderr, as the
	// cache did before it kept them in its log file.
	VerboseEnv = "DW_CACHE_VERBOSE"
)

// LogFile is the file in the cache directory that New's caches append their lookup lines to.
const LogFile = "runcache.log"

// DefaultVersion is the code version Default uses. Bump it (here, or with
// $DW_CACHE_VERSION) when a change in dwlib alters results for the same
// config: every existing entry then reports as Stale and is recomputed.
const DefaultVersion = "1"

// Status tells how Get obtained its result.
type Status int

const (
	Miss    Status = iota // no entry: computed and stored
	Hit                   // valid entry reused
	Stale                 // entry for another key/version: recomputed
	Corrupt               // unreadable or checksum mismatch: recomputed
	Refresh               // Cache.Refresh set: recomputed regardless
)

func (s Status) String() string {
	switch s {
	case Miss:
		return "miss"
	case Hit:
		return "hit"
	case Stale:
		return "stale"
	case Corrupt:
		return "corrupt"
	case Refresh:
		return "refresh"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Cache is a directory of entries. The zero value is not usable; use New or Default.
type Cache struct {
	// Dir holds the entry files.
	Dir string
	// Version is part of every key; see DefaultVersion.
	Version string
	// Refresh forces recomputation, overwriting existing entries.
	Refresh bool
	// Log receives one line per lookup (hit, miss, stale, corrupt, not stored), so that where a
	// number came from can be looked up. nil discards.
	Log io.Writer
	// Warn receives the lines that need attention (stale or corrupt entries, a result not
	// stored) besides Log; nil, or the same writer as Log, adds nothing.
	Warn io.Writer
}

// New returns a cache in dir with the given version. Its lookup lines go to dir/runcache.log,
// not to stderr: in a notebook stderr renders as an error block under the cell, and a hit is not
// one; stale and corrupt entries still warn on stderr. $DW_CACHE_VERBOSE=1 sends every line to
// stderr again.
func New(dir, version string) *Cache {
	c := &Cache{Dir: dir, Version: version, Log: appendLog{filepath.Join(dir, LogFile)}, Warn: os.Stderr}
	if v := os.Getenv(VerboseEnv); v != "" && v != "0" {
		c.Log = os.Stderr
	}
	return c
}

// appendLog appends each write to a file, creating it (and its directory) on first use; it holds
// no file open between writes, so a cache needs no Close.
type appendLog struct{ path string }

func (l appendLog) Write(p []byte) (int, error) {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := f.Write(p)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// Default returns the project cache: $DW_CACHE_DIR or <repo>/data/cache/runs,
// version $DW_CACHE_VERSION or DefaultVersion, refresh if $DW_CACHE=refresh.
func Default() (*Cache, error) { return DefaultIn("") }

// DefaultIn is Default with dir in place of <repo>/data/cache/runs when $DW_CACHE_DIR is not set
// (dir "": Default itself), so that a command given its own directories writes only there, in a
// checkout or not. Outside a checkout with neither, the error names both ways to give one.
func DefaultIn(dir string) (*Cache, error) {
	if env := os.Getenv(DirEnv); env != "" {
		dir = env
	}
	if dir == "" {
		var err error
		if dir, err = repo.Path("data", "cache", "runs"); err != nil {
			return nil, fmt.Errorf("runcache: %w; set $%s to the cache directory", err, DirEnv)
		}
	}
	version := os.Getenv(VersionEnv)
	if version == "" {
		version = DefaultVersion
	}
	c := New(dir, version)
	c.Refresh = os.Getenv(ModeEnv) == "refresh"
	return c, nil
}

// Path returns the file that holds the entry for key.
func (c *Cache) Path(key Key) string { return filepath.Join(c.Dir, key.FileName()) }

func (c *Cache) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "runcache: "+format+"\n", args...)
	}
}

// warnf logs a line that needs attention, to Log and to Warn.
func (c *Cache) warnf(format string, args ...any) {
	c.logf(format, args...)
	if c.Warn != nil && c.Warn != c.Log {
		fmt.Fprintf(c.Warn, "runcache: "+format+"\n", args...)
	}
}

// Get returns the cached result of the computation identified by (name,
// config, dataSeed, type T), or runs compute and stores its result.
//
// name distinguishes computations that share a config (e.g. "train" and
// "eval"); config is any JSON-encodable value, typically the full config
// struct. An error from compute is returned as is and nothing is stored.
// If storing fails, the computed value is returned together with the error.
func Get[T any](c *Cache, name string, config any, dataSeed int64, compute func() (T, error)) (T, Status, error) {
	var zero T
	key, err := newKey[T](c.Version, name, config, dataSeed)
	if err != nil {
		return zero, Miss, err
	}
	path := c.Path(key)

	status := Refresh
	if !c.Refresh {
		var cached T
		err := readEntry(path, key, &cached)
		switch {
		case err == nil:
			c.logf("hit %s (%s)", name, filepath.Base(path))
			return cached, Hit, nil
		case errors.Is(err, fs.ErrNotExist):
			status = Miss
			c.logf("miss %s: computing (%s)", name, filepath.Base(path))
		case errors.Is(err, errStale):
			status = Stale
			c.warnf("STALE entry %s: %v; recomputing", path, err)
		case errors.Is(err, errCorrupt):
			status = Corrupt
			c.warnf("CORRUPT entry %s: %v; recomputing", path, err)
		default: // unreadable file (permissions, ...): do not overwrite blindly.
			return zero, Miss, fmt.Errorf("runcache: reading %s: %w", path, err)
		}
	}

	start := time.Now()
	value, err := compute()
	if err != nil {
		return zero, status, err
	}
	if err := writeEntry(path, key, value, time.Since(start)); err != nil {
		c.warnf("NOT STORED %s: %v", name, err)
		return value, status, err
	}
	return value, status, nil
}

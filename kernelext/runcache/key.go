package runcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Key identifies one computation. Its JSON encoding (fields in this order)
// is what is hashed and stored with each entry.
type Key struct {
	Version  string          `json:"version"`
	Name     string          `json:"name"`
	Type     string          `json:"type"`
	DataSeed int64           `json:"data_seed"`
	Config   json.RawMessage `json:"config"`
}

// newKey encodes config and builds the Key for a result of type T.
func newKey[T any](version, name string, config any, dataSeed int64) (Key, error) {
	cfg, err := marshal(config)
	if err != nil {
		return Key{}, fmt.Errorf("runcache: config of %q is not JSON-encodable: %w", name, err)
	}
	var zero T
	return Key{Version: version, Name: name, Type: fmt.Sprintf("%T", zero), DataSeed: dataSeed, Config: cfg}, nil
}

// JSON returns the canonical (compact) JSON of the key.
func (k Key) JSON() []byte {
	b, err := marshal(k)
	if err != nil {
		panic(err) // Config was produced by marshal; cannot fail.
	}
	return b
}

// Slot returns the key without its version: entries of different versions
// share a file, so a version bump shows up as Stale instead of leaving
// orphaned files behind.
func (k Key) Slot() Key {
	k.Version = ""
	return k
}

// FileName returns the entry's file name: "<name>-<first 24 hex digits of SHA-256(slot)>.json".
func (k Key) FileName() string {
	return sanitize(k.Name) + "-" + sha256Hex(k.Slot().JSON())[:24] + ".json"
}

// diff describes which fields of two keys differ, for stale reports.
func (k Key) diff(other Key) string {
	var parts []string
	if k.Version != other.Version {
		parts = append(parts, fmt.Sprintf("version %q != %q", other.Version, k.Version))
	}
	if k.Name != other.Name {
		parts = append(parts, fmt.Sprintf("name %q != %q", other.Name, k.Name))
	}
	if k.Type != other.Type {
		parts = append(parts, fmt.Sprintf("type %s != %s", other.Type, k.Type))
	}
	if k.DataSeed != other.DataSeed {
		parts = append(parts, fmt.Sprintf("data seed %d != %d", other.DataSeed, k.DataSeed))
	}
	if string(compact(k.Config)) != string(compact(other.Config)) {
		parts = append(parts, "config differs")
	}
	if len(parts) == 0 {
		return "key encoding differs"
	}
	return "stored " + strings.Join(parts, ", ")
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// sanitize makes name safe as a file-name prefix.
func sanitize(name string) string {
	s := strings.Trim(unsafeChars.ReplaceAllString(name, "_"), "._")
	if len(s) > 48 {
		s = s[:48]
	}
	if s == "" {
		s = "run"
	}
	return s
}

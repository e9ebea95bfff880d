package runcache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// formatVersion is the version of the entry layout below.
const formatVersion = 1

// entry is the on-disk layout of one cache file.
type entry struct {
	Format         int             `json:"format"`
	KeySHA256      string          `json:"key_sha256"`
	Key            json.RawMessage `json:"key"`
	Created        time.Time       `json:"created"`
	ComputeSeconds float64         `json:"compute_seconds"`
	PayloadSHA256  string          `json:"payload_sha256"`
	Payload        json.RawMessage `json:"payload"`
}

// errStale and errCorrupt classify why an existing entry was rejected.
var (
	errStale   = errors.New("stale")
	errCorrupt = errors.New("corrupt")
)

// readEntry loads path and decodes its payload into out, if and only if the
// entry is intact and its key equals want. It returns an error wrapping
// os.ErrNotExist, errStale or errCorrupt otherwise.
func readEntry(path string, want Key, out any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil {
		return fmt.Errorf("%w: invalid JSON (truncated or overwritten?): %v", errCorrupt, err)
	}
	if e.Format != formatVersion {
		return fmt.Errorf("%w: entry format %d, want %d", errStale, e.Format, formatVersion)
	}
	if len(e.Key) == 0 || len(e.Payload) == 0 || e.PayloadSHA256 == "" {
		return fmt.Errorf("%w: missing key, payload or checksum", errCorrupt)
	}
	if sha256Hex(compact(e.Key)) != e.KeySHA256 {
		return fmt.Errorf("%w: key checksum mismatch", errCorrupt)
	}
	if !bytes.Equal(compact(e.Key), want.JSON()) {
		var got Key
		if err := json.Unmarshal(e.Key, &got); err != nil {
			return fmt.Errorf("%w: stored key unreadable: %v", errStale, err)
		}
		return fmt.Errorf("%w: %s", errStale, want.diff(got))
	}
	if sha256Hex(compact(e.Payload)) != e.PayloadSHA256 {
		return fmt.Errorf("%w: payload checksum mismatch", errCorrupt)
	}
	dec := json.NewDecoder(bytes.NewReader(e.Payload))
	dec.DisallowUnknownFields() // a field removed from the result type means the entry is outdated.
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%w: payload does not decode into %s: %v", errStale, want.Type, err)
	}
	return nil
}

// writeEntry stores value under path atomically: temporary file in the same
// directory, fsync, rename.
func writeEntry(path string, key Key, value any, elapsed time.Duration) error {
	payload, err := marshal(value)
	if err != nil {
		return fmt.Errorf("runcache: result of %q is not JSON-encodable (NaN/Inf?): %w", key.Name, err)
	}
	keyJSON := key.JSON()
	data, err := marshal(entry{
		Format:         formatVersion,
		KeySHA256:      sha256Hex(keyJSON),
		Key:            keyJSON,
		Created:        time.Now().UTC().Truncate(time.Second),
		ComputeSeconds: elapsed.Seconds(),
		PayloadSHA256:  sha256Hex(payload),
		Payload:        payload,
	})
	if err != nil {
		return fmt.Errorf("runcache: encoding entry: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("runcache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("runcache: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename.
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("runcache: writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("runcache: syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("runcache: closing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("runcache: %w", err)
	}
	return nil
}

// marshal encodes v as compact JSON without HTML escaping, the canonical form
// checksums are computed on.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// compact returns the compact form of a JSON document (or the input, if invalid).
func compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

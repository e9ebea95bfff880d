package runcache

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type config struct {
	LR     float64 `json:"lr"`
	Epochs int     `json:"epochs"`
	Tag    string  `json:"tag"`
}

type result struct {
	Loss   float64   `json:"loss"`
	Curve  []float64 `json:"curve"`
	Remark string    `json:"remark"`
}

// counter returns a compute function that counts its calls.
func counter(calls *int, r result) func() (result, error) {
	return func() (result, error) { *calls++; return r, nil }
}

func newTestCache(t *testing.T) (*Cache, *bytes.Buffer) {
	t.Helper()
	log := &bytes.Buffer{}
	c := New(t.TempDir(), "v1")
	c.Log, c.Warn = log, nil
	return c, log
}

var (
	cfg  = config{LR: 0.01, Epochs: 3, Tag: "<a&b>"}
	want = result{Loss: 0.125, Curve: []float64{1, 0.5, 0.25}, Remark: "ok <html> & \"quotes\""}
)

func TestMissThenHit(t *testing.T) {
	c, log := newTestCache(t)
	calls := 0
	for i, wantStatus := range []Status{Miss, Hit, Hit} {
		got, st, err := Get(c, "train", cfg, 42, counter(&calls, want))
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if st != wantStatus {
			t.Errorf("call %d: status %v, want %v", i, st, wantStatus)
		}
		if got.Loss != want.Loss || len(got.Curve) != 3 || got.Remark != want.Remark {
			t.Errorf("call %d: got %+v, want %+v", i, got, want)
		}
	}
	if calls != 1 {
		t.Errorf("compute called %d times, want 1", calls)
	}
	if !strings.Contains(log.String(), "miss train") || !strings.Contains(log.String(), "hit train") {
		t.Errorf("log does not report miss and hit:\n%s", log)
	}
	// No temporary files left behind.
	entries, _ := os.ReadDir(c.Dir)
	if len(entries) != 1 || strings.HasPrefix(entries[0].Name(), ".tmp") {
		t.Errorf("cache dir holds %v, want exactly one entry file", entries)
	}
}

// TestKeyFields checks that each part of the key separates entries.
func TestKeyFields(t *testing.T) {
	c, _ := newTestCache(t)
	calls := 0
	mustGet := func(name string, cf any, seed int64) Status {
		t.Helper()
		_, st, err := Get(c, name, cf, seed, counter(&calls, want))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	mustGet("train", cfg, 1)
	tests := []struct {
		name   string
		status Status
		fn     func() Status
	}{
		{"same key hits", Hit, func() Status { return mustGet("train", cfg, 1) }},
		{"other seed misses", Miss, func() Status { return mustGet("train", cfg, 2) }},
		{"other name misses", Miss, func() Status { return mustGet("eval", cfg, 1) }},
		{"other config misses", Miss, func() Status { c2 := cfg; c2.LR = 0.02; return mustGet("train", c2, 1) }},
		{"other result type misses", Miss, func() Status {
			_, st, err := Get(c, "train", cfg, 1, func() (float64, error) { return 1, nil })
			if err != nil {
				t.Fatal(err)
			}
			return st
		}},
	}
	for _, tc := range tests {
		if got := tc.fn(); got != tc.status {
			t.Errorf("%s: status %v, want %v", tc.name, got, tc.status)
		}
	}
}

// TestRejectedEntries damages a valid entry in various ways; each must be
// detected (never a Hit), reported, recomputed and then hit again.
func TestRejectedEntries(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, c *Cache, path string, data []byte)
		status Status
		logHas string
	}{
		{"version bumped", func(t *testing.T, c *Cache, _ string, _ []byte) { c.Version = "v2" }, Stale, `version "v1" != "v2"`},
		{"other key stored in slot", func(t *testing.T, c *Cache, path string, _ []byte) {
			k, _ := newKey[result]("v1", "train", config{LR: 9}, 42)
			if err := writeEntry(path, k, want, 0); err != nil {
				t.Fatal(err)
			}
		}, Stale, "config differs"},
		{"field removed from result type", func(t *testing.T, c *Cache, path string, _ []byte) {
			k, _ := newKey[result]("v1", "train", cfg, 42)
			if err := writeEntry(path, k, map[string]any{"loss": 1, "dropped": 2}, 0); err != nil {
				t.Fatal(err)
			}
		}, Stale, "does not decode"},
		{"old entry format", func(t *testing.T, _ *Cache, path string, data []byte) {
			writeFile(t, path, bytes.Replace(data, []byte(`"format":1`), []byte(`"format":0`), 1))
		}, Stale, "entry format 0"},
		{"payload edited", func(t *testing.T, _ *Cache, path string, data []byte) {
			writeFile(t, path, bytes.Replace(data, []byte(`"loss":0.125`), []byte(`"loss":0.126`), 1))
		}, Corrupt, "payload checksum mismatch"},
		{"key edited", func(t *testing.T, _ *Cache, path string, data []byte) {
			writeFile(t, path, bytes.Replace(data, []byte(`"epochs":3`), []byte(`"epochs":4`), 1))
		}, Corrupt, "key checksum mismatch"},
		{"checksum removed", func(t *testing.T, _ *Cache, path string, data []byte) {
			writeFile(t, path, bytes.Replace(data, []byte(`"payload_sha256"`), []byte(`"x"`), 1))
		}, Corrupt, "missing key, payload or checksum"},
		{"garbage", func(t *testing.T, _ *Cache, path string, _ []byte) { writeFile(t, path, []byte("not json")) }, Corrupt, "invalid JSON"},
		{"empty file", func(t *testing.T, _ *Cache, path string, _ []byte) { writeFile(t, path, nil) }, Corrupt, "invalid JSON"},
		{"truncated to half", func(t *testing.T, _ *Cache, path string, data []byte) { writeFile(t, path, data[:len(data)/2]) }, Corrupt, "invalid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, log := newTestCache(t)
			calls := 0
			if _, _, err := Get(c, "train", cfg, 42, counter(&calls, want)); err != nil {
				t.Fatal(err)
			}
			k, _ := newKey[result](c.Version, "train", cfg, 42)
			path := c.Path(k)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tc.damage(t, c, path, data)
			log.Reset()

			got, st, err := Get(c, "train", cfg, 42, counter(&calls, want))
			if err != nil {
				t.Fatal(err)
			}
			if st != tc.status || calls != 2 {
				t.Errorf("status %v after %d computes, want %v after 2", st, calls, tc.status)
			}
			if got.Loss != want.Loss {
				t.Errorf("got %+v, want recomputed %+v", got, want)
			}
			if !strings.Contains(log.String(), strings.ToUpper(tc.status.String())) || !strings.Contains(log.String(), tc.logHas) {
				t.Errorf("log %q does not report %v with %q", log, tc.status, tc.logHas)
			}
			if _, st, _ := Get(c, "train", cfg, 42, counter(&calls, want)); st != Hit {
				t.Errorf("after recompute: status %v, want hit", st)
			}
		})
	}
}

// TestEveryTruncation checks that no strict prefix of an entry is accepted.
func TestEveryTruncation(t *testing.T) {
	c, _ := newTestCache(t)
	calls := 0
	if _, _, err := Get(c, "train", cfg, 42, counter(&calls, want)); err != nil {
		t.Fatal(err)
	}
	k, _ := newKey[result](c.Version, "train", cfg, 42)
	data, err := os.ReadFile(c.Path(k))
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.TrimRight(data, "\n") // dropping only the final newline keeps a valid entry.
	for n := range len(body) {
		var out result
		err := readEntry(writeTemp(t, body[:n]), k, &out)
		if !errors.Is(err, errCorrupt) {
			t.Fatalf("prefix of %d/%d bytes: err = %v, want corrupt", n, len(body), err)
		}
	}
}

func TestComputeErrorAndUnencodable(t *testing.T) {
	c, log := newTestCache(t)
	boom := errors.New("boom")
	if _, _, err := Get(c, "fails", cfg, 1, func() (result, error) { return want, boom }); !errors.Is(err, boom) {
		t.Errorf("compute error: got %v, want %v", err, boom)
	}
	got, _, err := Get(c, "nan", cfg, 1, func() (float64, error) { return math.NaN(), nil })
	if err == nil || !math.IsNaN(got) {
		t.Errorf("NaN result: got %v, %v; want NaN and a storage error", got, err)
	}
	if !strings.Contains(log.String(), "NOT STORED nan") {
		t.Errorf("log does not report the unstored result: %q", log)
	}
	if _, _, err := Get(c, "badcfg", func() {}, 1, func() (int, error) { return 1, nil }); err == nil {
		t.Errorf("unencodable config: want error")
	}
	if entries, _ := os.ReadDir(c.Dir); len(entries) != 0 {
		t.Errorf("cache dir holds %v, want nothing stored", entries)
	}
}

func TestRefreshAndDefault(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(DirEnv, dir)
	t.Setenv(VersionEnv, "")
	t.Setenv(ModeEnv, "refresh")
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if c.Dir != dir || c.Version != DefaultVersion || !c.Refresh {
		t.Errorf("Default() = %+v; want dir %s, version %s, refresh", c, dir, DefaultVersion)
	}
	c.Log = nil
	calls := 0
	for range 2 {
		if _, st, err := Get(c, "train", cfg, 1, counter(&calls, want)); err != nil || st != Refresh {
			t.Errorf("refresh: status %v, %v", st, err)
		}
	}
	if calls != 2 {
		t.Errorf("refresh computed %d times, want 2", calls)
	}
}

func TestFileName(t *testing.T) {
	k, _ := newKey[result]("v1", "fig 3/train: α", cfg, 1)
	name := k.FileName()
	if !strings.HasPrefix(name, "fig_3_train-") || !strings.HasSuffix(name, ".json") || len(name) != len("fig_3_train-")+24+5 {
		t.Errorf("FileName() = %q", name)
	}
	k2 := k
	k2.Version = "v2"
	if k2.FileName() != name {
		t.Errorf("version changes the file name; stale detection needs the same slot")
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "e.json")
	writeFile(t, p, data)
	return p
}

// TestLogDestinations: a default cache keeps hits and misses in its log file, off stderr (where a
// notebook shows them as error blocks), and still warns of a stale entry; $DW_CACHE_VERBOSE sends
// every line to stderr.
func TestLogDestinations(t *testing.T) {
	for _, tc := range []struct {
		verbose   string
		wantInLog bool
	}{{"", true}, {"0", true}, {"1", false}} {
		t.Run("verbose="+tc.verbose, func(t *testing.T) {
			t.Setenv(VerboseEnv, tc.verbose)
			dir := t.TempDir()
			c := New(dir, "v1")
			warn := &bytes.Buffer{}
			c.Warn = warn
			calls := 0
			for range 2 {
				if _, _, err := Get(c, "train", cfg, 42, counter(&calls, want)); err != nil {
					t.Fatal(err)
				}
			}
			log, _ := os.ReadFile(filepath.Join(dir, LogFile))
			inLog := strings.Contains(string(log), "runcache: miss train") && strings.Contains(string(log), "runcache: hit train")
			if inLog != tc.wantInLog {
				t.Errorf("hit and miss in %s: %v, want %v:\n%s", LogFile, inLog, tc.wantInLog, log)
			}
			if warn.Len() != 0 {
				t.Errorf("hits and misses warned: %q", warn)
			}
			if !tc.wantInLog && c.Log != os.Stderr {
				t.Errorf("verbose: Log is %T, want stderr", c.Log)
			}
			// A stale entry (another version) warns, besides the log.
			c2 := New(dir, "v2")
			c2.Warn = warn
			if _, st, err := Get(c2, "train", cfg, 42, counter(&calls, want)); err != nil || st != Stale {
				t.Fatalf("status %v, %v; want Stale", st, err)
			}
			if !strings.Contains(warn.String(), "runcache: STALE entry") {
				t.Errorf("a stale entry did not warn: %q", warn)
			}
		})
	}
}

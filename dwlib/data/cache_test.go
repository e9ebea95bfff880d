package data

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCacheHitMissAndCorruption(t *testing.T) {
	dir := t.TempDir()
	c := smallNARMA()
	gens := 0
	gen := func() ([]Series, error) { gens++; return GenerateNARMA5(c) }
	key := c.cacheKey()
	path := cachePath(dir, "narma5", key)

	want, res, err := loadOrGenerate(dir, "narma5", key, gen)
	if err != nil || res != cacheMiss || gens != 1 {
		t.Fatalf("first call: result %v, generations %d, err %v; want a miss", res, gens, err)
	}
	got, res, err := loadOrGenerate(dir, "narma5", key, gen)
	if err != nil || res != cacheHit || gens != 1 {
		t.Fatalf("same parameters: result %v, generations %d, err %v; want a hit", res, gens, err)
	}
	assertSameSeries(t, got, want)

	corruptions := []struct {
		name string
		f    func(b []byte) []byte
	}{
		{"flipped payload byte", func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-100] }},
		{"flipped checksum", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }},
		{"empty", func([]byte) []byte { return nil }},
		{"other parameters", func([]byte) []byte {
			o := c
			o.BurnIn++
			s, _ := GenerateNARMA5(o)
			return encodeCache(s, o.cacheKey()) // valid file, wrong key
		}},
	}
	for _, cr := range corruptions {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, cr.f(b), 0o644); err != nil {
			t.Fatal(err)
		}
		before := gens
		got, res, err := loadOrGenerate(dir, "narma5", key, gen)
		if err != nil || res != cacheRejected || gens != before+1 {
			t.Fatalf("%s: result %v, regenerated %v, err %v; want rejected and regenerated", cr.name, res, gens > before, err)
		}
		assertSameSeries(t, got, want)
		// The rewritten file is valid again.
		if _, res, _ := loadOrGenerate(dir, "narma5", key, gen); res != cacheHit {
			t.Fatalf("%s: file not repaired (result %v)", cr.name, res)
		}
	}

	// Different parameters use a different file.
	o := c
	o.Seed++
	if cachePath(dir, "narma5", o.cacheKey()) == path {
		t.Error("different generation seeds share a cache file")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestLoadUsesCache goes through the registry: a second Load reads the file
// and yields the identical dataset, for drive-carrying and autonomous data.
func TestLoadUsesCache(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"driven-mg", "known-snr"} {
		opt := Options{CacheDir: dir, NumTraj: 6, Length: 50}
		a, err := Load(name, opt)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, name+"-*.bin"))
		if len(files) != 1 {
			t.Fatalf("%s: cache files %v, want one", name, files)
		}
		info, _ := os.Stat(files[0])
		b, err := Load(name, opt)
		if err != nil {
			t.Fatal(err)
		}
		info2, _ := os.Stat(files[0])
		if !info2.ModTime().Equal(info.ModTime()) {
			t.Errorf("%s: cache file rewritten on a hit", name)
		}
		assertSameSeries(t, a.Train, b.Train)
		assertSameSeries(t, a.Test, b.Test)
		opt.NoCache = true
		c, _ := Load(name, opt)
		assertSameSeries(t, a.Val, c.Val)
	}
}

func assertSameSeries(t *testing.T, a, b []Series) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d vs %d series", len(a), len(b))
	}
	for i := range a {
		if !rowsEqual(a[i].X, b[i].X) || !rowsEqual(a[i].Drive, b[i].Drive) || (a[i].Drive == nil) != (b[i].Drive == nil) {
			t.Fatalf("series %d differs", i)
		}
	}
}

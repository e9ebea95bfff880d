package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// leftovers lists the temporary files in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "config.json")
	for _, s := range []string{"first", "second"} {
		if err := Write(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != s {
			t.Fatalf("read %q, want %q", b, s)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if l := leftovers(t, filepath.Dir(path)); len(l) > 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

// TestFailedWriteLeavesNothing: a write that cannot be renamed into place (the target is a
// non-empty directory) fails and removes its temporary file.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "result.json")
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(target, []byte("{}"), 0o644); err == nil {
		t.Fatal("rename over a non-empty directory succeeded")
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("temporary files left after a failed write: %v", l)
	}
}

// TestConcurrentWriters: writers of one file never share a temporary name, so every write
// succeeds and the file always holds one whole write.
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				errs <- Write(path, []byte(fmt.Sprintf("writer %d write %d", w, i)), 0o644)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), "writer ") {
		t.Errorf("file holds %q", b)
	}
}

// TestWriteReplacesALink: a symbolic link under the target's name is replaced by the file, never
// written through: the file it pointed to is left as it was.
func TestWriteReplacesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "result.json")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		t.Fatalf("%s after Write: %v, %v; want a regular file", path, fi, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("%s holds %q", path, b)
	}
}

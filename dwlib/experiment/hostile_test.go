package experiment

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadConfigHostile is the hostile-input suite of issue 40 for -config files: a key given
// twice (encoding/json would keep the last silently), an oversized file, and names too long to
// name a directory are refused by name, before anything is built, and the error stays short.
func TestReadConfigHostile(t *testing.T) {
	cfg := quickCfg(t, "jreg", 2)
	js := cfg.JSON()
	dup := func(key, extra string) []byte { // the first "key": line followed by a second one
		i := bytes.Index(js, []byte(`"`+key+`":`))
		if i < 0 {
			t.Fatalf("no %q in %s", key, js)
		}
		return append(append(append([]byte{}, js[:i]...), fmt.Sprintf(`"%s": %s, `, key, extra)...), js[i:]...)
	}
	long := strings.Repeat("a", 5000)
	for _, tc := range []struct {
		name    string
		content []byte
		wants   []string
	}{
		{"epochs twice", dup("epochs", "1"), []string{`field "fit.epochs" is given twice`}},
		{"profile twice", dup("profile", `"other"`), []string{`field "profile" is given twice`}},
		{"file over the size limit", append(bytes.Repeat([]byte(" "), 2<<20), js...), []string{"bytes", "at most"}},
		{"long profile", editJSON(t, js, func(m map[string]any) { m["profile"] = long }), []string{"profile", "5000 bytes", "at most"}},
		{"long testbed", editJSON(t, js, func(m map[string]any) { m["testbed"] = long }), []string{"testbed", "5000 bytes", "at most"}},
		{"long method", editJSON(t, js, func(m map[string]any) { m["train"].(map[string]any)["method"] = long }), []string{"method", "5000 bytes", "at most"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.json")
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadConfig(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range append([]string{path}, tc.wants...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if len(err.Error()) > 1000 {
				t.Errorf("error of %d bytes: a refused value must not be echoed whole", len(err.Error()))
			}
		})
	}
}

// TestRunDirectoryFollowsNoSymlink (issue 40, defect 13): a symbolic link planted in a run
// directory under the name of a file the run writes (the lock, config.json, result.json, the
// checkpoints) is refused by name before anything is read or written through it: its target is
// left as it was, and so is the link.
func TestRunDirectoryFollowsNoSymlink(t *testing.T) {
	for _, name := range []string{LockFile, ConfigFile, ResultFile, CheckpointFile, BestFile} {
		t.Run(name, func(t *testing.T) {
			cfg := quickCfg(t, "full", 0)
			opt := quickOptions(t)
			dir, err := opt.Dir(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(t.TempDir(), "precious")
			const content = "not yours\n"
			if err := os.WriteFile(target, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, name)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			_, err = Run(cfg, opt)
			if b, _ := os.ReadFile(target); string(b) != content {
				t.Fatalf("the link's target was written: %q", b)
			}
			if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
				t.Fatalf("Run with a link named %s: %v, want a refusal naming %s as a symbolic link", name, err, link)
			}
			if fi, lerr := os.Lstat(link); lerr != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the refused link was removed or replaced: %v", lerr)
			}
		})
	}
}

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

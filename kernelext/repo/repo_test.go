package repo

import (
	"os"
	"path/filepath"
	"testing"
)

func TestModulePath(t *testing.T) {
	tests := []struct {
		name, gomod, want string
	}{
		{"plain", "module github.com/internal-dw/dwgo\n\ngo 1.26\n", ModulePath},
		{"quoted", "module \"github.com/internal-dw/dwgo\"\n", ModulePath},
		{"comment", "// header\nmodule github.com/internal-dw/dwgo // the project\n", ModulePath},
		{"other", "module github.com/internal-dw/dwgo/tools\n", "github.com/internal-dw/dwgo/tools"},
		{"none", "go 1.26\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := modulePath([]byte(tc.gomod)); got != tc.want {
				t.Errorf("modulePath(%q) = %q, want %q", tc.gomod, got, tc.want)
			}
		})
	}
}

// TestFindRoot builds root/{go.mod, tools/go.mod (nested module), a/b} and
// checks the walk-up from several starting points.
func TestFindRoot(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module "+ModulePath+"\n")
	write("tools/go.mod", "module "+ModulePath+"/tools\n")
	write("a/b/x.txt", "")

	for _, start := range []string{".", "a", "a/b", "tools"} {
		got, err := FindRoot(filepath.Join(root, start))
		if err != nil || got != root {
			t.Errorf("FindRoot(%s) = %q, %v; want %q", start, got, err, root)
		}
	}
	if _, err := FindRoot(t.TempDir()); err == nil {
		t.Errorf("FindRoot(outside) succeeded, want error")
	}

	t.Setenv(RootEnv, root)
	if got, err := Root(); err != nil || got != root {
		t.Errorf("Root() with $%s = %q, %v; want %q", RootEnv, got, err, root)
	}
	t.Setenv(RootEnv, filepath.Join(root, "tools"))
	if _, err := Root(); err == nil {
		t.Errorf("Root() with $%s pointing to a different module succeeded, want error", RootEnv)
	}
}

// TestRootOfThisCheckout checks the real checkout is found from this package.
func TestRootOfThisCheckout(t *testing.T) {
	t.Setenv(RootEnv, "")
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "kernelext", "repo", "repo.go")); err != nil {
		t.Errorf("Root() = %q does not contain kernelext/repo/repo.go: %v", root, err)
	}
}

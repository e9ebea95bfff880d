// Package repo locates the dwgo checkout on disk.
//
// Notebooks, tests and commands all run from different working directories
// (a notebook's kernel runs in notebooks/, a test in its package directory),
// but they must write figures and caches to the same places. Root finds the
// checkout by walking up to the go.mod that declares ModulePath, so paths
// such as <root>/figures do not depend on where the code happens to run.
package repo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the module path declared in the project's go.mod.
const ModulePath = "github.com/internal-dw/dwgo"

// RootEnv is the environment variable that, when set, overrides the search
// for the repository root. The gonb-dwgo kernel sets it (scripts/kernel/launch.sh).
const RootEnv = "DWGO_ROOT"

// Root returns the absolute path of the dwgo checkout.
//
// It uses $DWGO_ROOT when set (and valid), otherwise it walks up from the
// current working directory.
func Root() (string, error) {
	if env := os.Getenv(RootEnv); env != "" {
		if IsRoot(env) {
			return filepath.Abs(env)
		}
		return "", fmt.Errorf("repo: $%s=%q has no go.mod declaring module %s", RootEnv, env, ModulePath)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("repo: %w", err)
	}
	return FindRoot(wd)
}

// FindRoot walks up from start to the first directory whose go.mod declares
// module ModulePath. Nested modules (e.g. tools/) are skipped over.
func FindRoot(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("repo: %w", err)
	}
	for {
		if IsRoot(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("repo: no go.mod declaring module %s in %s or its parents", ModulePath, start)
		}
		dir = parent
	}
}

// IsRoot reports whether dir holds a go.mod declaring module ModulePath.
func IsRoot(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	return modulePath(data) == ModulePath
}

// Path joins elem onto the repository root, e.g. Path("figures", "fig1.svg").
func Path(elem ...string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{root}, elem...)...), nil
}

// modulePath extracts the module path from go.mod contents; "" if absent.
// A tiny parser is enough here and avoids a dependency on x/mod.
func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], "\"`")
		}
	}
	return ""
}

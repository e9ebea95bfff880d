package kernelext

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLibraryKnowsNoNotebook: no file under dwlib/ imports the notebook toolkit (this package) or
// the command line (cmd); they depend on the library, never the reverse. The test lives here, not
// in dwlib, so that the library's files never name the packages it must not depend on.
// module is this repository's module path.
const module = "github.com/internal-dw/dwgo"

func TestLibraryKnowsNoNotebook(t *testing.T) {
	root := filepath.Join("..", "dwlib")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, banned := range []string{module + "/kernelext", module + "/cmd"} {
				if p == banned || strings.HasPrefix(p, banned+"/") {
					t.Errorf("%s imports %s: the library must not depend on notebooks or the CLI", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("read only %d Go files under dwlib/: wrong root?", n)
	}
}

package resultsdoc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The files the generator reads and writes, relative to the repository root.
const (
	ResultsDir = "data/results"
	DocFile    = "docs/results.md"
	ReadmeFile = "README.md"
)

// Generate renders from root's data/results and returns the new contents of docs/results.md and
// README.md.
func Generate(root string) (doc, readme []byte, err error) {
	doc, block, err := Render(os.DirFS(filepath.Join(root, ResultsDir)))
	if err != nil {
		return nil, nil, err
	}
	old, err := os.ReadFile(filepath.Join(root, ReadmeFile))
	if err != nil {
		return nil, nil, err
	}
	readme, err = Splice(old, block)
	return doc, readme, err
}

// Write regenerates both files under root.
func Write(root string) error {
	doc, readme, err := Generate(root)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, DocFile), doc, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, ReadmeFile), readme, 0o644)
}

// ErrStale is returned by Check when a committed file differs from what the results give.
var ErrStale = errors.New("not what data/results gives: run dw results-doc")

// Check compares both files under root with what the results give, naming the first line that
// differs.
func Check(root string) error {
	doc, readme, err := Generate(root)
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range []struct {
		name string
		want []byte
	}{{DocFile, doc}, {ReadmeFile, readme}} {
		got, err := os.ReadFile(filepath.Join(root, f.name))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, f.want) {
			errs = append(errs, fmt.Errorf("%s is %w (first difference at line %d)", f.name, ErrStale, firstDiff(got, f.want)))
		}
	}
	return errors.Join(errs...)
}

func firstDiff(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

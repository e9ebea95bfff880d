package main

import (
	"errors"
	"fmt"

	"github.com/internal-dw/dwgo/cmd/dw/internal/resultsdoc"
	"github.com/internal-dw/dwgo/dwlib/data"
)

// cmdResultsDoc regenerates docs/results.md and the README's results block from data/results
// (or, with -check, says whether the committed ones are what the results give): the prose of both
// is a template in cmd/dw/internal/resultsdoc, every number is read from a committed summary.
func cmdResultsDoc(args []string) error {
	fs := newFlags("results-doc", "[-root DIR] [-check]")
	root := fs.String("root", "", "repository root (default: the one holding the working directory)")
	check := fs.Bool("check", false, "write nothing; exit 1 when docs/results.md or README.md's block differ from what data/results gives")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *root == "" {
		r, err := data.FindRepoRoot("")
		if err != nil {
			return err
		}
		*root = r
	}
	if *check {
		err := resultsdoc.Check(*root)
		if err == nil {
			fmt.Fprintf(stdout, "%s and %s are up to date with %s\n", resultsdoc.DocFile, resultsdoc.ReadmeFile, resultsdoc.ResultsDir)
		}
		return err
	}
	if err := resultsdoc.Write(*root); err != nil {
		return errors.Join(errors.New("results-doc"), err)
	}
	fmt.Fprintf(stdout, "wrote %s and the results block of %s from %s\n", resultsdoc.DocFile, resultsdoc.ReadmeFile, resultsdoc.ResultsDir)
	return nil
}

package main

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/experiment"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// cmdGraphs prints, for each selected run, one line per graph the run compiles (name, node count,
// input shapes) and a last line "largest: N nodes", building the graphs without compiling them:
// what a configuration costs on an XLA backend, where compiling takes about 1.4 ms per node.
func cmdGraphs(args []string) error {
	cs, rf, _, err := selectRuns("graphs", args, false)
	if err != nil {
		return err
	}
	for _, c := range cs {
		infos, engine, err := experiment.Graphs(c, rf.options())
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: engine %s, backend %s, %d graphs\n", c.Name(), engine, backend.Config(), len(infos))
		for _, g := range infos {
			fmt.Fprintf(stdout, "  %v\n", g)
		}
		fmt.Fprintf(stdout, "largest: %d nodes\n", train.Largest(infos))
	}
	return nil
}

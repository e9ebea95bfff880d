package experiment

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/train"
)

// Graphs lists, without compiling them, the graphs a run of cfg compiles on the process backend
// (opt.Backend, else $GOMLX_BACKEND): its training step's on the engine the run would use
// (train.ResolveEngine: $DW_ENGINE, else steps on XLA and unrolled on the pure-Go backend) and its
// evaluation's (validation at the training context and horizon K, test at the test context and
// HEval). It loads the run's data (for its dimensions) and returns the engine with the graphs.
func Graphs(cfg RunConfig, opt Options) ([]train.GraphInfo, string, error) {
	ds, f, err := setupModel(cfg, opt)
	if err != nil {
		return nil, "", err
	}
	bk, err := opt.backend()
	if err != nil {
		return nil, "", err
	}
	engine, err := train.ResolveEngine(bk, cfg.Train.Engine)
	if err != nil {
		return nil, "", err
	}
	fit := cfg.Fit.Defaults()
	batch := cfg.Train.Defaults().BatchSize
	if fit.Grouping == train.GroupTrajectories {
		batch = min(fit.MicroTrajectories, len(ds.Train)) * fit.StartsPerUnit
	}
	spec := train.GraphSpec{Batch: batch, EvalBatch: fit.EvalBatch,
		Eval: [][2]int{{f.Spec().Window, cfg.Train.K}, {cfg.EvalWindow, cfg.HEval}}}
	infos, err := train.Graphs(bk, f, cfg.Train, spec)
	if err != nil {
		return nil, "", fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	return infos, engine, nil
}

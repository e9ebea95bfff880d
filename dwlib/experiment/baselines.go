package experiment

import "github.com/internal-dw/dwgo/dwlib/baseline"

// BaselineProtocol is the evaluation protocol of a run as dwlib/baseline takes it: the run's test
// context, unused leading steps, horizon and origins, so a baseline's test rel-L2 is directly
// comparable with the run's.
func BaselineProtocol(cfg RunConfig) baseline.Protocol {
	return baseline.Protocol{BurnIn: cfg.EvalBurnIn, History: cfg.EvalWindow, H: cfg.HEval, MaxOrigins: cfg.EvalOrigins}
}

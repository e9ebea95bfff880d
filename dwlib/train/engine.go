package train

import (
	"fmt"
	"os"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// Engines (Config.Engine): how a rollout becomes compiled graphs.
//
// EngineUnrolled builds each microbatch's whole rollout (context, K steps, the backward pass and,
// for Internal-DW's calibration, both probes) as one graph: graphs grow with K (about 46 000
// nodes for a Full gradient and 99 000 for a DW calibration at Mamba-128, K = 64) but every call is
// one dispatch, which suits GoMLX's pure-Go backend, where compiling is cheap.
//
// EngineSteps compiles one rollout step (forward; backward with the parameter-gradient
// accumulation; the probes) and runs the rollout as a Go loop of calls (steps_graph.go): every
// graph is a few thousand nodes whatever K, the context or the horizon, which is what an XLA
// backend needs (compilation costs about 1.4 ms a node there), at the price of recomputing each
// step once in the backward pass. Both give the same numbers up to the summation order (tested
// in float64 to 1e-12).
const (
	EngineAuto     = ""
	EngineUnrolled = "unrolled"
	EngineSteps    = "steps"
)

// EngineEnv names the environment variable that chooses the engine when Config.Engine is
// EngineAuto: "steps" or "unrolled". Unset, the pure-Go backend gets the unrolled graphs and every
// other backend (XLA) the step engine.
const EngineEnv = "DW_ENGINE"

// ResolveEngine returns the engine a run with configured engine (Config.Engine) uses on bk.
func ResolveEngine(bk compute.Backend, engine string) (string, error) {
	source := "Config.Engine"
	if engine == EngineAuto {
		engine, source = os.Getenv(EngineEnv), EngineEnv
	}
	switch engine {
	case EngineUnrolled, EngineSteps:
		return engine, nil
	case "":
		if bk != nil && !backend.IsGo(bk) {
			return EngineSteps, nil
		}
		return EngineUnrolled, nil
	}
	return "", fmt.Errorf("train: %s = %q, must be %q or %q", source, engine, EngineSteps, EngineUnrolled)
}

// stepperOf returns m as a model.Stepper, or an error naming the model.
func stepperOf(m Model) (model.Stepper, error) {
	s, ok := m.(model.Stepper)
	if !ok {
		return nil, fmt.Errorf("train: the step engine needs a model.Stepper; %T is not one (use %s=%s)", m, EngineEnv, EngineUnrolled)
	}
	return s, nil
}

// truncateEvery is TBPTT's segment length, 0 for every other method.
func (c Config) truncateEvery() int {
	if c.Method == "tbptt" {
		return c.Segment
	}
	return 0
}

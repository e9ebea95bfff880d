package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The control methods (Clip, JReg, TBPTT, Static) each have one hyperparameter that the paper
// selects on seed-0 validation loss and then fixes across seeds (App. "Selection of Clip, JReg,
// TBPTT, Static"; Table 4 lists the values it chose). A profile resolves each to Table 4's value
// (paperControls); SelectControls runs the grid. A run with another value is another run: its
// value joins its name, so it never shares a directory, a checkpoint or an archived result with
// the profile's run, while the profile's own value keeps the name every archived run has.

// controlField describes the hyperparameter of one control method.
type controlField struct {
	json string // its name in config.json, for messages
	tag  string // what precedes the value in a run name: clip-c0.3
	get  func(RunConfig) float64
	set  func(*RunConfig, float64)
}

var controlFields = map[string]controlField{
	"clip": {"train.clip_norm", "c",
		func(c RunConfig) float64 { return c.Train.ClipNorm }, func(c *RunConfig, v float64) { c.Train.ClipNorm = v }},
	"jreg": {"train.jreg_coef", "coef",
		func(c RunConfig) float64 { return c.Train.JRegCoef }, func(c *RunConfig, v float64) { c.Train.JRegCoef = v }},
	"tbptt": {"train.segment", "seg",
		func(c RunConfig) float64 { return float64(c.Train.Segment) }, func(c *RunConfig, v float64) { c.Train.Segment = int(v) }},
	"static": {"train.static_gain", "c",
		func(c RunConfig) float64 { return c.Train.StaticGain }, func(c *RunConfig, v float64) { c.Train.StaticGain = v }},
}

// ControlMethods lists the methods with a selected hyperparameter, in Table 4's order.
func ControlMethods() []string { return []string{"clip", "jreg", "tbptt", "static"} }

// ControlGrid is the paper's candidate values of method's hyperparameter for training horizon K:
// Clip {0.1, 0.3, 1.0}, JReg {0.01, 0.1, 1.0}, Static c {0.3, 0.6, 0.9}, and TBPTT segments
// {K/4, K/2}: the paper's {8, 16} at K = 32 (Mackey–Glass) and {16, 32} at K = 64 (ETT), kept as
// fractions of the rollout when a profile changes K (the quick profile's K = 8: {2, 4}).
func ControlGrid(method string, K int) ([]float64, error) {
	switch method {
	case "clip":
		return []float64{0.1, 0.3, 1.0}, nil
	case "jreg":
		return []float64{0.01, 0.1, 1.0}, nil
	case "static":
		return []float64{0.3, 0.6, 0.9}, nil
	case "tbptt":
		if K < 4 {
			return nil, fmt.Errorf("experiment: TBPTT segments K/4 and K/2 need K >= 4, not %d", K)
		}
		return []float64{float64(K / 4), float64(K / 2)}, nil
	}
	return nil, fmt.Errorf("experiment: method %q has no selected hyperparameter; control methods: %s", method, strings.Join(ControlMethods(), ", "))
}

// table4 is the paper's Table 4 ("Validation-selected hyperparameters") for the testbeds this
// project has; NaN is the table's dash (not evaluated). Driven MG and known-SNR are not in it.
var table4 = map[string]map[string]float64{
	"mackey-glass": {"clip": 1.0, "jreg": 1.0, "tbptt": 8, "static": 0.6},
	"ettm1":        {"clip": 0.3, "jreg": 1.0, "tbptt": 32, "static": 0.3},
	"ettm2":        {"clip": 0.3, "jreg": 1.0, "tbptt": 32, "static": 0.6},
	"narma5":       {"clip": 0.1, "jreg": 1.0, "tbptt": math.NaN(), "static": math.NaN()},
}

// Table4Value is the value the paper's Table 4 gives method on testbed (false: not in the table).
func Table4Value(testbed, method string) (float64, bool) {
	v, ok := table4[testbed][method]
	return v, ok && !math.IsNaN(v)
}

// ResolveControl is Resolve with the control method's hyperparameter set to value (Clip's
// threshold, JReg's coefficient, TBPTT's segment, Static's c) instead of the profile's. A value
// other than the profile's names a run of its own (clip-c0.3-K32-s0).
func ResolveControl(profile, testbed, method string, seed uint64, K int, value float64) (RunConfig, error) {
	f, ok := controlFields[method]
	if !ok {
		return RunConfig{}, fmt.Errorf("experiment: method %q has no selected hyperparameter; control methods: %s", method, strings.Join(ControlMethods(), ", "))
	}
	if !(value > 0) || math.IsInf(value, 0) || method == "tbptt" && value != math.Trunc(value) {
		return RunConfig{}, fmt.Errorf("experiment: %s %v for %s: want a positive finite number (a whole number of steps for a segment)", f.json, value, method)
	}
	c, err := Resolve(profile, testbed, method, seed, K)
	if err != nil {
		return RunConfig{}, err
	}
	f.set(&c, value)
	if err := c.Validate(); err != nil {
		return RunConfig{}, err
	}
	return c, nil
}

// ControlValue is the run's control hyperparameter (false for a method without one).
func (c RunConfig) ControlValue() (float64, bool) {
	f, ok := controlFields[c.Train.Method]
	if !ok {
		return 0, false
	}
	return f.get(c), true
}

// profileControl is the value the run's profile gives its method's hyperparameter at its K (false
// when the profile is not one of Profiles, e.g. a configuration file's own name, or the method
// has none).
func (c RunConfig) profileControl() (float64, bool) {
	f, ok := controlFields[c.Train.Method]
	if !ok || !slices.Contains(Profiles(), c.Profile) {
		return 0, false
	}
	def, err := resolveUnchecked(c.Profile, c.Testbed, c.Data.CSV, c.Train.Method, c.Seed, c.Train.K)
	if err != nil {
		return 0, false
	}
	return f.get(def), true
}

// controlSuffix is "-<tag><value>" when the run's control value is not its profile's, else "".
// Only the profile's own value keeps the plain name, so every run named before selection existed
// (all of them at the profile's values) keeps its directory.
func (c RunConfig) controlSuffix() string {
	v, ok := c.ControlValue()
	if !ok {
		return ""
	}
	def, ok := c.profileControl()
	if !ok || def == v {
		return ""
	}
	return "-" + controlFields[c.Train.Method].tag + strconv.FormatFloat(v, 'g', -1, 64)
}

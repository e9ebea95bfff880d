package experiment

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/internal/atomicfile"
)

// SelectionSeed is the seed whose validation loss selects the controls (the paper's seed 0).
const SelectionSeed = 0

// Candidate is one value of a control's grid and its seed-0 run.
type Candidate struct {
	Value   float64 `json:"value"`
	Run     string  `json:"run"`                // the run's name (profile/testbed/method-...-K-s0)
	BestVal float64 `json:"best_val,omitempty"` // the run's best validation loss (Result.BestVal)
	Missing string  `json:"missing,omitempty"`  // why the run has no result ("" when it has one)
}

// Choice is the selection of one control method on one testbed.
type Choice struct {
	Profile      string      `json:"profile"`
	Testbed      string      `json:"testbed"`
	Method       string      `json:"method"`
	Field        string      `json:"field"` // the hyperparameter, as in config.json
	K            int         `json:"K"`
	Candidates   []Candidate `json:"candidates"`
	Selected     float64     `json:"selected"`
	ProfileValue float64     `json:"profile_value"`    // what the profile runs without selection
	Table4       *float64    `json:"table4,omitempty"` // the paper's Table 4 (nil: not in it)
}

// Selection is the outcome of SelectControls, one Choice per testbed and method in the order asked.
type Selection struct {
	Profile string   `json:"profile"`
	Choices []Choice `json:"choices"`
}

// SelectControls runs the paper's control selection: for each testbed and control method (Clip,
// JReg, TBPTT, Static) the seed-0 runs of ControlGrid at the profile's K, then the value with the
// lowest best validation loss (pickControl). Finished runs, here or in the archive, are read back
// and interrupted ones resumed (Resume is set unless opt.Force), so a second call trains nothing.
// Each choice is written next to its runs, <runs>/<profile>/<testbed>/select-<method>-K<K>.json.
// A candidate that failed is an error naming it, with the selection of the others still returned.
func SelectControls(opt Options, profile string, testbeds, methods []string) (*Selection, error) {
	sel, cfgs, err := SelectionPlan(profile, testbeds, methods)
	if err != nil {
		return nil, err
	}
	jobs := make([]Job, len(cfgs))
	for i, c := range cfgs {
		jobs[i] = Job{Testbed: c.Testbed, Method: c.Train.Method, Seed: c.Seed}
	}
	if !opt.Force {
		opt.Resume = true
	}
	outs, err := sweepConfigs(profile, jobs, cfgs, opt)
	if err != nil {
		return nil, err
	}
	byName := map[string]Outcome{}
	for _, o := range outs {
		byName[o.Config.Name()] = o
	}
	var errs []string
	for i := range sel.Choices {
		ch := &sel.Choices[i]
		for j := range ch.Candidates {
			cand := &ch.Candidates[j]
			switch o, ok := byName[cand.Run]; {
			case !ok:
				cand.Missing = "not run"
			case o.Err != nil:
				cand.Missing = o.Err.Error()
			case o.Result == nil:
				cand.Missing = "no result"
			default:
				cand.BestVal = o.Result.BestVal
			}
		}
		v, err := pickControl(ch.ProfileValue, ch.Candidates)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s %s: %v", ch.Testbed, ch.Method, err))
			continue
		}
		ch.Selected = v
		if err := writeChoice(opt, *ch); err != nil {
			return sel, err
		}
	}
	if len(errs) > 0 {
		return sel, fmt.Errorf("experiment: control selection incomplete: %s", strings.Join(errs, "; "))
	}
	return sel, nil
}

// ReadSelection is the selection as far as the finished candidates reach, training nothing: each
// candidate's seed-0 run is read back from its run directory or the archive (ReadFinished), one
// without a result is marked Missing "not finished", and a choice is made (Selected) only when
// every candidate of its grid has a validation loss; until then Selected is NaN. It shows a
// selection that runs over several sessions or jobs where it stands; a damaged result is an error.
func ReadSelection(opt Options, profile string, testbeds, methods []string) (*Selection, error) {
	sel, cfgs, err := SelectionPlan(profile, testbeds, methods)
	if err != nil {
		return nil, err
	}
	byName := map[string]RunConfig{}
	for _, c := range cfgs {
		byName[c.Name()] = c
	}
	for i := range sel.Choices {
		ch := &sel.Choices[i]
		for j := range ch.Candidates {
			cand := &ch.Candidates[j]
			r, _, err := ReadFinished(byName[cand.Run], opt)
			switch {
			case err != nil:
				return nil, err
			case r == nil:
				cand.Missing = "not finished"
			default:
				cand.BestVal = r.BestVal
			}
		}
		ch.Selected = math.NaN()
		if v, err := pickControl(ch.ProfileValue, ch.Candidates); err == nil {
			ch.Selected = v
		}
	}
	return sel, nil
}

// SelectionPlan is what SelectControls runs, without running it: the choices to make (no values
// yet) and the configurations of their candidates' seed-0 runs, in testbed, method, value order.
// Names are checked here, so a bad one fails before anything trains.
func SelectionPlan(profile string, testbeds, methods []string) (*Selection, []RunConfig, error) {
	if len(testbeds) == 0 || len(methods) == 0 {
		return nil, nil, fmt.Errorf("experiment: control selection: no testbed or no method (testbeds %q, methods %q)", testbeds, methods)
	}
	for _, l := range [][]string{testbeds, methods} {
		for i, v := range l {
			if slices.Contains(l[:i], v) {
				return nil, nil, fmt.Errorf("experiment: control selection: %q is given twice (its runs would train twice at once)", v)
			}
		}
	}
	var cfgs []RunConfig
	sel := &Selection{Profile: profile}
	for _, tb := range testbeds {
		for _, m := range methods {
			ch, err := newChoice(profile, tb, m)
			if err != nil {
				return nil, nil, err
			}
			for _, cand := range ch.Candidates {
				c, err := ResolveControl(profile, tb, m, SelectionSeed, 0, cand.Value)
				if err != nil {
					return nil, nil, err
				}
				cfgs = append(cfgs, c)
			}
			sel.Choices = append(sel.Choices, ch)
		}
	}
	return sel, cfgs, nil
}

// newChoice lists the grid of method on testbed under profile, each candidate with its run name.
func newChoice(profile, testbed, method string) (Choice, error) {
	def, err := Resolve(profile, testbed, method, SelectionSeed, 0)
	if err != nil {
		return Choice{}, err
	}
	f, ok := controlFields[method]
	if !ok {
		return Choice{}, fmt.Errorf("experiment: method %q has no selected hyperparameter; control methods: %s", method, strings.Join(ControlMethods(), ", "))
	}
	grid, err := ControlGrid(method, def.Train.K)
	if err != nil {
		return Choice{}, err
	}
	ch := Choice{Profile: def.Profile, Testbed: testbed, Method: method, Field: f.json, K: def.Train.K, ProfileValue: f.get(def)}
	if v, ok := Table4Value(testbed, method); ok {
		ch.Table4 = &v
	}
	for _, v := range grid {
		c, err := ResolveControl(profile, testbed, method, SelectionSeed, 0, v)
		if err != nil {
			return Choice{}, err
		}
		ch.Candidates = append(ch.Candidates, Candidate{Value: v, Run: c.Name()})
	}
	return ch, nil
}

// pickControl is the value with the lowest best validation loss. Ties go to the profile's own
// value (def), which then keeps its existing runs, and otherwise to the smaller value, the weaker
// intervention. A candidate without a result is an error naming every such candidate: a
// selection over part of the grid is not the paper's selection.
func pickControl(def float64, cands []Candidate) (float64, error) {
	if len(cands) == 0 {
		return 0, fmt.Errorf("no candidates")
	}
	var missing []string
	for _, c := range cands {
		switch {
		case c.Missing != "":
			missing = append(missing, fmt.Sprintf("%s (%s)", c.Run, c.Missing))
		case math.IsNaN(c.BestVal):
			missing = append(missing, fmt.Sprintf("%s (validation loss NaN)", c.Run))
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("%d of %d candidates have no validation loss: %s", len(missing), len(cands), strings.Join(missing, ", "))
	}
	best := slices.MinFunc(cands, func(a, b Candidate) int {
		switch {
		case a.BestVal != b.BestVal:
			return cmp.Compare(a.BestVal, b.BestVal)
		case (a.Value == def) != (b.Value == def):
			if a.Value == def {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Value, b.Value)
	})
	return best.Value, nil
}

// ChoiceFile is where a Choice is kept: beside its runs, one file per method and K.
func ChoiceFile(opt Options, profile, testbed, method string, K int) (string, error) {
	c, err := Resolve(profile, testbed, method, SelectionSeed, K)
	if err != nil {
		return "", err
	}
	dir, err := opt.Dir(c)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dir), fmt.Sprintf("select-%s-K%d.json", method, c.Train.K)), nil
}

func writeChoice(opt Options, ch Choice) error {
	path, err := ChoiceFile(opt, ch.Profile, ch.Testbed, ch.Method, ch.K)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(ch, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o644)
}

// Markdown is the selection as a table: each candidate's seed-0 validation loss (the selected one
// in bold), the selected value, the profile's value and Table 4's.
func (s *Selection) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Control selection (%s profile): seed-%d best validation loss per candidate; the lowest is selected\n\n", s.Profile, SelectionSeed)
	b.WriteString("| testbed | method | K | candidates (val loss) | selected | profile's value | Table 4 (at the paper's K) |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, ch := range s.Choices {
		var cs []string
		for _, c := range ch.Candidates {
			val := "—"
			if c.Missing == "" {
				val = fmt.Sprintf("%.5f", c.BestVal)
			}
			cell := fmt.Sprintf("%s: %s", fmtControl(c.Value), val)
			if c.Missing == "" && c.Value == ch.Selected {
				cell = "**" + cell + "**"
			}
			cs = append(cs, cell)
		}
		selected := "—"
		if slices.ContainsFunc(ch.Candidates, func(c Candidate) bool { return c.Missing == "" && c.Value == ch.Selected }) {
			selected = fmtControl(ch.Selected)
		}
		t4 := "—"
		if ch.Table4 != nil {
			t4 = fmtControl(*ch.Table4)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s |\n", ch.Testbed, ch.Method, ch.K, strings.Join(cs, ", "), selected, fmtControl(ch.ProfileValue), t4)
	}
	return b.String()
}

func fmtControl(v float64) string { return fmt.Sprintf("%g", v) }

// RunSelected runs the selected values on seeds (the paper fixes them across its three seeds):
// one run per choice and seed. A selected value that is the profile's own names the runs that
// exist already, which are read back; another value trains runs of its own name.
func RunSelected(opt Options, sel *Selection, seeds []uint64) ([]Outcome, error) {
	var jobs []Job
	var cfgs []RunConfig
	for _, ch := range sel.Choices {
		if !slices.ContainsFunc(ch.Candidates, func(c Candidate) bool { return c.Missing == "" && c.Value == ch.Selected }) {
			continue // no selection was made
		}
		for _, s := range seeds {
			c, err := ResolveControl(sel.Profile, ch.Testbed, ch.Method, s, ch.K, ch.Selected)
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, Job{Testbed: ch.Testbed, Method: ch.Method, Seed: s})
			cfgs = append(cfgs, c)
		}
	}
	if len(jobs) == 0 {
		return nil, ErrNoJobs
	}
	if !opt.Force {
		opt.Resume = true
	}
	return sweepConfigs(sel.Profile, jobs, cfgs, opt)
}

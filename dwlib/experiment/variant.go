package experiment

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

// VariantSeed is the seed whose validation loss chooses the DW variant (Section 3.3, App.
// "Selection of ... DW variants": "chosen by seed-0 validation loss and fixed across seeds").
const VariantSeed = 0

// VariantChoice records how the DW variant (the noise sampler) of one testbed and K was chosen:
// every candidate's seed-0 run and best validation loss, and the winner that every seed of the
// sweep then ran with. It is written as JSON next to the runs (VariantFile).
type VariantChoice struct {
	Profile    string             `json:"profile"`
	Testbed    string             `json:"testbed"`
	K          int                `json:"K"`
	Seed       uint64             `json:"seed"` // VariantSeed
	Candidates []VariantCandidate `json:"candidates"`
	Winner     string             `json:"winner"` // "" when every candidate failed
}

// VariantCandidate is one sampler's seed-0 run.
type VariantCandidate struct {
	Sampler string  `json:"sampler"`
	Run     string  `json:"run"`                // its directory, RunConfig.Name
	BestVal float64 `json:"best_val,omitempty"` // its best validation loss
	Error   string  `json:"error,omitempty"`    // why it has no loss
}

// VariantFile is the choice's file: <runs>/<profile>/<testbed>/dw-variant-K<K>.json.
func VariantFile(runsDir string, c VariantChoice) string {
	return filepath.Join(runsDir, c.Profile, c.Testbed, fmt.Sprintf("dw-variant-K%d.json", c.K))
}

// ParseVariantCandidates reads "choose:a,b,..." (the -sampler value that asks for the choice)
// into its samplers: at least two, each a registered noise sampler, none twice. ok is false
// when s does not ask for a choice.
func ParseVariantCandidates(s string) (cands []string, ok bool, err error) {
	rest, ok := strings.CutPrefix(s, "choose:")
	if !ok {
		return nil, false, nil
	}
	for _, c := range strings.Split(rest, ",") {
		c = strings.TrimSpace(c)
		switch {
		case !slices.Contains(noise.Names(), c):
			return nil, true, fmt.Errorf("experiment: %q: candidate sampler %q; valid samplers: %s", s, c, strings.Join(noise.Names(), ", "))
		case slices.Contains(cands, c):
			return nil, true, fmt.Errorf("experiment: %q: sampler %q is given twice", s, c)
		}
		cands = append(cands, c)
	}
	if len(cands) < 2 {
		return nil, true, fmt.Errorf("experiment: %q: a choice needs at least two samplers", s)
	}
	return cands, true, nil
}

// SweepChoosingVariant is Sweep with the DW variant chosen as the paper does: for each testbed
// and K of the dw jobs, seed VariantSeed runs once with every candidate sampler; the candidate
// with the lowest best validation loss (ties: the first listed) is the winner, and every dw job of
// that testbed and K runs with it (its seed-0 run is the one already trained). The other methods
// run as in Sweep. The outcomes are the jobs' (in job order); the choices are written to
// VariantFile under opt.RunsDir and returned. A candidate whose run fails is recorded with its
// error and not chosen; when every candidate fails, the group's dw jobs fail with that reason.
// The seed-0 runs of the losing candidates stay in their own directories (dw-<sampler>-K…-s0).
func SweepChoosingVariant(profile string, jobs []Job, candidates []string, opt Options) ([]Outcome, []VariantChoice, error) {
	if len(candidates) < 2 {
		return nil, nil, fmt.Errorf("experiment: a variant choice needs at least two samplers, got %v", candidates)
	}
	cfgs, err := ResolveJobs(profile, jobs)
	if err != nil {
		return nil, nil, err
	}
	// The groups: one per testbed and resolved K of the dw jobs, in job order.
	type group struct {
		testbed string // with the data suffix (channels, participant)
		K       int
		job     Job // the first job of the group: its testbed, K and data
	}
	var groups []group
	groupOf := make([]int, len(jobs))
	for i, c := range cfgs {
		groupOf[i] = -1
		if c.Train.Method != "dw" {
			continue
		}
		tb := c.Testbed + c.dataSuffix()
		g := slices.IndexFunc(groups, func(g group) bool { return g.testbed == tb && g.K == c.Train.K })
		if g < 0 {
			groups = append(groups, group{testbed: tb, K: c.Train.K, job: jobs[i]})
			g = len(groups) - 1
		}
		groupOf[i] = g
	}
	if len(groups) == 0 {
		return nil, nil, fmt.Errorf("experiment: a variant choice needs dw jobs; the sweep has none")
	}
	// Phase 1: seed 0 with every candidate.
	var seedJobs []Job
	for _, g := range groups {
		for _, s := range candidates {
			j := g.job
			j.Method, j.Seed, j.Sampler = "dw", VariantSeed, s
			seedJobs = append(seedJobs, j)
		}
	}
	seedCfgs, err := ResolveJobs(profile, seedJobs)
	if err != nil {
		return nil, nil, err
	}
	seedOuts, err := sweepConfigs(profile, seedJobs, seedCfgs, opt)
	if err != nil {
		return nil, nil, err
	}
	root := opt.RunsDir
	if root == "" {
		if root, err = DefaultRunsDir(); err != nil {
			return nil, nil, err
		}
	}
	choices := make([]VariantChoice, len(groups))
	for gi, g := range groups {
		ch := VariantChoice{Profile: profile, Testbed: g.testbed, K: g.K, Seed: VariantSeed}
		best := 0.0
		for ci, s := range candidates {
			o := seedOuts[gi*len(candidates)+ci]
			vc := VariantCandidate{Sampler: s, Run: o.Config.Name()}
			if o.Err != nil {
				vc.Error = o.Err.Error()
			} else {
				vc.BestVal = o.Result.BestVal
				if ch.Winner == "" || vc.BestVal < best {
					ch.Winner, best = s, vc.BestVal
				}
			}
			ch.Candidates = append(ch.Candidates, vc)
		}
		b, _ := json.MarshalIndent(ch, "", "  ")
		path := VariantFile(root, ch)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, nil, err
		}
		if err := writeFileAtomic(path, append(b, '\n')); err != nil {
			return nil, nil, err
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "%s/%s K=%d: DW variant %q chosen by seed-%d validation loss (%s); written to %s\n",
				profile, g.testbed, g.K, ch.Winner, VariantSeed, ch.summary(), path)
		}
		choices[gi] = ch
	}
	// Phase 2: every job, the dw ones with their group's winner.
	out := make([]Outcome, len(jobs))
	var runJobs []Job
	var runCfgs []RunConfig
	var at []int
	for i, j := range jobs {
		if g := groupOf[i]; g >= 0 {
			if choices[g].Winner == "" {
				out[i] = Outcome{Job: j, Config: cfgs[i], Err: fmt.Errorf("experiment: no DW variant for %s K=%d: every candidate's seed-%d run failed (%s)", choices[g].Testbed, choices[g].K, VariantSeed, choices[g].summary())}
				continue
			}
			j.Sampler = choices[g].Winner
			cfgs[i].Train.Sampler = choices[g].Winner
		}
		runJobs, runCfgs, at = append(runJobs, j), append(runCfgs, cfgs[i]), append(at, i)
	}
	if len(runJobs) > 0 {
		outs, err := sweepConfigs(profile, runJobs, runCfgs, opt)
		if err != nil {
			return outs, choices, err // interrupted: the runs that started, as Sweep returns them
		}
		for k, o := range outs {
			out[at[k]] = o
		}
	}
	return out, choices, nil
}

// summary lists the candidates' losses for logs and errors.
func (c VariantChoice) summary() string {
	var parts []string
	for _, v := range c.Candidates {
		if v.Error != "" {
			parts = append(parts, fmt.Sprintf("%s failed: %s", v.Sampler, v.Error))
		} else {
			parts = append(parts, fmt.Sprintf("%s %.5g", v.Sampler, v.BestVal))
		}
	}
	return strings.Join(parts, ", ")
}

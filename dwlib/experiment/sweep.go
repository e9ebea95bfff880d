package experiment

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/noise"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// Job is one run of a sweep; K = 0 means the profile's K for the testbed. With Data, the job runs
// on that CSV data set (Testbed is then its name, Data.Testbed()).
type Job struct {
	Testbed string   `json:"testbed"`
	Method  string   `json:"method"`
	Seed    uint64   `json:"seed"`
	K       int      `json:"K,omitempty"`
	Data    *CSVData `json:"data,omitempty"`
	// Sampler is the DW noise sampler of a dw job ("": the profile's); other methods ignore it.
	Sampler string `json:"sampler,omitempty"`
	// Channels and Participant set data.channels and data.participant (ieeg-synth, fmri-synth;
	// Participant also for manifests); 0: the defaults.
	Channels    int `json:"channels,omitempty"`
	Participant int `json:"participant,omitempty"`
}

func (j Job) String() string {
	k := ""
	if j.K > 0 {
		k = fmt.Sprintf(" K=%d", j.K)
	}
	if j.Sampler != "" && j.Method == "dw" {
		k += " " + j.Sampler
	}
	if j.Channels != 0 {
		k += fmt.Sprintf(" c%d", j.Channels)
	}
	if j.Participant != 0 {
		k += fmt.Sprintf(" p%d", j.Participant)
	}
	return fmt.Sprintf("%s %s s%d%s", j.Testbed, j.Method, j.Seed, k)
}

// Grid is the cross product testbeds × methods × seeds × Ks (Ks empty: the profile's K). With
// Data, the grid runs on that CSV data set instead of Testbeds.
type Grid struct {
	Testbeds, Methods []string
	Seeds             []uint64
	Ks                []int
	Data              *CSVData
}

// Jobs lists the grid's runs in testbed, method, seed, K order.
func (g Grid) Jobs() []Job {
	ks := g.Ks
	if len(ks) == 0 {
		ks = []int{0}
	}
	testbeds := g.Testbeds
	if g.Data != nil {
		testbeds = []string{g.Data.Testbed()}
	}
	var out []Job
	for _, tb := range testbeds {
		for _, m := range g.Methods {
			for _, s := range g.Seeds {
				for _, k := range ks {
					out = append(out, Job{Testbed: tb, Method: m, Seed: s, K: k, Data: g.Data})
				}
			}
		}
	}
	return out
}

// Presets are named job lists:
//
//	table      the table: Mackey–Glass, NARMA-5 and driven MG; Full and DW for seeds 0–2;
//	           Clip, JReg, TBPTT and Static for seed 0 (30 runs)
//	known-snr  the known-SNR forecasting panel: Full, Clip, JReg, TBPTT, DW for seeds 0–2 (15 runs)
//	ett        ETTm1 and ETTm2 like "table" (20 runs; needs ../shared/data/ett)
var presetNames = []string{"table", "known-snr", "ett"}

// PresetNames lists the presets.
func PresetNames() []string { return slices.Clone(presetNames) }

// Preset returns the jobs of a named preset.
func Preset(name string) ([]Job, error) {
	table := func(testbeds ...string) []Job {
		var jobs []Job
		for _, tb := range testbeds {
			jobs = append(jobs, Grid{Testbeds: []string{tb}, Methods: []string{"full", "dw"}, Seeds: []uint64{0, 1, 2}}.Jobs()...)
			jobs = append(jobs, Grid{Testbeds: []string{tb}, Methods: []string{"clip", "jreg", "tbptt", "static"}, Seeds: []uint64{0}}.Jobs()...)
		}
		return jobs
	}
	switch name {
	case "table":
		return table("mackey-glass", "narma5", "driven-mg"), nil
	case "known-snr":
		return Grid{Testbeds: []string{"known-snr"}, Methods: []string{"full", "clip", "jreg", "tbptt", "dw"}, Seeds: []uint64{0, 1, 2}}.Jobs(), nil
	case "ett":
		return table("ettm1", "ettm2"), nil
	}
	return nil, fmt.Errorf("experiment: unknown preset %q; valid presets: %s", name, strings.Join(presetNames, ", "))
}

// Outcome is one job's run: its result, or the error that stopped it.
type Outcome struct {
	Job    Job
	Config RunConfig
	Result *Result
	Err    error
}

// PlannedBatches is the number of training minibatches a run does if patience never stops it.
func PlannedBatches(cfg RunConfig) int {
	var units int
	n, _ := defaultSizes(cfg.Testbed)
	switch {
	case cfg.Data.CSV != nil:
		units = csvTrainUnits(cfg)
	case cfg.Data.Manifest != nil:
		units = cfg.Data.Manifest.TrainUnits
	case n == 0: // ETT: non-overlapping units of the training rows
		units = data.ETTTrainRows / cfg.unitLength()
	case cfg.Testbed == "ieeg-synth": // every recording's training chunks
		if cfg.Data.NumTraj > 0 {
			n = cfg.Data.NumTraj
		}
		p, _ := data.IEEGSplitPlan(cfg.Data.Length)
		units = n * len(p.Train)
	default:
		if cfg.Data.NumTraj > 0 {
			n = cfg.Data.NumTraj
		}
		units, _, _, _ = data.SplitCounts(n)
	}
	if cfg.Data.MaxUnits > 0 {
		units = min(units, cfg.Data.MaxUnits)
	}
	if cfg.Fit.Grouping == train.GroupTrajectories {
		return cfg.Fit.Epochs * ((units + cfg.Fit.MicroTrajectories - 1) / cfg.Fit.MicroTrajectories)
	}
	return cfg.Fit.Epochs * (units * cfg.Fit.StartsPerUnit / cfg.Train.BatchSize)
}

// PlannedOptimizerSteps is the number of Adam steps a run takes if it trains all its epochs: one
// per minibatch (grouping "windows") or one per Accumulate microbatches and one for each epoch's
// remainder (grouping "trajectories").
func PlannedOptimizerSteps(cfg RunConfig) int {
	micro := PlannedBatches(cfg)
	if cfg.Fit.Grouping != train.GroupTrajectories {
		return micro
	}
	perEpoch := micro / cfg.Fit.Epochs
	return cfg.Fit.Epochs * ((perEpoch + cfg.Fit.Accumulate - 1) / cfg.Fit.Accumulate)
}

// ErrNoJobs is returned when a sweep or table has no run: an empty grid is a mistake, not a
// success.
var ErrNoJobs = errors.New("experiment: no runs: the job list is empty")

// ResolveJobs resolves every job of a sweep first, so a bad name or K fails before any run starts.
// An empty job list is refused, and so are two jobs that are the same run (the same directory:
// e.g. seeds 0,0, or K 0 and the profile's K given explicitly), which would count one run twice.
func ResolveJobs(profile string, jobs []Job) ([]RunConfig, error) {
	if len(jobs) == 0 {
		return nil, ErrNoJobs
	}
	cfgs := make([]RunConfig, len(jobs))
	first := map[string]int{}
	for i, j := range jobs {
		var c RunConfig
		var err error
		switch {
		case j.Data == nil:
			c, err = Resolve(profile, j.Testbed, j.Method, j.Seed, j.K)
		case j.Testbed != "" && j.Testbed != j.Data.Testbed():
			err = fmt.Errorf("experiment: testbed %q is not the name of the job's CSV data set, %s", j.Testbed, j.Data.Testbed())
		default:
			c, err = ResolveCSV(profile, j.Data, j.Method, j.Seed, j.K)
		}
		if err == nil && (j.Channels != 0 || j.Participant != 0) {
			c.Data.Channels, c.Data.Participant = j.Channels, j.Participant
			err = c.Validate()
		}
		if err == nil && j.Sampler != "" && c.Train.Method == "dw" {
			if !slices.Contains(noise.Names(), j.Sampler) {
				err = fmt.Errorf("experiment: sampler %q; valid samplers: %s", j.Sampler, strings.Join(noise.Names(), ", "))
			}
			c.Train.Sampler = j.Sampler
		}
		if err != nil {
			return nil, fmt.Errorf("job %d (%s): %w", i+1, j, err)
		}
		if k, dup := first[c.Name()]; dup {
			return nil, fmt.Errorf("experiment: jobs %d (%s) and %d (%s) are the same run %s", k+1, jobs[k], i+1, j, c.Name())
		}
		first[c.Name()] = i
		cfgs[i] = c
	}
	return cfgs, nil
}

// Sweep runs the jobs, opt.Jobs of them at once (<= 1: one after another); finished runs are read
// back, interrupted ones resumed when opt.Resume is set. A failing run does not stop the sweep: its
// Outcome holds the error. Outcomes are in job order and do not depend on opt.Jobs: every run
// draws from its own seeds and the backend's kernels give the same numbers whether or not another
// run executes beside them. An interruption (opt.Context done) stops the sweep: no further run
// starts, the ones in progress stop at their next minibatch, and Sweep returns the outcomes of
// the runs that started (in job order) with the first *InterruptedError. opt.Reporter gets one
// bar over the work left: each run's SweepCost less its finished epochs (remainingCost).
func Sweep(profile string, jobs []Job, opt Options) ([]Outcome, error) {
	cfgs, err := ResolveJobs(profile, jobs)
	if err != nil {
		return nil, err
	}
	return sweepConfigs(profile, jobs, cfgs, opt)
}

// sweepConfigs is Sweep over resolved configurations (cfgs[i] is jobs[i]'s).
func sweepConfigs(profile string, jobs []Job, cfgs []RunConfig, opt Options) ([]Outcome, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if opt.Backend == nil {
		// Create the shared backend once, before the workers race for it.
		var err error
		if opt.Backend, err = opt.backend(); err != nil {
			return nil, err
		}
	}
	rep := progress.OrNop(opt.Reporter)
	costs, total := make([]int, len(cfgs)), 0
	for i, c := range cfgs {
		costs[i] = remainingCost(c, opt)
		total += costs[i]
	}
	title := fmt.Sprintf("sweep (%s, %d runs)", profile, len(jobs))
	workers := max(1, min(opt.Jobs, len(jobs)))
	// More runs at once than memory holds would end in the out-of-memory killer, not in speed.
	if memory, ok := machineMemory(); ok {
		if limit := jobCap(cfgs, memory); workers > limit {
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "sweep: %d runs at once asked, %d at most fit in this machine's %s of memory: running %d at once\n", opt.Jobs, limit, formatBytes(memory), limit)
			}
			workers = limit
		}
	}
	if workers > 1 {
		title = fmt.Sprintf("sweep (%s, %d runs, %d at once)", profile, len(jobs), workers)
	}
	rep.Start(total, title)
	defer rep.Finish()
	if opt.Log != nil && workers > 1 {
		opt.Log = &lockedWriter{w: opt.Log}
	}
	out := make([]Outcome, len(jobs))
	started := make([]bool, len(jobs)) // written by the job's worker only
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				if opt.context().Err() != nil {
					continue // interrupted: start nothing more
				}
				started[i] = true
				inner := &forward{rep: rep, prefix: fmt.Sprintf("[%d/%d %s] ", i+1, len(jobs), jobs[i]),
					planned: PlannedBatches(cfgs[i]), cost: costs[i]}
				ro := opt
				ro.Reporter = inner
				r, err := Run(cfgs[i], ro)
				out[i] = Outcome{Job: jobs[i], Config: cfgs[i], Result: r, Err: err}
				if err == nil && r != nil && opt.AfterRun != nil {
					if aerr := opt.AfterRun(out[i]); aerr != nil {
						out[i].Err = fmt.Errorf("%s finished, but after the run: %w", cfgs[i].Name(), aerr)
					}
				}
				if rest := inner.cost - inner.reported; rest > 0 && err == nil {
					rep.Step(rest, inner.prefix+"done")
				}
			}
		})
	}
	for i := range jobs {
		if opt.context().Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	// The error is that of a run stopped mid-way, else that of the first run never started.
	var done []Outcome
	var stopped, notStarted error
	for i, o := range out {
		if !started[i] {
			if notStarted == nil {
				notStarted = &InterruptedError{Run: cfgs[i].Name(), Epoch: -1}
			}
			continue
		}
		done = append(done, o)
		if stopped == nil && errors.Is(o.Err, ErrInterrupted) {
			stopped = o.Err
		}
	}
	if stopped != nil {
		return done, stopped
	}
	if notStarted != nil {
		return done, notStarted
	}
	return out, nil
}

// lockedWriter serialises the epoch lines of concurrent runs.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// SweepCost is a run's share of a sweep's progress bar: epochs × (context window + K), what one
// epoch's work grows with. Counting minibatches instead makes the bar's ETA wrong by the ratio of
// minibatches per epoch: a DW epoch of the authors' configuration is 7 microbatches, a Full
// epoch 1, at nearly the same cost (the runtime table: +5% to +8%).
func SweepCost(c RunConfig) int {
	return max(1, c.Fit.Epochs*(c.Model.Window+c.Train.K))
}

// remainingCost is the share of a run's SweepCost still to do: none for a finished run read back,
// the epochs after its checkpoint's for one resumed. Counting a resumed run whole would make
// the bar's ETA too long by the epochs it has behind it.
func remainingCost(c RunConfig, opt Options) int {
	if opt.Force {
		return SweepCost(c)
	}
	st, err := StateOf(c, opt)
	switch {
	case err != nil:
		return SweepCost(c) // Run will refuse it with its reason
	case st.Finished != "":
		return 0
	case !opt.Resume || st.Epoch == 0 || c.Fit.Epochs <= 0:
		return SweepCost(c) // a fresh start
	}
	left := max(0, c.Fit.Epochs-st.Epoch)
	return max(1, SweepCost(c)*left/c.Fit.Epochs)
}

// forward passes a run's minibatch steps on to the sweep's bar, with the run named, converted
// into the run's cost: after s of its planned minibatches it has reported cost·s/planned. The
// run's own Start gives the minibatches it has left, which a resumed run has fewer of.
type forward struct {
	mu              sync.Mutex
	rep             progress.Reporter
	prefix          string
	planned, cost   int
	steps, reported int
}

func (f *forward) Start(total int, _ string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if total > 0 && f.steps == 0 {
		f.planned = total
	}
}
func (f *forward) Finish() {}
func (f *forward) Step(n int, msg string) {
	f.mu.Lock()
	f.steps += n
	target := f.cost
	if f.steps < f.planned {
		target = f.cost * f.steps / f.planned
	}
	delta := max(0, target-f.reported)
	f.reported += delta
	f.mu.Unlock()
	f.rep.Step(delta, f.prefix+msg)
}

// Results returns the successful results of outcomes, and the failures as one error (nil if none).
func Results(outs []Outcome) ([]*Result, error) {
	var rs []*Result
	var fails []string
	for _, o := range outs {
		if o.Err != nil {
			fails = append(fails, fmt.Sprintf("%s: %v", o.Job, o.Err))
			continue
		}
		rs = append(rs, o.Result)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Config.Name() < rs[j].Config.Name() })
	if len(fails) > 0 {
		return rs, fmt.Errorf("%d of %d runs failed:\n  %s", len(fails), len(outs), strings.Join(fails, "\n  "))
	}
	return rs, nil
}

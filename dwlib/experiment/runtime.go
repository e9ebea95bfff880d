package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// RuntimeProtocol is the paper's timing protocol ("End-to-end training time"): in each of Repeats
// paired repeats, Full BPTT and Internal-DW each train a fresh run for Warmup + Timed epochs; the
// warm-up epochs are discarded (compilation, DW's warm-up before its first calibration) and the
// median of the timed epochs is the run's s/epoch. The order alternates between repeats (Full
// first in even repeats, DW first in odd ones) so drift of the machine hits both alike. The
// paper uses Warmup 1, Timed 3, Repeats 3.
type RuntimeProtocol struct {
	Warmup, Timed, Repeats int
}

// PaperRuntimeProtocol is the paper's protocol.
var PaperRuntimeProtocol = RuntimeProtocol{Warmup: 1, Timed: 3, Repeats: 3}

// ProtocolEpochs is the number of epochs one comparison trains: both methods, every repeat.
func (p RuntimeProtocol) ProtocolEpochs() int { return 2 * p.Repeats * (p.Warmup + p.Timed) }

// Validate refuses a protocol that times nothing.
func (p RuntimeProtocol) Validate() error {
	if p.Warmup < 0 || p.Timed < 1 || p.Repeats < 1 {
		return fmt.Errorf("experiment: runtime protocol warm-up %d, timed %d, repeats %d: want warm-up >= 0 and timed, repeats >= 1", p.Warmup, p.Timed, p.Repeats)
	}
	return nil
}

// EpochTimes is what one timed run reports per epoch, in seconds: the training loop alone, and
// the training loop plus validation.
type EpochTimes struct {
	Train, WithValidation []float64
}

// EpochClock trains a fresh run of cfg for the given number of epochs and returns its epoch times.
type EpochClock func(cfg RunConfig, epochs int) (EpochTimes, error)

// RuntimeRepeat is one paired repeat: each method's median s/epoch over the timed epochs.
type RuntimeRepeat struct {
	DWFirst         bool
	Full, DW        float64 // training loop, s/epoch
	FullVal, DWVal  float64 // training loop + validation, s/epoch
	Increase        float64 // 100 (DW/Full − 1), training loop
	IncreaseWithVal float64 // the same with validation
}

// RuntimeComparison is the paper's runtime table row for one testbed: mean ± sample sd over the
// repeats of each method's s/epoch and of the paired percentage increase.
type RuntimeComparison struct {
	Testbed, Profile               string
	Protocol                       RuntimeProtocol
	Repeats                        []RuntimeRepeat
	Full, FullSD, DW, DWSD         float64
	Increase, IncreaseSD           float64
	IncreaseWithVal, IncreaseValSD float64
}

// CompareRuntime times Full (full) against Internal-DW (dw) under p with clock.
func CompareRuntime(full, dw RunConfig, p RuntimeProtocol, clock EpochClock) (RuntimeComparison, error) {
	if err := p.Validate(); err != nil {
		return RuntimeComparison{}, err
	}
	if full.Testbed != dw.Testbed || full.Profile != dw.Profile {
		return RuntimeComparison{}, fmt.Errorf("experiment: runtime: Full is %s/%s but DW is %s/%s", full.Profile, full.Testbed, dw.Profile, dw.Testbed)
	}
	c := RuntimeComparison{Testbed: full.Testbed, Profile: full.Profile, Protocol: p}
	median := func(cfg RunConfig) (train, withVal float64, err error) {
		t, err := clock(cfg, p.Warmup+p.Timed)
		if err != nil {
			return 0, 0, err
		}
		if len(t.Train) != p.Warmup+p.Timed || len(t.WithValidation) != len(t.Train) {
			return 0, 0, fmt.Errorf("experiment: runtime: %s timed %d epochs, want %d", cfg.Name(), len(t.Train), p.Warmup+p.Timed)
		}
		return medianOf(t.Train[p.Warmup:]), medianOf(t.WithValidation[p.Warmup:]), nil
	}
	var full_, dw_, inc, incVal []float64
	for r := range p.Repeats {
		rep := RuntimeRepeat{DWFirst: r%2 == 1}
		order := []*RunConfig{&full, &dw}
		if rep.DWFirst {
			order[0], order[1] = order[1], order[0]
		}
		for _, cfg := range order {
			t, tv, err := median(*cfg)
			if err != nil {
				return c, err
			}
			if cfg == &full {
				rep.Full, rep.FullVal = t, tv
			} else {
				rep.DW, rep.DWVal = t, tv
			}
		}
		rep.Increase = 100 * (rep.DW/rep.Full - 1)
		rep.IncreaseWithVal = 100 * (rep.DWVal/rep.FullVal - 1)
		c.Repeats = append(c.Repeats, rep)
		full_, dw_ = append(full_, rep.Full), append(dw_, rep.DW)
		inc, incVal = append(inc, rep.Increase), append(incVal, rep.IncreaseWithVal)
	}
	c.Full, c.FullSD = eval.MeanSD(full_)
	c.DW, c.DWSD = eval.MeanSD(dw_)
	c.Increase, c.IncreaseSD = eval.MeanSD(inc)
	c.IncreaseWithVal, c.IncreaseValSD = eval.MeanSD(incVal)
	return c, nil
}

// medianOf is the median of xs (the mean of the middle two for an even count).
func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// TrainingClock is the EpochClock that really trains: a fresh session of cfg (its data, model and
// seed; nothing is read from or written to a run directory) runs the epochs back to back, and each
// epoch's EpochRecord gives the training-loop and validation seconds. opt.Reporter, when set,
// gets one Step per epoch, after its times are taken; the caller starts and finishes the bar, which
// can then span every run of a comparison (ProtocolEpochs).
func TrainingClock(opt Options) EpochClock {
	return func(cfg RunConfig, epochs int) (EpochTimes, error) {
		if epochs > cfg.Fit.Epochs {
			return EpochTimes{}, fmt.Errorf("experiment: runtime: %s trains at most %d epochs, %d asked", cfg.Name(), cfg.Fit.Epochs, epochs)
		}
		bk, err := opt.backend()
		if err != nil {
			return EpochTimes{}, err
		}
		ds, f, err := setupModel(cfg, opt)
		if err != nil {
			return EpochTimes{}, err
		}
		fit := cfg.Fit
		fit.Patience = epochs + 1 // never stop early while timing
		tcfg, _, err := withNoiseSampler(cfg, ds)
		if err != nil {
			return EpochTimes{}, err
		}
		s, err := train.NewSession(bk, f, tcfg.Train, fit, ds.Train, ds.Val, cfg)
		if err != nil {
			return EpochTimes{}, err
		}
		var t EpochTimes
		for e := range epochs {
			rec, err := s.RunEpoch(nil)
			if err != nil {
				return t, fmt.Errorf("experiment: runtime: %s: %w", cfg.Name(), err)
			}
			t.Train = append(t.Train, rec.TrainSeconds)
			t.WithValidation = append(t.WithValidation, rec.TrainSeconds+rec.ValSeconds)
			if opt.Reporter != nil {
				opt.Reporter.Step(1, fmt.Sprintf("%s epoch %d/%d: %.1f s", cfg.Name(), e+1, epochs, rec.TrainSeconds))
			}
		}
		return t, nil
	}
}

// paperRuntime is the paper's H200 table (Full s/epoch, DW s/epoch, increase %; mean ± sd).
var paperRuntime = map[string][6]float64{
	"mackey-glass": {21.28, 0.09, 27.43, 0.42, 28.9, 1.7},
	"ettm1":        {27.78, 0.06, 35.32, 0.23, 27.1, 0.9},
	"ettm2":        {28.68, 0.08, 36.31, 0.31, 26.6, 1.0},
	"narma5":       {22.26, 0.13, 28.31, 0.15, 27.2, 0.2},
}

// RuntimeMarkdown is the runtime table of comparisons beside the paper's H200 numbers.
func RuntimeMarkdown(cs []RuntimeComparison) string {
	var b strings.Builder
	b.WriteString("| testbed | profile | Full s/epoch | DW s/epoch | increase % | with validation % | paper (H200): Full, DW, increase |\n|---|---|---|---|---|---|---|\n")
	for _, c := range cs {
		paper := "–"
		if p, ok := paperRuntime[c.Testbed]; ok {
			paper = fmt.Sprintf("%.2f ± %.2f, %.2f ± %.2f, %.1f ± %.1f", p[0], p[1], p[2], p[3], p[4], p[5])
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f ± %.2f | %.2f ± %.2f | %+.1f ± %.1f | %+.1f ± %.1f | %s |\n", c.Testbed, c.Profile,
			c.Full, c.FullSD, c.DW, c.DWSD, c.Increase, c.IncreaseSD, c.IncreaseWithVal, c.IncreaseValSD, paper)
	}
	if len(cs) > 0 {
		p := cs[0].Protocol
		fmt.Fprintf(&b, "\n%d paired repeats (order alternating), %d warm-up epoch(s) discarded, median of the next %d; mean ± sample sd.\n", p.Repeats, p.Warmup, p.Timed)
		b.WriteString(runtimeRepeatsMarkdown(cs))
	}
	return b.String()
}

// runtimeRepeatsMarkdown lists every paired repeat behind the table, in the order it ran, so a
// reader can tell drift of the machine (all repeats moving together) from noise within a repeat.
func runtimeRepeatsMarkdown(cs []RuntimeComparison) string {
	var b strings.Builder
	b.WriteString("\nEvery repeat (s/epoch, median of the timed epochs):\n\n| testbed | repeat | order | Full | DW | increase % | Full with val. | DW with val. | increase with val. % |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range cs {
		for i, r := range c.Repeats {
			order := "Full, DW"
			if r.DWFirst {
				order = "DW, Full"
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %.2f | %.2f | %+.1f | %.2f | %.2f | %+.1f |\n", c.Testbed, i+1, order,
				r.Full, r.DW, r.Increase, r.FullVal, r.DWVal, r.IncreaseWithVal)
		}
	}
	return b.String()
}

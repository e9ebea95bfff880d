package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// RegimePoint is one training budget of the regime map: Full BPTT and Internal-DW trained under
// the same profile on matched seeds, and what DW's controller ended up doing.
type RegimePoint struct {
	Profile string
	// StepsPerEpoch and LR describe the budget; Steps is the mean number of Adam steps the runs
	// took (all epochs, both methods), BestSteps the mean Adam steps until Full's best epoch.
	StepsPerEpoch float64
	LR            float64
	Steps         float64
	BestSteps     float64
	// Seeds present for both methods, and their test rel-L2.
	Seeds    []uint64
	Full, DW []float64
	// Paired is DW − Full over the matched seeds (valid for 2 or more); Percent is mean DW vs
	// mean Full in %.
	Paired  *eval.PairedDiff
	Percent float64
	// NoiseShare is tr R̂ / tr T̂ summed over every route of DW's final moments, averaged over
	// seeds: how much of the route moments DW-Generic's template accounts for.
	NoiseShare float64
	// ClosedShare is the fraction of DW's final gains (α and m over every (k, ℓ)) that are
	// exactly 0; MeanAlpha and MeanM their means. Averaged over seeds.
	ClosedShare, MeanAlpha, MeanM float64
}

// RegimeMap reads the finished Full and DW runs of testbed under each profile (at the profile's
// K) for the given seeds from opt.RunsDir, and summarises each profile as a RegimePoint. Nothing
// is trained: runs that are not finished are skipped, and a profile with no matched seed is
// reported with empty Seeds.
func RegimeMap(opt Options, testbed string, profiles []string, seeds []uint64) ([]RegimePoint, error) {
	var out []RegimePoint
	for _, profile := range profiles {
		pt := RegimePoint{Profile: profile}
		var noise, closed, alpha, m, steps, best, spe []float64
		for _, seed := range seeds {
			full, err := FinishedRun(opt, profile, testbed, "full", seed)
			if err != nil {
				return nil, err
			}
			dw, err := FinishedRun(opt, profile, testbed, "dw", seed)
			if err != nil {
				return nil, err
			}
			if full == nil || dw == nil {
				continue
			}
			pt.LR = full.Config.Train.LR
			pt.Seeds = append(pt.Seeds, seed)
			pt.Full, pt.DW = append(pt.Full, full.Test.RelL2), append(pt.DW, dw.Test.RelL2)
			for _, r := range []*Result{full, dw} {
				n, e := 0, 0
				for _, ep := range r.Epochs {
					n += ep.Steps
					e++
				}
				steps = append(steps, float64(n))
				spe = append(spe, float64(n)/float64(max(e, 1)))
			}
			b := 0
			for _, ep := range full.Epochs[:min(full.BestEpoch, len(full.Epochs))] {
				b += ep.Steps
			}
			best = append(best, float64(b))
			ns, cs, ma, mm := controllerSummary(dw)
			noise, closed, alpha, m = append(noise, ns), append(closed, cs), append(alpha, ma), append(m, mm)
		}
		if len(pt.Seeds) > 0 {
			pt.Steps, pt.BestSteps, pt.StepsPerEpoch = mean(steps), mean(best), mean(spe)
			pt.NoiseShare, pt.ClosedShare, pt.MeanAlpha, pt.MeanM = mean(noise), mean(closed), mean(alpha), mean(m)
			mf, _ := eval.MeanSD(pt.Full)
			md, _ := eval.MeanSD(pt.DW)
			pt.Percent = eval.PercentChange(md, mf)
			if d, err := eval.Paired(pt.DW, pt.Full); err == nil {
				pt.Paired = &d
			}
		}
		out = append(out, pt)
	}
	return out, nil
}

// NoiseShare returns tr R̂ / tr T̂ summed over every route of a DW run's final committed moments
// (NaN for a run without them): the share of the total probe's route energy its sampler called
// noise when training ended.
func (r *Result) NoiseShare() float64 {
	share, _, _, _ := controllerSummary(r)
	return share
}

// controllerSummary returns tr R / tr T over all routes, the share of gains exactly 0, and the mean
// α and m, from a DW run's final route moments and last epoch's gains.
func controllerSummary(r *Result) (noiseShare, closed, meanAlpha, meanM float64) {
	var trR, trT float64
	for i := range r.RouteT {
		trT += r.RouteT[i].II + r.RouteT[i].JJ
		trR += r.RouteR[i].II + r.RouteR[i].JJ
	}
	noiseShare = math.NaN()
	if trT > 0 {
		noiseShare = trR / trT
	}
	if len(r.Epochs) == 0 {
		return noiseShare, math.NaN(), math.NaN(), math.NaN()
	}
	g := r.Epochs[len(r.Epochs)-1].Gains
	zeros := 0
	for i, v := range g {
		if v == 0 {
			zeros++
		}
		if i%2 == 0 {
			meanAlpha += v
		} else {
			meanM += v
		}
	}
	n := float64(len(g))
	return noiseShare, float64(zeros) / n, 2 * meanAlpha / n, 2 * meanM / n
}

// FinishedRun returns the result of a finished run (at the profile's K) under opt.RunsDir or in
// the archive (ReadFinished), or nil
// if it has not finished or not started. It never trains.
func FinishedRun(opt Options, profile, testbed, method string, seed uint64) (*Result, error) {
	cfg, err := Resolve(profile, testbed, method, seed, 0)
	if err != nil {
		return nil, err
	}
	r, _, err := ReadFinished(cfg, opt)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", cfg.Name(), err)
	}
	return r, nil
}

func mean(xs []float64) float64 {
	xs = slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// RegimeBaselines returns, per point, the mean over the point's seeds of each baseline's test
// rel-L2 under the point's protocol (baselines are scored, or read from their cache, with
// RunBaselines), in BaselineNames order.
func RegimeBaselines(opt Options, testbed string, pts []RegimePoint) ([][]float64, error) {
	out := make([][]float64, len(pts))
	for i, p := range pts {
		sums := make([]float64, len(baselineNames))
		for _, seed := range p.Seeds {
			cfg, err := Resolve(p.Profile, testbed, "full", seed, 0)
			if err != nil {
				return nil, err
			}
			set, err := RunBaselines(cfg, opt)
			if err != nil {
				return nil, err
			}
			for j, name := range baselineNames {
				b, ok := set.Get(name)
				if !ok {
					return nil, fmt.Errorf("experiment: %s seed %d: baseline %s missing", p.Profile, seed, name)
				}
				sums[j] += b.Test.RelL2 / float64(len(p.Seeds))
			}
		}
		if len(p.Seeds) > 0 {
			out[i] = sums
		}
	}
	return out, nil
}

// RegimeMarkdown renders the regime map as a Markdown table; baselines (may be nil) are
// RegimeBaselines' output.
func RegimeMarkdown(testbed string, pts []RegimePoint, baselines [][]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s: profile | Adam steps (mean; to Full's best) | LR | seeds | Full | DW | DW − Full [95%%] | DW vs Full | tr R/tr T | gains at 0 | mean α / m |", testbed)
	for _, n := range baselineNames {
		fmt.Fprintf(&b, " %s |", n)
	}
	b.WriteString("\n|---|---|---|---|---|---|---|---|---|---|---|")
	for range baselineNames {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for i, p := range pts {
		if len(p.Seeds) == 0 {
			fmt.Fprintf(&b, "| %s | not run |%s\n", p.Profile, strings.Repeat(" |", 9+len(baselineNames)))
			continue
		}
		ci := "–"
		if p.Paired != nil {
			ci = fmt.Sprintf("%+.4f [%+.4f, %+.4f]", p.Paired.Mean, p.Paired.Lo, p.Paired.Hi)
		}
		mf, sf := eval.MeanSD(p.Full)
		md, sd := eval.MeanSD(p.DW)
		fmt.Fprintf(&b, "| %s | %.0f; %.0f | %g | %d | %s | %s | %s | %+.1f%% | %.2f | %.0f%% | %.2f / %.2f |",
			p.Profile, p.Steps, p.BestSteps, p.LR, len(p.Seeds), meanSD(mf, sf), meanSD(md, sd), ci, p.Percent,
			p.NoiseShare, 100*p.ClosedShare, p.MeanAlpha, p.MeanM)
		for j := range baselineNames {
			if baselines != nil && baselines[i] != nil {
				fmt.Fprintf(&b, " %.4f |", baselines[i][j])
			} else {
				b.WriteString(" – |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

package experiment

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/baseline"
	"github.com/internal-dw/dwgo/dwlib/eval"
)

// PaperScore is a mean ± standard deviation over three matched seeds reported by the paper.
type PaperScore struct{ Mean, SD float64 }

// PaperRelL2 holds the paper's dense-horizon test relative L2 (Table "Dense-horizon relative-L2
// values"; driven MG from Table "Increasing observed drive reverses the effect").
var PaperRelL2 = map[string]map[string]PaperScore{
	"mackey-glass": {"full": {1.0541, .0044}, "clip": {1.0563, .0040}, "jreg": {1.0556, .0069}, "tbptt": {1.0344, .0172}, "static": {1.0047, .0073}, "dw": {.9997, .0096}},
	"ettm1":        {"full": {.9422, .0252}, "clip": {.9497, .0348}, "jreg": {.9274, .0293}, "tbptt": {.9340, .0508}, "static": {.9250, .0113}, "dw": {.8786, .0176}},
	"ettm2":        {"full": {.8684, .0913}, "clip": {.8817, .0771}, "jreg": {.8700, .0910}, "tbptt": {.8650, .0552}, "static": {.8043, .0686}, "dw": {.7489, .0489}},
	"narma5":       {"full": {.8707, .0150}, "clip": {.8068, .0024}, "jreg": {.8731, .0115}, "dw": {.9391, .0138}},
	"driven-mg":    {"full": {.73489, .01064}, "dw": {.79157, .00350}},
}

// PaperPaired holds the paper's paired DW − Full differences with their 95% intervals.
var PaperPaired = map[string][3]float64{
	"mackey-glass": {-0.05446, -0.08212, -0.02679},
	"ettm1":        {-0.06357, -0.14635, 0.01922},
	"ettm2":        {-0.11948, -0.33903, 0.10007},
	"narma5":       {0.06843, 0.04108, 0.09578},
}

// Row is one testbed × method cell of the summary table.
type Row struct {
	Testbed, Method string
	Seeds           []uint64
	Values          []float64 // test rel-L2 per seed
	Mean, SD        float64   // SD is NaN for one seed
	Paper           *PaperScore
	SecondsPerEpoch float64 // median over seeds
	Epochs          float64 // mean epochs trained
	// BestBaseline is the baseline with the lowest mean test rel-L2 over this row's own runs
	// (same testbed, seeds and protocol), BaselineMean that mean and VsBaseline = Mean /
	// BaselineMean (< 1: the method beats every baseline). Empty and 0 unless a BaselineSet was
	// given for every run of the row.
	BestBaseline string
	BaselineMean float64
	VsBaseline   float64
}

// BaselineRow is one baseline on one testbed under one protocol: its test rel-L2 over the seeds
// it was scored for (in Summarize, the seeds of the results on that testbed).
type BaselineRow struct {
	Testbed  string
	Name     string // baseline.NameZero, NameDamped or NameRidge
	Protocol baseline.Protocol
	Data     DataConfig
	Seeds    []uint64
	Values   []float64 // test rel-L2 per seed
	Val      []float64 // validation rel-L2 per seed
	Mean, SD float64   // of Values; SD is NaN for one seed
	Params   []string  // chosen hyper-parameters per seed
}

// PairedRow is the matched-seed difference of one method and a reference method on one testbed:
// Method − Base, where Base is "full" for every method (controls and DW variants alike) and "dw"
// for the DW variants other than DW-Generic (see Variant).
type PairedRow struct {
	Testbed      string
	Method, Base string
	Diff         eval.PairedDiff
	Percent      float64     // mean Method vs mean Base, % (over the matched seeds)
	Paper        *[3]float64 // on the dw − full row: the paper's DW − Full and its 95% interval, where reported
	PaperPercent *float64    // on the dw − full row: the paper's mean DW vs mean Full, %, where it reports both
}

// Summary is the table a sweep prints: mean ± sd per testbed and method, the paired differences
// of every method with Full, and the honest baselines scored under the same protocol.
type Summary struct {
	Rows        []Row
	Paired      []PairedRow
	Baselines   []BaselineRow
	WallSeconds float64 // sum of the runs' own wall times
}

// Summarize groups results by testbed and method, in the orders of Testbeds and Methods. Given
// baseline sets (ResultBaselines), it also tabulates, per testbed, the baselines that match the
// results (same testbed, seed, data options and protocol) over the seeds present in the results,
// and compares every method row with the best baseline over that row's own seeds. Sets that
// match no result are ignored.
func Summarize(results []*Result, baselines ...*BaselineSet) Summary {
	var s Summary
	type key struct{ tb, m string }
	groups := map[key][]*Result{}
	var testbeds, variants []string
	for _, r := range results {
		k := key{r.Config.Testbed, Variant(r.Config)}
		if !slices.Contains(testbeds, k.tb) {
			testbeds = append(testbeds, k.tb)
		}
		if !slices.Contains(variants, k.m) {
			variants = append(variants, k.m)
		}
		groups[k] = append(groups[k], r)
		s.WallSeconds += r.WallSeconds
	}
	slices.SortFunc(testbeds, func(a, b string) int { return slices.Index(Testbeds(), a) - slices.Index(Testbeds(), b) })
	variants = orderVariants(variants)
	for _, tb := range testbeds {
		for _, m := range variants {
			rs := groups[key{tb, m}]
			if len(rs) == 0 {
				continue
			}
			slices.SortFunc(rs, func(a, b *Result) int { return cmp.Compare(a.Config.Seed, b.Config.Seed) })
			row := Row{Testbed: tb, Method: m}
			var secs []float64
			for _, r := range rs {
				row.Seeds = append(row.Seeds, r.Config.Seed)
				row.Values = append(row.Values, r.Test.RelL2)
				secs = append(secs, r.SecondsPerEpoch)
				row.Epochs += float64(len(r.Epochs)) / float64(len(rs))
			}
			row.Mean, row.SD = eval.MeanSD(row.Values)
			slices.Sort(secs)
			row.SecondsPerEpoch = secs[len(secs)/2]
			if p, ok := PaperRelL2[tb][m]; ok && comparableToPaper(rs) {
				row.Paper = &p
			}
			row.BestBaseline, row.BaselineMean = bestBaseline(rs, baselines)
			if row.BestBaseline != "" {
				row.VsBaseline = row.Mean / row.BaselineMean
			}
			s.Rows = append(s.Rows, row)
		}
		// Every method against Full (the controls as well as DW: a control's effect is read the
		// same way as DW's), and every DW variant other than plain "dw" also against it.
		for _, m := range variants {
			for _, base := range []string{"full", "dw"} {
				if base == m || m == "full" || (base == "dw" && !isDWVariant(m)) {
					continue
				}
				if pr, ok := pairedRow(tb, m, base, groups[key{tb, m}], groups[key{tb, base}]); ok {
					s.Paired = append(s.Paired, pr)
				}
			}
		}
	}
	var used []*BaselineSet
	for _, b := range baselines {
		if slices.ContainsFunc(results, func(r *Result) bool { return b.Matches(r.Config) }) && !slices.Contains(used, b) {
			used = append(used, b)
		}
	}
	s.Baselines = SummarizeBaselines(used)
	return s
}

// Matches reports whether the set holds the baselines of cfg: same testbed, seed, data options
// and protocol.
func (s *BaselineSet) Matches(cfg RunConfig) bool {
	return s.Key.Testbed == cfg.Testbed && s.Key.Seed == cfg.Seed && s.Key.Protocol() == BaselineProtocol(cfg) &&
		bytes.Equal(mustCanonical(s.Key.Data), mustCanonical(cfg.identity().Data))
}

// bestBaseline returns the baseline with the lowest mean test rel-L2 over the runs rs, and that
// mean, or "" when some run has no matching set.
func bestBaseline(rs []*Result, sets []*BaselineSet) (string, float64) {
	names := baselineNames
	if len(rs) > 0 {
		names = baselineNamesOf(rs[0].Config.Testbed)
	}
	sums := make([]float64, len(names))
	for _, r := range rs {
		i := slices.IndexFunc(sets, func(b *BaselineSet) bool { return b.Matches(r.Config) })
		if i < 0 {
			return "", 0
		}
		for j, name := range names {
			sc, ok := sets[i].Get(name)
			if !ok {
				return "", 0
			}
			sums[j] += sc.Test.RelL2 / float64(len(rs))
		}
	}
	j := slices.Index(sums, slices.Min(sums))
	return names[j], sums[j]
}

// SummarizeBaselines tabulates baseline sets: one row per testbed, protocol (and data options)
// and baseline, over the seeds of the sets (the first set of a seed counts), ordered by testbed
// (Testbeds order), horizon, then baseline (zero, damped persistence, ridge AR).
func SummarizeBaselines(sets []*BaselineSet) []BaselineRow {
	sorted := slices.Clone(sets)
	tbIndex := func(tb string) int { return slices.Index(Testbeds(), tb) }
	slices.SortStableFunc(sorted, func(a, b *BaselineSet) int {
		return cmp.Or(cmp.Compare(tbIndex(a.Key.Testbed), tbIndex(b.Key.Testbed)), cmp.Compare(a.Key.Testbed, b.Key.Testbed),
			cmp.Compare(a.Key.H, b.Key.H), cmp.Compare(a.Key.History, b.Key.History), cmp.Compare(a.Key.BurnIn, b.Key.BurnIn),
			cmp.Compare(a.Key.MaxOrigins, b.Key.MaxOrigins), cmp.Compare(a.Key.Seed, b.Key.Seed))
	})
	type group struct {
		first *BaselineSet
		sets  []*BaselineSet
	}
	var groups []*group
	same := func(a, b *BaselineSet) bool {
		return a.Key.Testbed == b.Key.Testbed && a.Key.Protocol() == b.Key.Protocol() &&
			bytes.Equal(mustCanonical(a.Key.Data), mustCanonical(b.Key.Data))
	}
	for _, b := range sorted {
		i := slices.IndexFunc(groups, func(g *group) bool { return same(g.first, b) })
		if i < 0 {
			groups = append(groups, &group{first: b})
			i = len(groups) - 1
		}
		g := groups[i]
		if !slices.ContainsFunc(g.sets, func(o *BaselineSet) bool { return o.Key.Seed == b.Key.Seed }) {
			g.sets = append(g.sets, b)
		}
	}
	var rows []BaselineRow
	for _, g := range groups {
		for _, name := range baselineNamesOf(g.first.Key.Testbed) {
			row := BaselineRow{Testbed: g.first.Key.Testbed, Name: name, Protocol: g.first.Key.Protocol(), Data: g.first.Key.Data}
			for _, b := range g.sets {
				sc, ok := b.Get(name)
				if !ok {
					continue
				}
				row.Seeds = append(row.Seeds, b.Key.Seed)
				row.Values = append(row.Values, sc.Test.RelL2)
				row.Val = append(row.Val, sc.ValRelL2)
				row.Params = append(row.Params, sc.Params)
			}
			if len(row.Seeds) == 0 {
				continue
			}
			row.Mean, row.SD = eval.MeanSD(row.Values)
			rows = append(rows, row)
		}
	}
	return rows
}

// ResultBaselines returns the baselines of every testbed, seed and protocol the results cover,
// read back or scored by RunBaselines (cached under opt.RunsDir). Baselines that cannot be
// scored are reported together in the error; the others are returned.
func ResultBaselines(results []*Result, opt Options) ([]*BaselineSet, error) {
	var sets []*BaselineSet
	var errs []error
	var done []RunConfig
	for _, r := range results {
		c := r.Config
		if slices.ContainsFunc(done, func(d RunConfig) bool {
			return d.Testbed == c.Testbed && d.Seed == c.Seed && BaselineProtocol(d) == BaselineProtocol(c) &&
				bytes.Equal(mustCanonical(d.identity().Data), mustCanonical(c.identity().Data))
		}) {
			continue
		}
		done = append(done, c)
		b, err := RunBaselines(c, opt)
		if err != nil {
			errs = append(errs, fmt.Errorf("baselines of %s: %w", c.Name(), err))
			continue
		}
		sets = append(sets, b)
	}
	return sets, errors.Join(errs...)
}

// SummarizeWithBaselines is Summarize(results, ResultBaselines(results, opt)...): the table with
// the baselines beside the trained models. The summary is complete except for baselines that
// could not be scored, which the error names.
func SummarizeWithBaselines(results []*Result, opt Options) (Summary, error) {
	sets, err := ResultBaselines(results, opt)
	return Summarize(results, sets...), err
}

// PaperColumn heads the method table's column of the paper's values. They are the paper's
// Mamba-128 in the authors' configuration (the paper profile), whatever model and profile the rows
// beside them ran: the label says so, so that a width-24 standard run is not read as a replication
// of the number next to it.
const PaperColumn = "paper (Mamba-128, paper profile)"

// paperPairedNote follows the paired table: its paper columns are the same runs' differences.
const paperPairedNote = "paper DW − Full, paper DW vs Full: the paper's Mamba-128 runs in the authors' configuration (the paper profile), not a run of this table's profile.\n"

// comparableToPaper is false for quick-profile runs: smoke tests of a few seconds at a shortened
// horizon, whose numbers printed beside the paper's would invite a comparison they cannot bear.
func comparableToPaper(rs []*Result) bool {
	return !slices.ContainsFunc(rs, func(r *Result) bool { return IsSmoke(r.Config.Profile) })
}

// Markdown renders the summary as Markdown: the method table, the paired table (every method −
// Full, with the paper's DW − Full beside DW's row), and one table of baselines per testbed and
// protocol. With baselines, the method table gains a last column "vs best baseline": the row's
// mean over the best baseline's mean on the same seeds.
func (s Summary) Markdown() string {
	var b strings.Builder
	ratio := slices.ContainsFunc(s.Rows, func(r Row) bool { return r.BestBaseline != "" })
	if ratio {
		b.WriteString("| testbed | method | seeds | test rel-L2 (mean ± sd) | " + PaperColumn + " | epochs | s/epoch | vs best baseline |\n|---|---|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| testbed | method | seeds | test rel-L2 (mean ± sd) | " + PaperColumn + " | epochs | s/epoch |\n|---|---|---|---|---|---|---|\n")
	}
	for _, r := range s.Rows {
		paper := "–"
		if r.Paper != nil {
			paper = fmt.Sprintf("%.4f ± %.4f", r.Paper.Mean, r.Paper.SD)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %.1f | %.1f |", r.Testbed, r.Method, len(r.Seeds), meanSD(r.Mean, r.SD), paper, r.Epochs, r.SecondsPerEpoch)
		if ratio {
			vs := "–"
			if r.BestBaseline != "" {
				vs = fmt.Sprintf("%.3f (%s %.4f)", r.VsBaseline, r.BestBaseline, r.BaselineMean)
			}
			fmt.Fprintf(&b, " %s |", vs)
		}
		b.WriteString("\n")
	}
	if ratio {
		b.WriteString("\nvs best baseline: the method's mean test rel-L2 divided by that of the best (lowest on test, a conservative bar) of the baselines below (zero, damped persistence, and ridge AR on series or Fourier AR on fields) on the same seeds and protocol; below 1, the model beats every baseline.\n")
	}
	if len(s.Paired) > 0 {
		b.WriteString("\n| testbed | difference | pairs | mean | 95% interval | change | paper DW − Full [95%] | paper DW vs Full |\n|---|---|---|---|---|---|---|---|\n")
		for _, p := range s.Paired {
			paper, paperPct := "–", "–"
			if p.Paper != nil {
				paper = fmt.Sprintf("%+.5f [%+.5f, %+.5f]", p.Paper[0], p.Paper[1], p.Paper[2])
			}
			if p.PaperPercent != nil {
				paperPct = fmt.Sprintf("%+.2f%%", *p.PaperPercent)
			}
			fmt.Fprintf(&b, "| %s | %s − %s | %d | %+.5f | [%+.5f, %+.5f] | %+.2f%% | %s | %s |\n", p.Testbed, p.Method, p.Base, p.Diff.N, p.Diff.Mean, p.Diff.Lo, p.Diff.Hi, p.Percent, paper, paperPct)
		}
		if slices.ContainsFunc(s.Paired, func(p PairedRow) bool { return p.Paper != nil || p.PaperPercent != nil }) {
			b.WriteString("\n" + paperPairedNote)
		}
	}
	if len(s.Baselines) > 0 {
		b.WriteString("\n")
		b.WriteString(BaselinesMarkdown(s.Baselines))
	}
	return b.String()
}

// BaselinesMarkdown renders baseline rows as one Markdown table per testbed and protocol, each
// under a line naming the protocol.
func BaselinesMarkdown(rows []BaselineRow) string {
	var b strings.Builder
	for i, r := range rows {
		if i == 0 || r.Testbed != rows[i-1].Testbed || r.Protocol != rows[i-1].Protocol ||
			!bytes.Equal(mustCanonical(r.Data), mustCanonical(rows[i-1].Data)) {
			if i > 0 {
				b.WriteString("\n")
			}
			p := r.Protocol
			fmt.Fprintf(&b, "Baselines on %s, scored like the runs: eq. (8) over h = 1..%d from %d observed states, burn-in %d, at most %d origins per test unit.\n\n",
				r.Testbed, p.H, p.History, p.BurnIn, p.MaxOrigins)
			b.WriteString("| testbed | baseline | seeds | test rel-L2 (mean ± sd) | val rel-L2 (mean) | chosen on train/val |\n|---|---|---|---|---|---|\n")
		}
		val, _ := eval.MeanSD(r.Val)
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %.4f | %s |\n", r.Testbed, r.Name, len(r.Seeds), meanSD(r.Mean, r.SD), val, paramsBySeed(r.Seeds, r.Params))
	}
	return b.String()
}

// paramsBySeed lists the distinct hyper-parameter lines with the seeds that chose them:
// "W=8 lambda=1e-04 drive=false (s0, s2); W=4 lambda=1e-02 drive=false (s1)".
func paramsBySeed(seeds []uint64, params []string) string {
	var distinct []string
	bySeed := map[string][]string{}
	for i, p := range params {
		if _, ok := bySeed[p]; !ok {
			distinct = append(distinct, p)
		}
		bySeed[p] = append(bySeed[p], fmt.Sprintf("s%d", seeds[i]))
	}
	if len(distinct) == 1 && distinct[0] == "-" {
		return "–"
	}
	parts := make([]string, len(distinct))
	for i, p := range distinct {
		parts[i] = fmt.Sprintf("%s (%s)", p, strings.Join(bySeed[p], ", "))
	}
	return strings.Join(parts, "; ")
}

func meanSD(m, sd float64) string {
	if math.IsNaN(sd) {
		return fmt.Sprintf("%.4f", m)
	}
	return fmt.Sprintf("%.4f ± %.4f", m, sd)
}

// pairedRow is the matched-seed difference m − base over the seeds both hold (ok false with
// fewer than two pairs). The paper's numbers are attached to plain DW − Full only.
func pairedRow(tb, m, base string, rm, rb []*Result) (PairedRow, bool) {
	var a, b []float64
	for _, d := range rm {
		for _, f := range rb {
			if f.Config.Seed == d.Config.Seed {
				a, b = append(a, d.Test.RelL2), append(b, f.Test.RelL2)
			}
		}
	}
	pd, err := eval.Paired(a, b)
	if err != nil {
		return PairedRow{}, false
	}
	mA, _ := eval.MeanSD(a)
	mB, _ := eval.MeanSD(b)
	pr := PairedRow{Testbed: tb, Method: m, Base: base, Diff: pd, Percent: eval.PercentChange(mA, mB)}
	if m != "dw" || base != "full" || !comparableToPaper(rm) {
		return pr, true
	}
	if p, ok := PaperPaired[tb]; ok {
		pr.Paper = &p
	}
	f, okF := PaperRelL2[tb]["full"]
	d, okD := PaperRelL2[tb]["dw"]
	if okF && okD {
		pct := eval.PercentChange(d.Mean, f.Mean)
		pr.PaperPercent = &pct
	}
	return pr, true
}

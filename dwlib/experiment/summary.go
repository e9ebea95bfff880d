package experiment

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

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
}

// PairedRow is the matched-seed DW − Full difference on one testbed.
type PairedRow struct {
	Testbed      string
	Diff         eval.PairedDiff
	Percent      float64     // mean DW vs mean Full, %
	Paper        *[3]float64 // the paper's DW − Full and its 95% interval, where reported
	PaperPercent *float64    // the paper's mean DW vs mean Full, %, where it reports both means
}

// Summary is the table a sweep prints: mean ± sd per testbed and method, and the paired
// DW-vs-Full differences.
type Summary struct {
	Rows        []Row
	Paired      []PairedRow
	WallSeconds float64 // sum of the runs' own wall times
}

// Summarize groups results by testbed and method, in the orders of Testbeds and Methods.
func Summarize(results []*Result) Summary {
	var s Summary
	type key struct{ tb, m string }
	groups := map[key][]*Result{}
	var testbeds []string
	for _, r := range results {
		k := key{r.Config.Testbed, r.Config.Train.Method}
		if !slices.Contains(testbeds, k.tb) {
			testbeds = append(testbeds, k.tb)
		}
		groups[k] = append(groups[k], r)
		s.WallSeconds += r.WallSeconds
	}
	slices.SortFunc(testbeds, func(a, b string) int { return slices.Index(Testbeds(), a) - slices.Index(Testbeds(), b) })
	for _, tb := range testbeds {
		for _, m := range Methods() {
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
			if p, ok := PaperRelL2[tb][m]; ok {
				row.Paper = &p
			}
			s.Rows = append(s.Rows, row)
		}
		full, dw := groups[key{tb, "full"}], groups[key{tb, "dw"}]
		var a, b []float64
		for _, d := range dw {
			for _, f := range full {
				if f.Config.Seed == d.Config.Seed {
					a, b = append(a, d.Test.RelL2), append(b, f.Test.RelL2)
				}
			}
		}
		if pd, err := eval.Paired(a, b); err == nil {
			mA, _ := eval.MeanSD(a)
			mB, _ := eval.MeanSD(b)
			pr := PairedRow{Testbed: tb, Diff: pd, Percent: eval.PercentChange(mA, mB)}
			if p, ok := PaperPaired[tb]; ok {
				pr.Paper = &p
			}
			f, okF := PaperRelL2[tb]["full"]
			d, okD := PaperRelL2[tb]["dw"]
			if okF && okD {
				pct := eval.PercentChange(d.Mean, f.Mean)
				pr.PaperPercent = &pct
			}
			s.Paired = append(s.Paired, pr)
		}
	}
	return s
}

// Markdown renders the summary as two Markdown tables.
func (s Summary) Markdown() string {
	var b strings.Builder
	b.WriteString("| testbed | method | seeds | test rel-L2 (mean ± sd) | paper | epochs | s/epoch |\n|---|---|---|---|---|---|---|\n")
	for _, r := range s.Rows {
		paper := "–"
		if r.Paper != nil {
			paper = fmt.Sprintf("%.4f ± %.4f", r.Paper.Mean, r.Paper.SD)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %.1f | %.1f |\n", r.Testbed, r.Method, len(r.Seeds), meanSD(r.Mean, r.SD), paper, r.Epochs, r.SecondsPerEpoch)
	}
	if len(s.Paired) > 0 {
		b.WriteString("\n| testbed | pairs | DW − Full (mean) | 95% interval | DW vs Full | paper DW − Full [95%] | paper DW vs Full |\n|---|---|---|---|---|---|---|\n")
		for _, p := range s.Paired {
			paper, paperPct := "–", "–"
			if p.Paper != nil {
				paper = fmt.Sprintf("%+.5f [%+.5f, %+.5f]", p.Paper[0], p.Paper[1], p.Paper[2])
			}
			if p.PaperPercent != nil {
				paperPct = fmt.Sprintf("%+.2f%%", *p.PaperPercent)
			}
			fmt.Fprintf(&b, "| %s | %d | %+.5f | [%+.5f, %+.5f] | %+.2f%% | %s | %s |\n", p.Testbed, p.Diff.N, p.Diff.Mean, p.Diff.Lo, p.Diff.Hi, p.Percent, paper, paperPct)
		}
	}
	return b.String()
}

func meanSD(m, sd float64) string {
	if math.IsNaN(sd) {
		return fmt.Sprintf("%.4f", m)
	}
	return fmt.Sprintf("%.4f ± %.4f", m, sd)
}

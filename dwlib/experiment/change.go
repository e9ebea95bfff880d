package experiment

import (
	"math"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// ChangeRow is one method's test rel-L2 relative to Full BPTT on one testbed, seed by seed: the
// quantity of the paper's across-regimes figure (percent change from Full, with its spread).
type ChangeRow struct {
	Testbed, Method string
	// Seeds present for both the method and Full, and 100·(method/Full − 1) on each.
	Seeds   []uint64
	Percent []float64
	// Mean and SD of Percent (SD is NaN for one seed).
	Mean, SD float64
	// Paper is the same change computed from the paper's mean scores, NaN where it reports no
	// score for the method or Full, or where the runs are not comparable to the paper's.
	Paper float64
}

// ChangeFromFull returns, for every row of s other than Full, the per-seed percent change of its
// test rel-L2 from Full's on the same testbed and seed, in the order of s.Rows. Rows without a
// matched Full seed are left out.
func ChangeFromFull(s Summary) []ChangeRow {
	full := map[string]Row{}
	for _, r := range s.Rows {
		if r.Method == "full" {
			full[r.Testbed] = r
		}
	}
	var out []ChangeRow
	for _, r := range s.Rows {
		f, ok := full[r.Testbed]
		if r.Method == "full" || !ok {
			continue
		}
		c := ChangeRow{Testbed: r.Testbed, Method: r.Method, Paper: math.NaN()}
		for i, seed := range r.Seeds {
			for j, fs := range f.Seeds {
				if fs == seed {
					c.Seeds = append(c.Seeds, seed)
					c.Percent = append(c.Percent, eval.PercentChange(r.Values[i], f.Values[j]))
				}
			}
		}
		if len(c.Seeds) == 0 {
			continue
		}
		c.Mean, c.SD = eval.MeanSD(c.Percent)
		if r.Paper != nil && f.Paper != nil {
			c.Paper = eval.PercentChange(r.Paper.Mean, f.Paper.Mean)
		}
		out = append(out, c)
	}
	return out
}

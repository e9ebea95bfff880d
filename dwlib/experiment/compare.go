package experiment

import (
	"fmt"
	"math"
	"strings"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// CompareRow is one profile's finished runs of one method on one testbed: how a change of the
// training recipe (a trained ablation, or any other profile) moves the validation and test
// scores, next to the baselines under that profile's protocol.
type CompareRow struct {
	Profile string
	Change  string // ProfileChange(Profile)
	// Seeds that have finished, and per seed: the best validation loss, the epoch it came at,
	// the epochs run and the test rel-L2 of that checkpoint.
	Seeds     []uint64
	BestVal   []float64
	BestEpoch []int
	Epochs    []int
	Test      []float64
	// ValAtTest is each seed's Result.ValAtTest (NaN where the result has none).
	ValAtTest []float64
	// Baselines holds the mean test rel-L2 over Seeds of each baseline (zero, damped persistence,
	// ridge AR; BaselineNames order), nil when no seed has finished or baselines were not asked for.
	Baselines []float64
}

// Compare reads the finished runs of testbed and method under each profile for the given seeds
// (opt.RunsDir, then the archive), and with baselines scores (or reads from their cache) the
// baselines under each profile's protocol. Nothing is trained: a profile whose runs have not
// finished has empty Seeds.
func Compare(opt Options, testbed, method string, profiles []string, seeds []uint64, baselines bool) ([]CompareRow, error) {
	var rows []CompareRow
	for _, p := range profiles {
		row := CompareRow{Profile: p, Change: ProfileChange(p)}
		var sums []float64
		for _, seed := range seeds {
			r, err := FinishedRun(opt, p, testbed, method, seed)
			if err != nil {
				return nil, err
			}
			if r == nil {
				continue
			}
			row.Seeds = append(row.Seeds, seed)
			row.BestVal = append(row.BestVal, r.BestVal)
			row.BestEpoch = append(row.BestEpoch, r.BestEpoch)
			row.Epochs = append(row.Epochs, len(r.Epochs))
			row.Test = append(row.Test, r.Test.RelL2)
			vt := math.NaN()
			if r.ValAtTest != nil {
				vt = r.ValAtTest.RelL2
			}
			row.ValAtTest = append(row.ValAtTest, vt)
			if !baselines {
				continue
			}
			set, err := RunBaselines(r.Config, opt)
			if err != nil {
				return nil, err
			}
			if sums == nil {
				sums = make([]float64, len(baselineNames))
			}
			for j, name := range baselineNames {
				b, ok := set.Get(name)
				if !ok {
					return nil, fmt.Errorf("experiment: %s seed %d: baseline %s missing", p, seed, name)
				}
				sums[j] += b.Test.RelL2
			}
		}
		for j := range sums {
			sums[j] /= float64(len(row.Seeds))
		}
		row.Baselines = sums
		rows = append(rows, row)
	}
	return rows, nil
}

// BestBaseline returns the lowest mean baseline score of the row and its name ("" when the row
// has none).
func (r CompareRow) BestBaseline() (string, float64) {
	name, best := "", math.Inf(1)
	for j, v := range r.Baselines {
		if v < best {
			name, best = baselineNames[j], v
		}
	}
	return name, best
}

// CompareMarkdown renders Compare's rows as a Markdown table: per profile the change, the seeds,
// the best validation loss and its epoch, the test rel-L2 (mean ± sd over seeds), the baselines
// and the ratio to the best of them (below 1: the model beats every baseline). Validation losses
// compare only between profiles with the same K, context and loss.
func CompareMarkdown(testbed, method string, rows []CompareRow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s, %s: profile | what changes | seeds | best val (mean) | val at test (mean) | best epoch / epochs | test rel-L2 (mean ± sd) |", testbed, method)
	for _, n := range baselineNames {
		fmt.Fprintf(&b, " %s |", n)
	}
	b.WriteString(" vs best baseline |\n|---|---|---|---|---|---|---|")
	for range baselineNames {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for _, r := range rows {
		change := r.Change
		if change == "" {
			change = "–"
		}
		if len(r.Seeds) == 0 {
			fmt.Fprintf(&b, "| %s | %s | 0 | not run | | | |", r.Profile, change)
			for range baselineNames {
				b.WriteString(" |")
			}
			b.WriteString(" |\n")
			continue
		}
		epochs := make([]string, len(r.Seeds))
		for i := range r.Seeds {
			epochs[i] = fmt.Sprintf("%d/%d", r.BestEpoch[i], r.Epochs[i])
		}
		m, sd := eval.MeanSD(r.Test)
		// The validation split under the test protocol, over the seeds whose results record it.
		atTest := "–"
		var vt []float64
		for _, v := range r.ValAtTest {
			if !math.IsNaN(v) {
				vt = append(vt, v)
			}
		}
		if len(vt) > 0 {
			atTest = fmt.Sprintf("%.4f", mean(vt))
			if len(vt) < len(r.Seeds) {
				atTest += fmt.Sprintf(" (%d of %d seeds)", len(vt), len(r.Seeds))
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %.4f | %s | %s | %s |", r.Profile, change, len(r.Seeds), mean(r.BestVal), atTest,
			strings.Join(epochs, ", "), meanSD(m, sd))
		for j := range baselineNames {
			if r.Baselines == nil {
				b.WriteString(" |")
				continue
			}
			fmt.Fprintf(&b, " %.4f |", r.Baselines[j])
		}
		if name, best := r.BestBaseline(); name != "" {
			fmt.Fprintf(&b, " %.3f (%s) |\n", m/best, name)
		} else {
			b.WriteString(" |\n")
		}
	}
	return b.String()
}

package diag

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// Moment is a 2×2 route moment printed as (II, IJ, JJ) with three decimals.
type Moment wiener.Sym2

// String formats m.
func (m Moment) String() string { return fmt.Sprintf("(%.3f, %.3f, %.3f)", m.II, m.IJ, m.JJ) }

// Gains is a gain pair (α, m) printed with three decimals.
type Gains [2]float64

// String formats g.
func (g Gains) String() string { return fmt.Sprintf("(%.3f, %.3f)", g[0], g[1]) }

// SplitRow is one decomposition of NonIdentifiable beside the second moment of samples drawn
// from it: the table of Section 3.3's argument. The struct tags are read by kernelext.TableOf.
type SplitRow struct {
	Shape         NoiseShape `table:"noise placement"`
	Fraction      float64    `table:"f,%.1f"`
	R             Moment     `table:"R (II, IJ, JJ)"`
	Law           Moment     `table:"P + R"`
	Sample        Moment     `table:"sample 2nd moment of s+n"`
	Unconstrained Gains      `table:"w_unc"`
	Constrained   Gains      `table:"w* (box)"`
}

// SplitRows returns one SplitRow per decomposition of T, the i-th with the second moment of n
// samples of s + ν drawn with seed i+1 (SampleCov), and the largest entry of |(P + R) - T| over
// all of them (0 when every split reproduces T exactly).
func SplitRows(T wiener.Sym2, ds []Decomposition, n int) (rows []SplitRow, maxLawErr float64, err error) {
	for i, d := range ds {
		S, err := SampleCov(d.P, d.R, n, uint64(i+1))
		if err != nil {
			return nil, 0, fmt.Errorf("diag.SplitRows: %v at f = %v: %w", d.Shape, d.Fraction, err)
		}
		maxLawErr = math.Max(maxLawErr, math.Max(math.Abs(d.Law.II-T.II), math.Max(math.Abs(d.Law.IJ-T.IJ), math.Abs(d.Law.JJ-T.JJ))))
		rows = append(rows, SplitRow{Shape: d.Shape, Fraction: d.Fraction, R: Moment(d.R), Law: Moment(d.Law), Sample: Moment(S),
			Unconstrained: d.Unconstrained, Constrained: d.Constrained})
	}
	return rows, maxLawErr, nil
}

// ExcessRiskTable tabulates the price of assuming the wrong split: row i, column j is the route
// risk of the gains solved under ds[i] when ds[j] is the truth, minus that of ds[j]'s own gains
// (CrossRisk; 0 on the diagonal), three decimals. A last row does the same for fully open BPTT,
// w = (1, 1).
func ExcessRiskTable(ds []Decomposition) (header []string, rows [][]string) {
	cross := CrossRisk(ds)
	header = []string{`gains solved assuming \ true split`}
	for _, d := range ds {
		header = append(header, d.Shape.String())
	}
	for i, d := range ds {
		row := []string{fmt.Sprintf("%s %s", d.Shape, Gains(d.Constrained))}
		for j := range ds {
			row = append(row, fmt.Sprintf("%.3f", cross[i][j]-cross[j][j]))
		}
		rows = append(rows, row)
	}
	bptt := []string{"BPTT " + Gains{1, 1}.String()}
	for j, d := range ds {
		bptt = append(bptt, fmt.Sprintf("%.3f", wiener.Risk([2]float64{1, 1}, d.P, d.R)-cross[j][j]))
	}
	return header, append(rows, bptt)
}

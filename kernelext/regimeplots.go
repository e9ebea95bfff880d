package kernelext

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/experiment"
	"gonum.org/v1/plot"
)

// RegimePlots draws a regime map (experiment.RegimeMap, with experiment.RegimeBaselines' means
// per point) as two bar charts over the training budgets: DW − Full with the upper half of its
// 95% paired interval (with one matched seed: the difference, without interval), and the mean test rel-L2 of
// Full, DW and the three baselines. Budgets without a matched seed are left out; ok is false when
// none is left.
func RegimePlots(pts []experiment.RegimePoint, bls [][]float64) (diff, scores *plot.Plot, ok bool, err error) {
	if len(bls) != len(pts) {
		return nil, nil, false, fmt.Errorf("kernelext: RegimePlots: %d points and %d baseline rows", len(pts), len(bls))
	}
	var labels []string
	var d, dErr, fullM, dwM, zeroM, dampedM, ridgeM []float64
	for i, p := range pts {
		if len(p.Seeds) == 0 {
			continue
		}
		if len(bls[i]) < 3 {
			return nil, nil, false, fmt.Errorf("kernelext: RegimePlots: %s has %d baselines, want 3", p.Profile, len(bls[i]))
		}
		labels = append(labels, fmt.Sprintf("%s (%.0f steps)", p.Profile, p.Steps))
		v, e := Mean(p.DW)-Mean(p.Full), math.NaN() // one seed: the difference, no interval
		if p.Paired != nil {
			v, e = p.Paired.Mean, p.Paired.Hi-p.Paired.Mean
		}
		d, dErr = append(d, v), append(dErr, e)
		fullM, dwM = append(fullM, Mean(p.Full)), append(dwM, Mean(p.DW))
		zeroM, dampedM, ridgeM = append(zeroM, bls[i][0]), append(dampedM, bls[i][1]), append(ridgeM, bls[i][2])
	}
	if len(labels) == 0 {
		return nil, nil, false, nil
	}
	lo := 0.0 // the axis must show negative differences (DW better) too
	for i := range d {
		if v := d[i] - dErr[i]; v < lo {
			lo = v
		}
	}
	if diff, err = BarChart("DW − Full (95% paired interval); below 0: DW better", "Δ test rel-L2", labels, 1.2*lo,
		Bars{Name: "DW − Full", Values: d, Errors: dErr}); err != nil {
		return nil, nil, false, err
	}
	scores, err = BarChart("Test rel-L2 against the baselines", "test rel-L2", labels, 0,
		Bars{Name: "Full BPTT", Values: fullM}, Bars{Name: "Internal-DW", Values: dwM},
		Bars{Name: "zero", Values: zeroM}, Bars{Name: "damped persistence", Values: dampedM},
		Bars{Name: "ridge AR", Values: ridgeM})
	if err != nil {
		return nil, nil, false, err
	}
	// Both panels share the x axis: one group per training budget.
	diff.X.Label.Text = "training budget (profile, mean Adam steps per run)"
	scores.X.Label.Text = diff.X.Label.Text
	return diff, scores, true, nil
}

package regime

import "math"

// MapPoint is one testbed on the predictive-regime map: the linear and nonlinear probes' long-
// horizon Ψ_D and ΔΨ_H averaged, then clipped at 0. Averaging comes first so that two probes that
// disagree around zero do not leave a spurious positive coordinate; clipping because the map shows
// only detected predictive value (a negative score means "none detected", not negative
// information). The unclipped averages are kept for the table.
type MapPoint struct {
	Name                  string
	PsiD, DeltaPsiH       float64 // averaged, clipped at 0
	RawPsiD, RawDeltaPsiH float64 // averaged, unclipped
}

// Point averages and clips two probes' long-horizon scores.
func Point(name string, linear, nonlinear LongScores) MapPoint {
	d := (linear.PsiD + nonlinear.PsiD) / 2
	h := (linear.DeltaPsiH + nonlinear.DeltaPsiH) / 2
	return MapPoint{Name: name, PsiD: math.Max(d, 0), DeltaPsiH: math.Max(h, 0), RawPsiD: d, RawDeltaPsiH: h}
}

// MapPoint is the result's point on the map.
func (r *Result) MapPoint(name string) MapPoint { return Point(name, r.Linear.Long, r.Nonlinear.Long) }

// PaperPoint is the paper's table row placed on the map the same way.
func (p PaperScores) PaperPoint(name string) MapPoint {
	return Point(name, LongScores{PsiD: p.LinearPsiD, DeltaPsiH: p.LinearDelta},
		LongScores{PsiD: p.NonlinearPsiD, DeltaPsiH: p.NonlinearDelta})
}

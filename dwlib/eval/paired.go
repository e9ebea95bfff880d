package eval

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PairedLevel is the two-sided confidence level of Paired's interval
// (Appendix "Matched-seed uncertainty": "pointwise 95% paired Student-t
// interval").
const PairedLevel = 0.95

// PairedDiff summarises matched differences d_s = a_s - b_s (Appendix
// "Matched-seed uncertainty", where a = L_DW and b = L_Full per seed s, so
// negative differences favour Internal-DW).
type PairedDiff struct {
	// N is the number of matched pairs n.
	N int
	// Diffs holds d_s = a_s - b_s in input order.
	Diffs []float64
	// Mean is d̄, SD the sample standard deviation s_d (n-1 denominator) and
	// SE = s_d / sqrt(n) its standard error.
	Mean, SD, SE float64
	// TCrit is t_{0.975, n-1}, the Student-t quantile of the interval
	// (4.3026527297494638 for the paper's n = 3; see studentTUpper).
	TCrit float64
	// Lo and Hi bound the 95% two-sided interval d̄ ± TCrit · s_d/sqrt(n).
	// It is "pointwise": no correction for comparing several datasets.
	Lo, Hi float64
}

// Paired computes the paper's matched-seed statistic for per-seed scores a
// and b, matched by index (a[s] and b[s] share seed s): the mean paired
// difference and its 95% paired Student-t interval with n-1 degrees of
// freedom. It returns an error when the lengths differ, when n < 2 (no
// sample standard deviation) or when a value is NaN or Inf.
func Paired(a, b []float64) (PairedDiff, error) {
	if len(a) != len(b) {
		return PairedDiff{}, fmt.Errorf("eval.Paired: length mismatch: len(a)=%d, len(b)=%d", len(a), len(b))
	}
	n := len(a)
	if n < 2 {
		return PairedDiff{}, fmt.Errorf("eval.Paired: need at least 2 matched pairs for a sample standard deviation, got %d", n)
	}
	d := make([]float64, n)
	for s := range a {
		if !isFinite(a[s]) || !isFinite(b[s]) {
			return PairedDiff{}, fmt.Errorf("eval.Paired: non-finite value at pair %d: a=%v, b=%v", s, a[s], b[s])
		}
		d[s] = a[s] - b[s]
	}
	mean, sd := MeanSD(d)
	se := sd / math.Sqrt(float64(n))
	t := studentTUpper((1-PairedLevel)/2, float64(n-1))
	return PairedDiff{
		N: n, Diffs: d,
		Mean: mean, SD: sd, SE: se,
		TCrit: t,
		Lo:    mean - t*se,
		Hi:    mean + t*se,
	}, nil
}

// MeanSD returns the arithmetic mean and the sample standard deviation
// (n-1 denominator) of xs, the "mean ± sample standard deviation over three
// matched seeds" convention of the paper's tables. With len(xs) == 1 the
// standard deviation is undefined and NaN is returned for it; an empty xs
// gives (NaN, NaN). The variance is computed in two passes (mean first) to
// avoid cancellation between nearly equal seed scores.
func MeanSD(xs []float64) (mean, sd float64) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n == 1 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(n-1))
}

// PercentChange returns 100·(new-base)/base, the paper's "percentage change
// in relative L2 from full BPTT" (negative = improvement when new is
// Internal-DW and base is full BPTT). E.g. MG's means 0.99966 vs 1.05412
// give -5.17%. A zero base yields ±Inf or NaN, following IEEE division.
func PercentChange(new, base float64) float64 {
	return 100 * (new - base) / base
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// studentTUpper returns the Student-t critical value t with upper-tail
// probability P(T > t) = q for nu degrees of freedom, e.g.
// t_{0.975,2} = studentTUpper(0.025, 2) = 0.95/sqrt(0.04875)
// = 4.30265272974946...
func studentTUpper(q, nu float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(1 - q)
}

package appdiag

import (
	"fmt"
	"math"
	"slices"
)

// Quantile is the q-quantile (0 ≤ q ≤ 1) of xs by linear interpolation between order statistics
// (type 7 of Hyndman and Fan, numpy's default, which the authors' summaries use): with the
// sorted values x_(0) ≤ … ≤ x_(n−1) and h = (n−1)q, it is x_(⌊h⌋) + (h−⌊h⌋)(x_(⌊h⌋+1) − x_(⌊h⌋)).
// It is NaN for an empty slice.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	if q < 0 || q > 1 {
		panic(fmt.Sprintf("appdiag: Quantile: q = %v outside [0, 1]", q))
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	h := float64(len(s)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// Median is Quantile(xs, 0.5): the middle value, or the mean of the two middle values.
func Median(xs []float64) float64 { return Quantile(xs, 0.5) }

// column returns rows[i][k] for every row.
func column(rows [][]float64, k int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = r[k]
	}
	return out
}

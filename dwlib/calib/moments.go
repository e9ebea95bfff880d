package calib

import (
	"math"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// moments is everything a calibration updates; the controller keeps a
// committed copy and, between Stage and Commit, a staged copy, so Commit is a
// plain swap. Per-(k,l) slices are laid out [K][L] (index k*L+l); gains are
// [K][L][2] with (alpha, m) last.
type moments struct {
	calibrations int           // committed calibration minibatches
	gains        []float64     // [K][L][2]
	T, R, P      []wiener.Sym2 // [K][L] EMA T̂, EMA R̂, P̂ of the last solve
	candidate    []string      // [K][L] last solve's Solution.Candidate
	fallback     []string      // [K][L] last solve's Solution.Fallback
	totProbes    []int         // [K][L] observations folded into T̂
	noiseProbes  []int         // [K][L] observations folded into R̂
}

// newMoments returns the fully open initial state: gains (1, 1), no moments.
func newMoments(K, L int) moments {
	n := K * L
	m := moments{
		gains:       make([]float64, 2*n),
		T:           make([]wiener.Sym2, n),
		R:           make([]wiener.Sym2, n),
		P:           make([]wiener.Sym2, n),
		candidate:   make([]string, n),
		fallback:    make([]string, n),
		totProbes:   make([]int, n),
		noiseProbes: make([]int, n),
	}
	for i := range m.gains {
		m.gains[i] = 1
	}
	return m
}

func (m moments) clone() moments {
	return moments{
		calibrations: m.calibrations,
		gains:        slices.Clone(m.gains),
		T:            slices.Clone(m.T),
		R:            slices.Clone(m.R),
		P:            slices.Clone(m.P),
		candidate:    slices.Clone(m.candidate),
		fallback:     slices.Clone(m.fallback),
		totProbes:    slices.Clone(m.totProbes),
		noiseProbes:  slices.Clone(m.noiseProbes),
	}
}

// ema folds the observation x into the running moment old with coefficient
// a (eq. plugin-route-moments): a·old + (1-a)·x, or x itself for the first
// observation, so the estimate is not biased towards zero.
func ema(old, x wiener.Sym2, a float64, first bool) wiener.Sym2 {
	if first {
		return x
	}
	return wiener.Sym2{
		II: a*old.II + (1-a)*x.II,
		IJ: a*old.IJ + (1-a)*x.IJ,
		JJ: a*old.JJ + (1-a)*x.JJ,
	}
}

// sameBits reports whether two float slices are bit-identical.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

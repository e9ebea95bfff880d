package train

import (
	"fmt"
	"math"

	. "github.com/gomlx/gomlx/core/graph"
)

// JRegStats summarises the forward-Jacobian gains JReg's penalty saw (method jreg only). The
// penalty coef·mean max(gain − 1, 0)² moves training only through gains above 1, so OverOne and
// Penalty say directly whether a coefficient can matter: with no gain above 1 the run is full
// BPTT, whatever the coefficient.
type JRegStats struct {
	Gains    int     `json:"gains"`     // gains measured: windows × penalised rollout steps
	MeanGain float64 `json:"mean_gain"` // mean gain
	MaxGain  float64 `json:"max_gain"`  // largest gain
	OverOne  float64 `json:"over_one"`  // share of gains above 1, the only ones the hinge penalises
	Penalty  float64 `json:"penalty"`   // mean max(gain − 1, 0)², before the coefficient
}

// jregStatsWidth is the length of the graphs' JReg statistics vector (see jregStatsNode).
const jregStatsWidth = 4

// jregStatsNode returns the sums behind JRegStats for gains of any shape, as a vector
// [Σ gain, Σ max(gain − 1, 0)², #{gain > 1}, max gain]; it is a graph output only, outside the
// differentiated objective, so it changes no gradient.
func jregStatsNode(gain *Node) *Node {
	gain = StopGradient(gain)
	over := SubScalar(gain, 1)
	excess := Max(over, ZerosLike(over))
	above := ConvertDType(GreaterThan(over, ZerosLike(over)), gain.DType())
	return Stack([]*Node{ReduceAllSum(gain), ReduceAllSum(Mul(excess, excess)), ReduceAllSum(above), ReduceAllMax(gain)}, 0)
}

// jregStatsOf turns the sums of jregStatsNode over n gains into JRegStats.
func jregStatsOf(sums []float64, n int) JRegStats {
	if n <= 0 || len(sums) != jregStatsWidth {
		return JRegStats{}
	}
	f := float64(n)
	return JRegStats{Gains: n, MeanGain: sums[0] / f, Penalty: sums[1] / f, OverOne: sums[2] / f, MaxGain: sums[3]}
}

// Merge returns the statistics of s's gains and o's together.
func (s JRegStats) Merge(o JRegStats) JRegStats {
	switch {
	case o.Gains == 0:
		return s
	case s.Gains == 0:
		return o
	}
	n := s.Gains + o.Gains
	a, b := float64(s.Gains)/float64(n), float64(o.Gains)/float64(n)
	return JRegStats{
		Gains:    n,
		MeanGain: a*s.MeanGain + b*o.MeanGain,
		MaxGain:  math.Max(s.MaxGain, o.MaxGain),
		OverOne:  a*s.OverOne + b*o.OverOne,
		Penalty:  a*s.Penalty + b*o.Penalty,
	}
}

// mergeJReg merges o into *dst, allocating it on first use; a nil o leaves dst alone.
func mergeJReg(dst **JRegStats, o *JRegStats) {
	if o == nil {
		return
	}
	if *dst == nil {
		c := *o
		*dst = &c
		return
	}
	m := (*dst).Merge(*o)
	*dst = &m
}

// String is one line for a log: "JReg gains mean 0.9990, max 1.0016, 25.4% above 1, penalty 8.7e-08".
func (s JRegStats) String() string {
	return fmt.Sprintf("JReg gains mean %.4f, max %.4f, %.1f%% above 1, penalty %.2g", s.MeanGain, s.MaxGain, 100*s.OverOne, s.Penalty)
}

package regime

import (
	"fmt"
	"math"
	"slices"
)

// Scores are one probe's (linear or nonlinear) results, per horizon and averaged over the long
// horizons.
type Scores struct {
	// Risks per horizon: the held-out mean squared error (mean over coordinates, then over each
	// unit's examples, then summed over units) of the fitting-mean predictor, the drive-only
	// probe, the drive-plus-history probe and its null.
	RMean, RD, RDH, RNull []float64
	// Scores per horizon: Ψ_D = 1 − R_D/R_mean, Ψ_H = 1 − R_{D+H}/R_D, Ψ_H^null = 1 − R_null/R_D
	// and ΔΨ_H = Ψ_H − Ψ_H^null.
	PsiD, PsiH, PsiHNull, DeltaPsiH []float64
	// Long holds the means of the per-horizon scores over k >= LongMin.
	Long LongScores
}

// LongScores are long-horizon averages (k >= 8 in the paper): the numbers its table reports.
type LongScores struct {
	PsiD, PsiH, PsiHNull, DeltaPsiH float64
}

// unitRisk is each unit's mean squared error: the squared error averaged over coordinates, then
// over the unit's examples. Summing it over units (rather than pooling examples) gives every
// held-out unit the same weight whatever number of examples it drew, as the authors' probe does.
// Units that drew no example contribute 0 to both sides of every ratio.
func unitRisk(pred, target [][]float64, origins []Origin, units int) []float64 {
	sum := make([]float64, units)
	count := make([]int, units)
	for i, o := range origins {
		e := 0.0
		for j, v := range target[i] {
			d := pred[i][j] - v
			e += d * d
		}
		sum[o.Unit] += e / float64(len(target[i]))
		count[o.Unit]++
	}
	for u := range sum {
		if count[u] > 0 {
			sum[u] /= float64(count[u])
		}
	}
	return sum
}

// pooledMSE is the plain mean squared error over examples and coordinates (the width selection).
func pooledMSE(pred, target [][]float64) float64 {
	s, n := 0.0, 0
	for i := range target {
		for j, v := range target[i] {
			d := pred[i][j] - v
			s += d * d
			n++
		}
	}
	return s / float64(n)
}

// medianRisk is, per unit, the median over null repeats.
func medianRisk(repeats [][]float64) []float64 {
	out := make([]float64, len(repeats[0]))
	v := make([]float64, len(repeats))
	for u := range out {
		for r := range repeats {
			v[r] = repeats[r][u]
		}
		out[u] = median(v)
	}
	return out
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// gain is 1 − Σnum/Σden, the risk reduction of num relative to den (den floored at 1e-30).
func gain(num, den []float64) float64 { return 1 - sum(num)/math.Max(sum(den), 1e-30) }

// finish turns the per-horizon unit risks into Scores. Each argument holds one slice of unit
// risks per horizon.
func finish(horizons []int, longMin int, mean, d, dh, null [][]float64) (Scores, error) {
	var s Scores
	var long [4][]float64
	for i, k := range horizons {
		s.RMean = append(s.RMean, sum(mean[i]))
		s.RD = append(s.RD, sum(d[i]))
		s.RDH = append(s.RDH, sum(dh[i]))
		s.RNull = append(s.RNull, sum(null[i]))
		psiD, psiH, psiN := gain(d[i], mean[i]), gain(dh[i], d[i]), gain(null[i], d[i])
		s.PsiD = append(s.PsiD, psiD)
		s.PsiH = append(s.PsiH, psiH)
		s.PsiHNull = append(s.PsiHNull, psiN)
		s.DeltaPsiH = append(s.DeltaPsiH, psiH-psiN)
		if k >= longMin {
			long[0] = append(long[0], psiD)
			long[1] = append(long[1], psiH)
			long[2] = append(long[2], psiN)
			long[3] = append(long[3], psiH-psiN)
		}
	}
	if len(long[0]) == 0 {
		return s, fmt.Errorf("regime: no horizon >= %d", longMin)
	}
	n := float64(len(long[0]))
	s.Long = LongScores{PsiD: sum(long[0]) / n, PsiH: sum(long[1]) / n, PsiHNull: sum(long[2]) / n, DeltaPsiH: sum(long[3]) / n}
	return s, nil
}

package regime

import (
	"fmt"
	"math/rand/v2"
)

// The history null: the same probe fitted on history that no longer belongs to its examples.
// A finite probe gains a little from any extra columns by chance (and a kNN probe's neighbours
// change when columns are added), so Ψ_H alone overstates what history is worth; ΔΨ_H subtracts
// what the null gains. Only the fitting side is broken: the held-out queries keep their own
// history, exactly as a model that had learnt nothing from history would be evaluated.
const (
	// NullPermute (the authors' generic probe code) permutes the fitting examples' history rows:
	// drive and target stay paired, history is assigned to a random other example.
	NullPermute = "permute"
	// NullCircular (the paper's text, "circularly shifted history"; the authors' fMRI probe)
	// shifts each fitting unit's projected state series circularly in time by a random offset and
	// cuts the history windows from the shifted series. Each unit keeps its own marginal
	// distribution and autocorrelation; only the alignment with drive and target is lost.
	NullCircular = "circular"
)

// CircularShift returns rows rotated by c steps: out[t] = rows[(t+c) mod T]. The multiset of rows
// is unchanged, so every marginal statistic of the unit is kept.
func CircularShift(rows [][]float64, c int) [][]float64 {
	T := len(rows)
	out := make([][]float64, T)
	if T == 0 {
		return out
	}
	c = ((c % T) + T) % T
	for t := range rows {
		out[t] = rows[(t+c)%T]
	}
	return out
}

// shiftDraw draws a circular offset for a unit of length T: uniform on [minShift, T−minShift]
// when that range is not empty, so the shifted history is at least minShift steps away from its
// own position; otherwise uniform on [1, T−1].
func shiftDraw(T, minShift int, rng *rand.Rand) int {
	if T < 2 {
		return 0
	}
	if minShift >= 1 && T-2*minShift >= 0 {
		return minShift + rng.IntN(T-2*minShift+1)
	}
	return 1 + rng.IntN(T-1)
}

// nullHistory builds one repeat's fitting history features for the null of the given kind; z holds
// the PCA scores of the fitting units, hist the true history features of origins (width W).
func nullHistory(kind string, z [][][]float64, origins []Origin, W int, hist [][]float64, minShift int, rng *rand.Rand) ([][]float64, error) {
	switch kind {
	case NullPermute:
		perm := rng.Perm(len(hist))
		out := make([][]float64, len(hist))
		for i, j := range perm {
			out[i] = hist[j]
		}
		return out, nil
	case NullCircular:
		shifted := make([][][]float64, len(z))
		for u, rows := range z {
			shifted[u] = CircularShift(rows, shiftDraw(len(rows), minShift, rng))
		}
		return historyFeatures(shifted, origins, W), nil
	}
	return nil, fmt.Errorf("regime: unknown null %q (want %q or %q)", kind, NullPermute, NullCircular)
}

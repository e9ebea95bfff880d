package regime

import (
	"math/rand/v2"
	"slices"
)

// Origin is one probe example: unit Unit, first future index Start. Its history is the W states
// X[Start−W .. Start−1] (the last one is the latest observed state), its target at horizon k is
// X[Start+k−1], and its drive features at horizon k are Drive[Start+shift .. Start+shift+k−1]
// (see Config.DriveShift).
type Origin struct{ Unit, Start int }

// series is one unit as the probes see it: standardised states, their PCA scores, and the drive
// (nil for autonomous testbeds).
type series struct {
	x, z, drive [][]float64
}

// Origins lists every origin of units of the given lengths at which the longest history (maxW
// states), the longest horizon (maxH states) and the shifted drive window all lie inside the
// unit. Every start is kept when limit <= 0 or there are at most limit of them; otherwise limit
// origins are drawn without replacement by rng. The result is in (unit, start) order.
//
// All horizons of one origin therefore come from the same examples: the horizons differ only in
// what is predicted, not in which states are used.
func Origins(lengths []int, maxW, maxH, shift, limit int, rng *rand.Rand) []Origin {
	var all []Origin
	for u, n := range lengths {
		lo, hi := max(maxW, -shift), n-maxH-max(shift, 0)
		for s := lo; s <= hi; s++ {
			all = append(all, Origin{u, s})
		}
	}
	if limit <= 0 || len(all) <= limit {
		return all
	}
	pick := rng.Perm(len(all))[:limit]
	slices.Sort(pick)
	out := make([]Origin, limit)
	for i, j := range pick {
		out[i] = all[j]
	}
	return out
}

// historyFeatures concatenates the W PCA-projected states before each origin, oldest first.
func historyFeatures(z [][][]float64, origins []Origin, W int) [][]float64 {
	out := make([][]float64, len(origins))
	for i, o := range origins {
		var row []float64
		for t := o.Start - W; t < o.Start; t++ {
			row = append(row, z[o.Unit][t]...)
		}
		out[i] = row
	}
	return out
}

// driveFeatures concatenates the k drive rows of each origin's horizon window (zero-width rows
// when the testbed has no drive).
func driveFeatures(units []series, origins []Origin, k, shift int) [][]float64 {
	out := make([][]float64, len(origins))
	for i, o := range origins {
		d := units[o.Unit].drive
		if d == nil {
			out[i] = []float64{}
			continue
		}
		row := make([]float64, 0, k*len(d[0]))
		for t := o.Start + shift; t < o.Start+shift+k; t++ {
			row = append(row, d[t]...)
		}
		out[i] = row
	}
	return out
}

// targets returns the standardised state k steps ahead of each origin's last observed state.
func targets(units []series, origins []Origin, k int) [][]float64 {
	out := make([][]float64, len(origins))
	for i, o := range origins {
		out[i] = units[o.Unit].x[o.Start+k-1]
	}
	return out
}

// concat joins two feature blocks row by row.
func concat(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		row := make([]float64, 0, len(a[i])+len(b[i]))
		out[i] = append(append(row, a[i]...), b[i]...)
	}
	return out
}

// scores returns the PCA scores of every unit.
func scoresOf(units []series) [][][]float64 {
	out := make([][][]float64, len(units))
	for i, u := range units {
		out[i] = u.z
	}
	return out
}

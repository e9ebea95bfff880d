package regime

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// PCA projects states on the leading principal components of the fitting frames. The history
// features use it so that a window of W states costs W·r columns instead of W·d: for the
// high-dimensional testbeds of the paper (fields, parcels) that is what keeps the probes
// tractable. For the testbeds here the table's dimension equals the state dimension (8 for
// Mackey–Glass and NARMA-5, 7 for ETT), so the projection is a rotation onto decorrelated axes.
type PCA struct {
	Mean []float64
	// Components holds the r unit principal directions as columns (d×r), ordered by decreasing
	// variance; each is signed so that its largest-magnitude entry is positive.
	Components *mat.Dense
	// Variances are the r leading eigenvalues of the frames' covariance (divide by n).
	Variances []float64
}

// FitPCA computes r principal components of frames (rows of equal width d). The number kept is
// min(r, n−1, d), as a rank-r factorisation of n centred frames cannot have more.
func FitPCA(frames [][]float64, r int) (*PCA, error) {
	n := len(frames)
	if n < 2 || r < 1 {
		return nil, fmt.Errorf("regime: pca: %d frames and rank %d, want >= 2 and >= 1", n, r)
	}
	d := len(frames[0])
	r = min(r, n-1, d)
	if r < 1 {
		return nil, errors.New("regime: pca: frames have no columns")
	}
	mean := columnMeans(frames)
	xc := mat.NewDense(n, d, nil)
	for i, f := range frames {
		for j, v := range f {
			xc.Set(i, j, v-mean[j])
		}
	}
	cov := mat.NewSymDense(d, nil)
	cov.SymOuterK(1/float64(n), xc.T())
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, errors.New("regime: pca: eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	p := &PCA{Mean: mean, Components: mat.NewDense(d, r, nil), Variances: make([]float64, r)}
	for c := range r {
		src := order[c]
		p.Variances[c] = math.Max(vals[src], 0)
		big, sign := 0.0, 1.0
		for j := range d {
			if v := vecs.At(j, src); math.Abs(v) > big {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for j := range d {
			p.Components.Set(j, c, sign*vecs.At(j, src))
		}
	}
	return p, nil
}

// Dim is the number of components kept.
func (p *PCA) Dim() int { _, r := p.Components.Dims(); return r }

// Project returns the component scores of each row (centred by the fitting mean).
func (p *PCA) Project(rows [][]float64) [][]float64 {
	d, r := p.Components.Dims()
	out := make([][]float64, len(rows))
	flat := make([]float64, len(rows)*r)
	for i, row := range rows {
		o := flat[i*r : (i+1)*r : (i+1)*r]
		for c := range r {
			s := 0.0
			for j := range d {
				s += (row[j] - p.Mean[j]) * p.Components.At(j, c)
			}
			o[c] = s
		}
		out[i] = o
	}
	return out
}

package prior

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// pcaFit holds mu_f and the leading eigenvectors of C_f (eq.
// ieeg-factor-covariance), computed from the fit rows only.
type pcaFit struct {
	mean  []float64
	basis *mat.Dense // D×rank, orthonormal columns, eigenvalues descending
}

// fitPCA computes the mean and the top-rank eigenvectors of the sample
// covariance (normalised by n-1) of the rows in spans.
func fitPCA(rows [][]float64, spans []Span, D, rank int) (*pcaFit, error) {
	n := 0
	mean := make([]float64, D)
	for _, s := range spans {
		for t := s.Start; t < s.End; t++ {
			for d, v := range rows[t] {
				mean[d] += v
			}
			n++
		}
	}
	if n < 2 {
		return nil, fmt.Errorf("prior: PCA needs at least 2 fit rows, have %d", n)
	}
	for d := range mean {
		mean[d] /= float64(n)
	}
	cov := mat.NewSymDense(D, nil)
	x := make([]float64, D)
	const chunk = 256
	buf := mat.NewDense(chunk, D, nil)
	m := 0
	flush := func() {
		if m > 0 {
			cov.SymRankK(cov, 1, buf.Slice(0, m, 0, D).T())
			m = 0
		}
	}
	for _, s := range spans {
		for t := s.Start; t < s.End; t++ {
			for d, v := range rows[t] {
				x[d] = v - mean[d]
			}
			copy(buf.RawRowView(m), x)
			if m++; m == chunk {
				flush()
			}
		}
	}
	flush()
	cov.ScaleSym(1/float64(n-1), cov)
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, fmt.Errorf("prior: PCA: eigen-decomposition of the %d×%d fit covariance failed", D, D)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, D)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return vals[order[a]] > vals[order[b]] })
	basis := mat.NewDense(D, rank, nil)
	for j := range rank {
		for d := range D {
			basis.Set(d, j, vecs.At(d, order[j]))
		}
	}
	return &pcaFit{mean: mean, basis: basis}, nil
}

// scores returns the factor scores a_t = Lᵀ(x_t - mu) of the first rank
// factors for rows[lo:hi], [hi-lo][rank].
func (p *pcaFit) scores(rows [][]float64, lo, hi, rank int) [][]float64 {
	D, stride := len(p.mean), p.basis.RawMatrix().Stride
	raw := p.basis.RawMatrix().Data
	out := make([][]float64, hi-lo)
	flat := make([]float64, (hi-lo)*rank)
	for t := lo; t < hi; t++ {
		a := flat[(t-lo)*rank : (t-lo+1)*rank : (t-lo+1)*rank]
		for d := range D {
			v := rows[t][d] - p.mean[d]
			if v == 0 {
				continue
			}
			for j, l := range raw[d*stride : d*stride+rank] {
				a[j] += l * v
			}
		}
		out[t-lo] = a
	}
	return out
}

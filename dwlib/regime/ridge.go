package regime

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// DefaultRidge is the paper's relative ridge coefficient: the linear probe adds 0.01 times the
// mean diagonal entry of the normalised feature Gram matrix to that diagonal. Relative, because
// the probes compare feature sets of very different widths (8 drive columns at k = 1, hundreds at
// k = 64 with history): one absolute λ would shrink them very differently.
const DefaultRidge = 0.01

// Ridge is the linear probe: ridge regression with an unpenalised intercept on standardised
// features, one output per target column.
//
// Fitting standardises the features with the fitting rows' statistics ([Scaler]), centres them
// and the targets, and solves
//
//	(G + ρ·mean(diag G)·I) B = Xcᵀ Yc / n,   G = Xcᵀ Xc / n,
//
// with ρ the relative ridge coefficient. The prediction for a query row x is ȳ + (z(x) − z̄) B,
// z being the standardisation. Because the features are standardised, mean(diag G) is 1 except
// for columns at the SDFloor; it is kept explicit so that the definition does not depend on that.
type Ridge struct {
	scaler Scaler
	zMean  []float64  // mean of the standardised fitting features (0 up to rounding)
	b      *mat.Dense // p×m coefficients; nil when there are no features
	yMean  []float64
}

// FitRidge fits the linear probe on feature rows x and target rows y (same count, at least one).
// Zero-width features are allowed: the probe is then the fitting mean of y, which is how the
// drive-only predictor of an autonomous testbed comes out exactly as the mean predictor.
func FitRidge(x, y [][]float64, rel float64) (*Ridge, error) {
	n := len(y)
	if n == 0 || len(x) != n {
		return nil, fmt.Errorf("regime: ridge: %d feature rows and %d target rows", len(x), n)
	}
	if !(rel >= 0) || math.IsInf(rel, 0) {
		return nil, fmt.Errorf("regime: ridge: relative coefficient %v must be finite and >= 0", rel)
	}
	r := &Ridge{yMean: columnMeans(y)}
	p, m := len(x[0]), len(y[0])
	if p == 0 {
		return r, nil
	}
	r.scaler = FitScaler(x)
	z := r.scaler.Apply(x)
	r.zMean = columnMeans(z)
	xc := mat.NewDense(n, p, nil)
	yc := mat.NewDense(n, m, nil)
	for i := range n {
		for j := range p {
			xc.Set(i, j, z[i][j]-r.zMean[j])
		}
		for j := range m {
			yc.Set(i, j, y[i][j]-r.yMean[j])
		}
	}
	g := mat.NewSymDense(p, nil)
	g.SymOuterK(1/float64(n), xc.T())
	trace := 0.0
	for j := range p {
		trace += g.At(j, j)
	}
	lam := rel * math.Max(trace/float64(p), 1e-12)
	for j := range p {
		g.SetSym(j, j, g.At(j, j)+lam)
	}
	var cross mat.Dense
	cross.Mul(xc.T(), yc)
	cross.Scale(1/float64(n), &cross)
	var ch mat.Cholesky
	if !ch.Factorize(g) {
		return nil, errors.New("regime: ridge: the regularised Gram matrix is not positive definite")
	}
	r.b = mat.NewDense(p, m, nil)
	if err := ch.SolveTo(r.b, &cross); err != nil {
		return nil, fmt.Errorf("regime: ridge: %w", err)
	}
	return r, nil
}

// Predict returns one prediction row per query row.
func (r *Ridge) Predict(x [][]float64) [][]float64 {
	m := len(r.yMean)
	out := make([][]float64, len(x))
	if r.b == nil {
		for i := range out {
			out[i] = append([]float64(nil), r.yMean...)
		}
		return out
	}
	z := r.scaler.Apply(x)
	p := len(r.zMean)
	zc := mat.NewDense(max(len(x), 1), p, nil)
	for i := range x {
		for j := range p {
			zc.Set(i, j, z[i][j]-r.zMean[j])
		}
	}
	var pred mat.Dense
	pred.Mul(zc, r.b)
	for i := range out {
		o := make([]float64, m)
		for j := range m {
			o[j] = pred.At(i, j) + r.yMean[j]
		}
		out[i] = o
	}
	return out
}

// columnMeans is the mean of each column of rows (at least one row).
func columnMeans(rows [][]float64) []float64 {
	mean := make([]float64, len(rows[0]))
	for _, r := range rows {
		for j, v := range r {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(rows))
	}
	return mean
}

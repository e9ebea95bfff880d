package prior

import (
	"fmt"
	"math"
)

// FactorModel is the iEEG sampler predictor of one fold (eqs.
// ieeg-factor-covariance to ieeg-prior-predictor): the fit mean Mean, the
// leading orthonormal eigenvectors Basis of the fit covariance (D×Rank,
// column j in Basis[d][j]) and one capped ridge AR(p) per factor, Phi[j].
type FactorModel struct {
	Mean  []float64
	Basis [][]float64 // [D][Rank]
	Phi   [][]float64 // [Rank][p]
	// Kappa[j] is the shrink factor the root-radius cap applied to factor j
	// (1: the fitted AR was within the cap).
	Kappa []float64
}

// Rank is the number of retained factors rho.
func (m *FactorModel) Rank() int { return len(m.Phi) }

// Order is the AR order p.
func (m *FactorModel) Order() int {
	if len(m.Phi) == 0 {
		return 0
	}
	return len(m.Phi[0])
}

// FitFactorModel fits the predictor of eqs. ieeg-factor-covariance and
// ieeg-factor-ar on the rows of the fit segments only: the PCA mean and the
// top rank eigenvectors of the fit covariance, then for each factor a ridge
// AR(order) over the targets whose complete lag window lies in one fit
// segment (relative ridge, Gram-scaled), capped to root radius <= radiusCap.
func FitFactorModel(rows [][]float64, fit []Span, rank, order int, ridge, radiusCap float64) (*FactorModel, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("prior: FitFactorModel: no rows")
	}
	D := len(rows[0])
	if rank < 1 || rank > D {
		return nil, fmt.Errorf("prior: FitFactorModel: rank=%d must be in [1, D=%d]", rank, D)
	}
	pca, err := fitPCA(rows, fit, D, rank)
	if err != nil {
		return nil, fmt.Errorf("prior: FitFactorModel: %w", err)
	}
	return fitFactorAR(fitScores(rows, fit, pca, rank), pca, rank, order, ridge, radiusCap)
}

// fitScores returns the factor scores of the fit segments, [segment][t][factor].
func fitScores(rows [][]float64, fit []Span, pca *pcaFit, rank int) [][][]float64 {
	segs := make([][][]float64, len(fit))
	for i, s := range fit {
		segs[i] = pca.scores(rows, s.Start, s.End, rank)
	}
	return segs
}

// fitFactorAR fits the capped ridge AR of each of the first rank factors on
// the fit segments' scores segs (from fitScores with at least rank factors).
func fitFactorAR(segs [][][]float64, pca *pcaFit, rank, order int, ridge, radiusCap float64) (*FactorModel, error) {
	D := len(pca.mean)
	m := &FactorModel{Mean: append([]float64(nil), pca.mean...), Basis: make([][]float64, D), Phi: make([][]float64, rank), Kappa: make([]float64, rank)}
	for d := range D {
		m.Basis[d] = make([]float64, rank)
		for j := range rank {
			m.Basis[d][j] = pca.basis.At(d, j)
		}
	}
	series := make([][]float64, len(segs))
	for j := range rank {
		for i, seg := range segs {
			y := make([]float64, len(seg))
			for t, a := range seg {
				y[t] = a[j]
			}
			series[i] = y
		}
		phi, err := FitScalarAR(series, order, ridge)
		if err != nil {
			return nil, fmt.Errorf("prior: factor %d: %w", j, err)
		}
		if m.Phi[j], m.Kappa[j], err = CapRadius(phi, radiusCap); err != nil {
			return nil, fmt.Errorf("prior: factor %d: %w", j, err)
		}
	}
	return m, nil
}

// truncate returns the model restricted to its first rank factors (the
// factor ARs are independent, so a smaller rho reuses them).
func (m *FactorModel) truncate(rank int) *FactorModel {
	t := &FactorModel{Mean: m.Mean, Basis: make([][]float64, len(m.Basis)), Phi: m.Phi[:rank], Kappa: m.Kappa[:rank]}
	for d, b := range m.Basis {
		t.Basis[d] = b[:rank]
	}
	return t
}

// Forecast returns x̂_{o}, ..., x̂_{o+K-1} from the rows before origin o
// (eqs. ieeg-factor-forecast and ieeg-prior-predictor): the factor scores of
// rows o-p..o-1 start the AR recursion of each factor, and the component of
// x_{o-1} - mu outside the factor subspace is held at its last value,
//
//	x̂_{o+k} = mu + L â_{o+k} + (I - L Lᵀ)(x_{o-1} - mu).
//
// It needs o >= max(p, 1); the caller keeps the history inside one held-out
// span. The result is [K][D] flat.
func (m *FactorModel) Forecast(rows [][]float64, o, K int) ([]float64, error) {
	p, rank, D := m.Order(), m.Rank(), len(m.Mean)
	if o < max(p, 1) || o > len(rows) {
		return nil, fmt.Errorf("prior: FactorModel.Forecast: origin %d needs %d history rows within %d rows", o, max(p, 1), len(rows))
	}
	if K < 1 {
		return nil, fmt.Errorf("prior: FactorModel.Forecast: K=%d must be >= 1", K)
	}
	lo := o - max(p, 1)
	hist := make([][]float64, o-lo) // [t][factor]
	for t := lo; t < o; t++ {
		a := make([]float64, rank)
		for d := range D {
			v := rows[t][d] - m.Mean[d]
			for j := range rank {
				a[j] += m.Basis[d][j] * v
			}
		}
		hist[t-lo] = a
	}
	last := hist[len(hist)-1]
	perp := make([]float64, D) // (I - L Lᵀ)(x_{o-1} - mu)
	for d := range D {
		v := rows[o-1][d] - m.Mean[d]
		for j := range rank {
			v -= m.Basis[d][j] * last[j]
		}
		perp[d] = v
	}
	out := make([]float64, K*D)
	for k := range K {
		copy(out[k*D:(k+1)*D], m.Mean)
		for d := range D {
			out[k*D+d] += perp[d]
		}
	}
	y := make([]float64, len(hist))
	for j := range rank {
		for t, a := range hist {
			y[t] = a[j]
		}
		f := arForecast(m.Phi[j], y, K)
		for k, v := range f {
			for d := range D {
				out[k*D+d] += m.Basis[d][j] * v
			}
		}
	}
	for i, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("prior: FactorModel.Forecast: non-finite forecast at horizon %d", i/D+1)
		}
	}
	return out, nil
}

// residual is x_{o+k} - x̂_{o+k} for k < K, [K][D] flat.
func residual(rows [][]float64, o int, pred []float64) []float64 {
	D := len(rows[0])
	K := len(pred) / D
	e := make([]float64, K*D)
	for k := range K {
		for d := range D {
			e[k*D+d] = rows[o+k][d] - pred[k*D+d]
		}
	}
	return e
}

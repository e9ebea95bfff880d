package prior

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// CenterSubjects returns copies of the subjects' responses with each
// subject's static mean over time removed (eq. fmri-subject-centering).
func CenterSubjects(subjects [][][]float64) [][][]float64 {
	out := make([][][]float64, len(subjects))
	for i, x := range subjects {
		if len(x) == 0 {
			continue
		}
		D := len(x[0])
		mean := make([]float64, D)
		for _, r := range x {
			for d, v := range r {
				mean[d] += v
			}
		}
		for d := range mean {
			mean[d] /= float64(len(x))
		}
		out[i] = make([][]float64, len(x))
		for t, r := range x {
			c := make([]float64, D)
			for d, v := range r {
				c[d] = v - mean[d]
			}
			out[i][t] = c
		}
	}
	return out
}

// SubjectFolds assigns S subjects to folds at random: a seeded permutation,
// then position mod folds, so fold sizes differ by at most one (the
// authors' code assigns subjects the same way; the paper says only
// "subjects are assigned to cross-fitting folds").
func SubjectFolds(S, folds int, seed uint64) ([]int, error) {
	if folds < 2 || folds > S {
		return nil, fmt.Errorf("prior: SubjectFolds: folds=%d must be in [2, S=%d]", folds, S)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7375626a)) // "subj"
	perm := rng.Perm(S)
	a := make([]int, S)
	for pos, s := range perm {
		a[s] = pos % folds
	}
	return a, nil
}

// SubjectModel is the fMRI sampler predictor of one fold (eqs.
// fmri-shared-deviation to fmri-prior-predictor): the shared response
// Shared[t] = M_t, the mean of the centred fit subjects, and one capped
// ridge AR(p) per parcel, Phi[c], fit jointly on the fit subjects'
// deviations Δx_{a,t} = x_{a,t} - M_t.
type SubjectModel struct {
	Shared [][]float64 // [T][D]
	Phi    [][]float64 // [D][p]
	Kappa  []float64   // [D] root-radius shrink factors (1: unchanged)
}

// Order is p.
func (m *SubjectModel) Order() int {
	if len(m.Phi) == 0 {
		return 0
	}
	return len(m.Phi[0])
}

// FitSubjectModel fits the predictor from the centred responses of the fit
// subjects (indices into centred, each [T][D] with the same T). Order 0
// gives the shared response alone.
func FitSubjectModel(centred [][][]float64, fit []int, order int, ridge, radiusCap float64) (*SubjectModel, error) {
	if len(fit) == 0 {
		return nil, fmt.Errorf("prior: FitSubjectModel: no fit subjects")
	}
	T, D := len(centred[fit[0]]), len(centred[fit[0]][0])
	m := &SubjectModel{Shared: make([][]float64, T), Phi: make([][]float64, D), Kappa: make([]float64, D)}
	for t := range T {
		s := make([]float64, D)
		for _, a := range fit {
			for d, v := range centred[a][t] {
				s[d] += v
			}
		}
		for d := range s {
			s[d] /= float64(len(fit))
		}
		m.Shared[t] = s
	}
	series := make([][]float64, len(fit))
	for c := range D {
		for i, a := range fit {
			y := make([]float64, T)
			for t := range T {
				y[t] = centred[a][t][c] - m.Shared[t][c]
			}
			series[i] = y
		}
		phi, err := FitScalarAR(series, order, ridge)
		if err != nil {
			return nil, fmt.Errorf("prior: FitSubjectModel: parcel %d: %w", c, err)
		}
		if m.Phi[c], m.Kappa[c], err = CapRadius(phi, radiusCap); err != nil {
			return nil, fmt.Errorf("prior: FitSubjectModel: parcel %d: %w", c, err)
		}
	}
	return m, nil
}

// Forecast returns x̂_{o+k} = M_{o+k} + Δx̂_{o+k}, k < K, for a held-out
// subject's centred response x ([T][D]): the deviation history x_t - M_t of
// rows o-p..o-1 starts each parcel's AR recursion (eq.
// fmri-prior-predictor). Needs max(p,1) <= o and o+K <= T. [K][D] flat.
func (m *SubjectModel) Forecast(x [][]float64, o, K int) ([]float64, error) {
	p, T, D := m.Order(), len(m.Shared), len(m.Phi)
	if o < max(p, 1) || o+K > T || K < 1 {
		return nil, fmt.Errorf("prior: SubjectModel.Forecast: origin %d, K=%d outside [max(p,1)=%d, T-K=%d]", o, K, max(p, 1), T-K)
	}
	if len(x) != T {
		return nil, fmt.Errorf("prior: SubjectModel.Forecast: subject has T=%d, the shared response %d", len(x), T)
	}
	out := make([]float64, K*D)
	for k := range K {
		copy(out[k*D:(k+1)*D], m.Shared[o+k])
	}
	if p == 0 {
		return out, nil
	}
	y := make([]float64, p)
	for c := range D {
		for l := range p {
			t := o - p + l
			y[l] = x[t][c] - m.Shared[t][c]
		}
		for k, v := range arForecast(m.Phi[c], y, K) {
			out[k*D+c] += v
		}
	}
	for i, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("prior: SubjectModel.Forecast: non-finite forecast at horizon %d", i/D+1)
		}
	}
	return out, nil
}

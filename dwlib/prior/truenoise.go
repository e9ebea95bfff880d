package prior

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// RelativeFrobenius is ‖a − b‖_F / ‖b‖_F for two matrices of the same size
// (row-major, flat): how far a residual bank's covariance a lies from the
// true noise covariance b (data.TrueResidualCov). 0 is exact; 1 is as far as
// predicting zero covariance.
func RelativeFrobenius(a, b []float64) (float64, error) {
	if len(a) != len(b) || len(a) == 0 {
		return 0, fmt.Errorf("prior: RelativeFrobenius: sizes %d and %d", len(a), len(b))
	}
	num, den := 0.0, 0.0
	for i := range a {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	if den == 0 {
		return 0, fmt.Errorf("prior: RelativeFrobenius: the reference is zero")
	}
	return math.Sqrt(num / den), nil
}

// CovarianceError is RelativeFrobenius of the bank's covariance
// ([Bank.Covariance]) against truth, a (K*D)×(K*D) matrix in the same
// [k][d] layout.
func (b *Bank) CovarianceError(truth []float64) (float64, error) {
	if n := b.k * b.d; len(truth) != n*n {
		return 0, fmt.Errorf("prior: CovarianceError: truth has %d entries, the bank's covariance (K=%d, D=%d) %d", len(truth), b.k, b.d, n*n)
	}
	return RelativeFrobenius(b.Covariance(), truth)
}

// BuildPersistenceBank is the naive reference bank: the residuals
// x_{o+k} − x_{o−1}, k < K, of the last-value forecast at every stride-th
// origin of every sequence (at most maxBank, drawn without replacement with
// seed). It has no cross-fitting and no model of the reproducible
// structure, so whatever part of the dynamics persistence misses counts as
// noise: the kind of bank a DW-Generic sampler starts from before the model
// has learned the dynamics.
func BuildPersistenceBank(seqs [][][]float64, K, stride, maxBank int, seed uint64) (*Bank, error) {
	if K < 1 || stride < 1 || maxBank < 1 {
		return nil, fmt.Errorf("prior: BuildPersistenceBank: K=%d, stride=%d, maxBank=%d must be >= 1", K, stride, maxBank)
	}
	rows, lengths, D, err := concatRows("BuildPersistenceBank", seqs)
	if err != nil {
		return nil, err
	}
	var spans []Span
	n := 0
	for _, l := range lengths {
		spans = append(spans, Span{n, n + l})
		n += l
	}
	origins := originsIn(spans, 1, K, stride)
	if len(origins) == 0 {
		return nil, fmt.Errorf("prior: BuildPersistenceBank: no sequence has 1+K=%d rows", 1+K)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e61697665)) // "naive"
	var bank [][]float64
	for _, i := range chooseWithoutReplacement(rng, len(origins), maxBank) {
		o := origins[i]
		e := make([]float64, K*D)
		for k := range K {
			for d := range D {
				e[k*D+d] = rows[o+k][d] - rows[o-1][d]
			}
		}
		bank = append(bank, e)
	}
	return NewBank(K, D, bank)
}

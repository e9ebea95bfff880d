package prior

// HorizonVariance returns, per horizon k = 1..K, the bank's variance about its
// mean averaged over the D coordinates: (1/D) Σ_d Cov[k*D+d, k*D+d] of
// [Bank.Covariance], without building that (K·D)² matrix. It is the size of
// the noise a bootstrap draw injects at each horizon, the curve to hold
// against a model's residuals or a testbed's known noise.
func (b *Bank) HorizonVariance() []float64 {
	out := make([]float64, b.k)
	for _, r := range b.rows {
		for j, v := range r {
			d := v - b.mean[j]
			out[j/b.d] += d * d
		}
	}
	inv := 1 / float64(len(b.rows)*b.d)
	for k := range out {
		out[k] *= inv
	}
	return out
}

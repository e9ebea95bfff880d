package noise

import "math/rand/v2"

// Sample implements [Sampler] (eq. generic-noise-sampler): sample i is
// xi_i * (template_k - mu_k) at every ready horizon k, from the COMMITTED
// template and mean. Exactly one rng.Uint64 is consumed per sample (also for
// samples whose horizons are all not ready), so the random stream does not
// depend on the sampler state. Before the first commit any D is accepted and
// the result is all zero.
func (g *Generic) Sample(rng *rand.Rand, n, K, D int) ([]float64, error) {
	if err := checkSample(rng, n, K, D, g.cur.dim); err != nil {
		return nil, err
	}
	ready := min(K, len(g.cur.template))
	centered := make([]float64, ready*D) // [ready][D] template - mu
	for k := range ready {
		for d := range D {
			centered[k*D+d] = g.cur.template[k][d] - g.cur.mean[k][d]
		}
	}
	out := make([]float64, n*K*D)
	for i := range n {
		neg := rng.Uint64()&1 == 1 // xi_i, shared across horizons and coordinates
		dst := out[i*K*D : i*K*D+ready*D]
		if neg {
			for j, v := range centered {
				dst[j] = -v
			}
		} else {
			copy(dst, centered)
		}
	}
	return out, nil
}

package noise

import (
	"fmt"
	"math"
	"slices"
)

// Stage implements [Sampler]. It stages sample 0's residual at each horizon as
// the replacement template (only if no earlier Stage call of this minibatch
// already supplied that horizon) and adds all n residuals to the per-horizon
// sums of the minibatch mean (App. D.1: "additional samples contribute to the
// residual moments but do not replace that staged sample"). Horizons k >= the
// committed count are new and will be initialised at Commit.
func (g *Generic) Stage(residuals []float64, n, K, D int) error {
	stagedDim := 0
	if g.staged != nil {
		stagedDim = g.staged.dim
	}
	if err := checkStage(residuals, n, K, D, g.cur.dim, stagedDim); err != nil {
		return err
	}

	// Build the new staged state on a copy, so an error leaves g unchanged.
	s := g.staged.clone()
	if s == nil {
		s = &genericStaged{dim: D}
	}
	for len(s.n) < K {
		s.template = append(s.template, nil)
		s.sum = append(s.sum, make([]float64, D))
		s.n = append(s.n, 0)
	}
	for k := range K {
		if s.n[k] == 0 {
			s.template[k] = slices.Clone(residuals[k*D : (k+1)*D]) // sample i = 0
		}
		sum := s.sum[k]
		for i := range n {
			row := residuals[(i*K+k)*D : (i*K+k+1)*D]
			for d, v := range row {
				sum[d] += v
			}
		}
		for d, v := range sum {
			if math.IsInf(v, 0) {
				return fmt.Errorf("noise: Stage: residual sum overflows at horizon %d, coordinate %d", k, d)
			}
		}
		s.n[k] += n
	}
	g.staged = s
	return nil
}

// Commit implements [Sampler]: the staged template overwrites the committed
// one, and the EMA mean becomes beta*mu + (1-beta)*mean(minibatch), or the
// minibatch mean for a horizon seen for the first time.
func (g *Generic) Commit() {
	s := g.staged
	if s == nil {
		return
	}
	g.staged = nil
	c := &g.cur
	c.dim = s.dim
	for k := range s.n { // every staged horizon has n > 0 (Stage covers 0..K-1)
		m := make([]float64, s.dim)
		for d, v := range s.sum[k] {
			m[d] = v / float64(s.n[k])
		}
		if k >= len(c.mean) { // new horizon: staged horizons are contiguous from 0
			c.template = append(c.template, s.template[k])
			c.mean = append(c.mean, m)
			c.count = append(c.count, 1)
			continue
		}
		mu := slices.Clone(c.mean[k]) // never alias a slice handed out before
		for d := range mu {
			mu[d] = g.beta*mu[d] + (1-g.beta)*m[d]
		}
		c.mean[k] = mu
		c.template[k] = s.template[k]
		c.count[k]++
	}
}

// Discard implements [Sampler].
func (g *Generic) Discard() { g.staged = nil }

func (s *genericStaged) clone() *genericStaged {
	if s == nil {
		return nil
	}
	c := &genericStaged{dim: s.dim, n: slices.Clone(s.n)}
	for k := range s.n {
		c.template = append(c.template, slices.Clone(s.template[k]))
		c.sum = append(c.sum, slices.Clone(s.sum[k]))
	}
	return c
}

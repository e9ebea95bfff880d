package knownsnr

import (
	"fmt"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// Starts is a batch of rollout starts on known-SNR units with their exact conditional futures,
// all in the model's (normalised) coordinates.
type Starts struct {
	N, Window, K, D int
	History         []float64 // [N, Window, D]: the observed window, last row x_t
	Targets         []float64 // [N, K, D]: the realised future x_{t+1..t+K} of the data
	Mean            []float64 // [N, K, D]: the conditional mean E[x_{t+k} | x_t] = A^k x_t
	Raw             [][]float64
	norm            data.Affine
	proc            data.DiagAR1
}

// NewStarts cuts the windows picks from units (normalised known-SNR series) and computes their
// conditional means through the normaliser norm (the dataset's Norm.State).
func NewStarts(units []data.Series, picks []train.Pick, g train.Geometry, norm data.Affine) (*Starts, error) {
	b, err := train.MakeBatch(units, picks, g)
	if err != nil {
		return nil, err
	}
	proc := data.KnownSNR()
	if b.D != proc.Dim() {
		return nil, fmt.Errorf("knownsnr: units have %d coordinates, the known-SNR process has %d", b.D, proc.Dim())
	}
	if norm.IsIdentity() {
		return nil, fmt.Errorf("knownsnr: the normaliser is the identity; pass the dataset's Norm.State")
	}
	s := &Starts{N: b.N, Window: b.Window, K: b.K, D: b.D, History: b.History, Targets: b.Targets,
		norm: norm, proc: proc}
	s.Mean = make([]float64, 0, s.N*s.K*s.D)
	for _, p := range picks {
		raw := norm.Invert(units[p.Unit].X[p.Origin])
		s.Raw = append(s.Raw, raw)
		for k := 1; k <= s.K; k++ {
			s.Mean = append(s.Mean, norm.Apply(proc.ConditionalMean(raw, k))...)
		}
	}
	return s, nil
}

// Draws returns B independent innovation continuations of every start, normalised, laid out
// [B][N, K, D] flat: draws[b][(i*K+k)*D+d]. Start i uses the stream (seed, i), so draws are
// reproducible and independent across starts.
func (s *Starts) Draws(B int, seed uint64) [][]float64 {
	out := make([][]float64, B)
	for b := range out {
		out[b] = make([]float64, 0, s.N*s.K*s.D)
	}
	for i, raw := range s.Raw {
		cont := s.proc.Continuations(raw, B, s.K, seed*1_000_003+uint64(i))
		for b := range B {
			for k := range s.K {
				out[b] = append(out[b], s.norm.Apply(cont[b][k])...)
			}
		}
	}
	return out
}

// RandomPicks draws one rollout start per unit (the first n units), uniform over the valid
// origins of the geometry.
func RandomPicks(units []data.Series, n int, g train.Geometry, rng *rand.Rand) ([]train.Pick, error) {
	if n < 1 || n > len(units) {
		return nil, fmt.Errorf("knownsnr: %d trajectories requested, %d available", n, len(units))
	}
	picks := make([]train.Pick, n)
	for u := range n {
		lo, hi, err := g.OriginRange(units[u].Len())
		if err != nil {
			return nil, fmt.Errorf("unit %d: %w", u, err)
		}
		picks[u] = train.Pick{Unit: u, Origin: lo + rng.IntN(hi-lo+1)}
	}
	return picks, nil
}

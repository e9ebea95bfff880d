package knownsnr

import (
	"fmt"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// Fan is one coordinate of the known-SNR process around an origin t0: what was observed before
// it, what is predictable after it, and what the future may bring (notebook 02, section 1).
type Fan struct {
	// History is x_{t0-H..t0}[d]: H+1 values, the last at the origin.
	History []float64
	// Mean is the conditional mean (A^k x_{t0})[d] for k = 0..K, starting at the origin's value.
	Mean []float64
	// Paths are independent continuations x_{t0+k}[d], k = 0..K, all starting at the origin's
	// value (data.DiagAR1.Continuations with the given seed, so every coordinate of one origin
	// sees the same draws).
	Paths [][]float64
}

// NewFan returns coordinate d of process p around origin t0 of the raw trajectory X (X[t] is the
// state at time t): H steps of history, B continuations and the conditional mean over K steps.
func NewFan(p data.DiagAR1, X [][]float64, t0, d, H, B, K int, seed uint64) (Fan, error) {
	if t0-H < 0 || t0 >= len(X) || d < 0 || d >= p.Dim() || H < 0 || B < 0 || K < 1 {
		return Fan{}, fmt.Errorf("knownsnr.NewFan: origin %d, history %d, coordinate %d, %d paths of %d steps on a trajectory of %d states of dimension %d",
			t0, H, d, B, K, len(X), p.Dim())
	}
	x := X[t0]
	var f Fan
	for t := t0 - H; t <= t0; t++ {
		f.History = append(f.History, X[t][d])
	}
	for k := 0; k <= K; k++ {
		f.Mean = append(f.Mean, p.ConditionalMean(x, k)[d])
	}
	for _, c := range p.Continuations(x, B, K, seed) {
		path := []float64{x[d]}
		for _, s := range c {
			path = append(path, s[d])
		}
		f.Paths = append(f.Paths, path)
	}
	return f, nil
}

// RelativeToFull returns v divided by the full-window risk Total[K-1] (the risk of a full BPTT
// update), the unit of panel (b).
func (s *GradSplit) RelativeToFull(v []float64) []float64 {
	full := s.Total[s.K-1]
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x / full
	}
	return out
}

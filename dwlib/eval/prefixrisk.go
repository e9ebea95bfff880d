package eval

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// PrefixRisk holds the known-SNR per-horizon reliability quantities and
// prefix-risk decomposition of Appendix "Controlled Known-SNR Study"
// (Fig. "Known-SNR mechanism closure", panels a and b). Slices are indexed
// by horizon: element k-1 holds forecast step / prefix length k = 1..K.
type PrefixRisk struct {
	// K is the number of horizons, B the number of innovation draws and P
	// the number of (flattened) parameter coordinates.
	K, B, P int

	// Bias[k-1] = ||S_k - S_K||^2, the missing-signal bias of the prefix
	// update, with S_k = sum_{j<=k} s_j (eq. known-snr-prefix-decomposition).
	// It is zero at k = K (full BPTT).
	Bias []float64
	// Innovation[k-1] = mean_b ||N_k^(b)||^2, the innovation risk, with
	// N_k^(b) = sum_{j<=k} n_j^(b).
	Innovation []float64
	// Total = Bias + Innovation: the prefix risk R_{<=k} of
	// eq. known-snr-prefix-decomposition, whose cross term vanishes by
	// conditional centring (E_b n = 0).
	Total []float64
	// Direct[k-1] = mean_b ||S_k + N_k^(b) - S_K||^2, the prefix risk
	// estimated directly from the same draws. With finitely many draws the
	// sample mean of the noise is not exactly zero, so Direct differs from
	// Total by the Monte Carlo cross term 2<S_k - S_K, mean_b N_k^(b)>.
	Direct []float64
	// Closure[k-1] = |Direct - Total| / Total[K-1]: the decomposition's Monte
	// Carlo closure error relative to the full BPTT risk (the appendix
	// reports at most 0.082). MaxClosure is its maximum over k. Both are NaN
	// when the full BPTT risk is zero.
	Closure    []float64
	MaxClosure float64
	// KStarGrad is K*_grad (1-based): the prefix length with minimum Total
	// risk, the smallest such k on ties. The paper reports K*_grad = 24 for
	// K = 32: beyond it accumulated innovation outweighs recovered signal.
	KStarGrad int

	// SNR[k-1] = ||s_k||^2 / mean_b ||n_k^(b)||^2 (eq. known-snr-gradient-snr);
	// +Inf when the draws carry no noise at step k (NaN if also no signal).
	SNR []float64
	// NoiseFraction[k-1] = rho_k = mean_b ||n_k^(b)||^2 / mean_b ||g_k^(b)||^2
	// with g_k^(b) = s_k + n_k^(b) (eq. known-snr-gradient-snr).
	NoiseFraction []float64
	// RMS[k-1] = sqrt(mean_b mean_p (g_k^(b))_p^2): the total-gradient RMS over
	// parameter coordinates, pooled over draws (Fig. panel a). RMSRel is
	// RMS normalised by its value at k = 1.
	RMS, RMSRel []float64
}

// DecomposePrefixRisk computes PrefixRisk from the per-horizon conditional
// mean gradients and innovation-noise draws of the known-SNR study
// (eq. known-snr-gradient-decomposition):
//
//   - signal[k-1] is s_k = E_b[g_k^(b) | x_t], the exact conditional-mean
//     gradient of horizon k's loss (all parameters flattened to P values);
//   - noise[k-1][b] is n_k^(b) = g_k^(b) - s_k for draw b = 1..B.
//
// noise is indexed [horizon][draw][parameter]. Draw b must be the same
// future-noise realisation for every k (one innovation path per draw gives
// the gradients of all horizons), because prefix sums N_k^(b) accumulate
// across horizons within a draw. The noise is used as given; it is not
// re-centred, so finite-draw non-centring shows up in Direct and Closure.
//
// How trajectories and replicates are pooled (the paper uses 15 test
// trajectories, 64 draws and 4 replicates, with K = 32) is the caller's
// choice: pass the gradient of the batch loss as one vector, or call this
// once per trajectory/replicate and average the returned curves.
//
// Memory beyond the inputs is O(K·P) for the suffix sums S_K - S_k plus one
// P-vector for the running N_k^(b).
func DecomposePrefixRisk(signal [][]float64, noise [][][]float64) (PrefixRisk, error) {
	K := len(signal)
	if K == 0 {
		return PrefixRisk{}, errors.New("eval.DecomposePrefixRisk: no horizons (len(signal)=0)")
	}
	if len(noise) != K {
		return PrefixRisk{}, fmt.Errorf("eval.DecomposePrefixRisk: %d signal horizons but %d noise horizons", K, len(noise))
	}
	P, B := len(signal[0]), len(noise[0])
	if P == 0 {
		return PrefixRisk{}, errors.New("eval.DecomposePrefixRisk: empty parameter vector s_1")
	}
	if B == 0 {
		return PrefixRisk{}, errors.New("eval.DecomposePrefixRisk: no noise draws at k=1")
	}
	for k := range K {
		if err := checkVec(signal[k], P); err != nil {
			return PrefixRisk{}, fmt.Errorf("eval.DecomposePrefixRisk: s_%d: %w", k+1, err)
		}
		if len(noise[k]) != B {
			return PrefixRisk{}, fmt.Errorf("eval.DecomposePrefixRisk: %d noise draws at k=%d but %d at k=1", len(noise[k]), k+1, B)
		}
		for b := range B {
			if err := checkVec(noise[k][b], P); err != nil {
				return PrefixRisk{}, fmt.Errorf("eval.DecomposePrefixRisk: n_%d^(%d): %w", k+1, b+1, err)
			}
		}
	}

	acc, err := NewPrefixAccumulator(signal)
	if err != nil {
		return PrefixRisk{}, err
	}
	draw := make([][]float64, K)
	for b := range B {
		for k := range K {
			draw[k] = noise[k][b]
		}
		if err := acc.AddDraw(draw); err != nil {
			return PrefixRisk{}, err
		}
	}
	return acc.Result(), nil
}

// PrefixAccumulator computes PrefixRisk one innovation draw at a time, so the caller never holds
// all K·B noise vectors (K·B·P values; several gigabytes for a paper-sized model). Memory is
// O(K·P). DecomposePrefixRisk is this accumulator fed with every draw in order.
type PrefixAccumulator struct {
	signal  [][]float64
	tail    [][]float64 // S_K − S_k
	r       PrefixRisk
	noiseSq []float64 // Σ_b ||n_k^(b)||²
	gradSq  []float64 // Σ_b ||g_k^(b)||²
	run     []float64 // N_k^(b)
}

// NewPrefixAccumulator starts an accumulation for the conditional-mean gradients signal[k-1] = s_k
// (all of length P, finite). The slices are kept, not copied: do not modify them meanwhile.
func NewPrefixAccumulator(signal [][]float64) (*PrefixAccumulator, error) {
	K := len(signal)
	if K == 0 {
		return nil, errors.New("eval.DecomposePrefixRisk: no horizons (len(signal)=0)")
	}
	P := len(signal[0])
	if P == 0 {
		return nil, errors.New("eval.DecomposePrefixRisk: empty parameter vector s_1")
	}
	for k := range K {
		if err := checkVec(signal[k], P); err != nil {
			return nil, fmt.Errorf("eval.DecomposePrefixRisk: s_%d: %w", k+1, err)
		}
	}
	a := &PrefixAccumulator{
		signal:  signal,
		tail:    make([][]float64, K),
		noiseSq: make([]float64, K),
		gradSq:  make([]float64, K),
		run:     make([]float64, P),
		r: PrefixRisk{
			K: K, P: P,
			Bias: make([]float64, K), Innovation: make([]float64, K), Total: make([]float64, K),
			Direct: make([]float64, K), Closure: make([]float64, K),
			SNR: make([]float64, K), NoiseFraction: make([]float64, K),
			RMS: make([]float64, K), RMSRel: make([]float64, K),
		},
	}
	// Suffix sums T_k = S_K - S_k = sum_{j>k} s_j, so Bias_k = ||T_k||^2 and
	// S_k + N_k - S_K = N_k - T_k.
	a.tail[K-1] = make([]float64, P)
	for k := K - 2; k >= 0; k-- {
		a.tail[k] = make([]float64, P)
		for p := range P {
			a.tail[k][p] = a.tail[k+1][p] + signal[k+1][p]
		}
	}
	for k := range K {
		a.r.Bias[k] = sqNorm(a.tail[k])
	}
	return a, nil
}

// AddDraw adds one innovation draw: noise[k-1] = n_k^(b) for k = 1..K, the same future-noise
// realisation at every horizon.
func (a *PrefixAccumulator) AddDraw(noise [][]float64) error {
	K, P := a.r.K, a.r.P
	if len(noise) != K {
		return fmt.Errorf("eval.DecomposePrefixRisk: draw %d has %d horizons, want K=%d", a.r.B+1, len(noise), K)
	}
	for k := range K {
		if err := checkVec(noise[k], P); err != nil {
			return fmt.Errorf("eval.DecomposePrefixRisk: n_%d^(%d): %w", k+1, a.r.B+1, err)
		}
	}
	clear(a.run)
	for k := range K {
		n, s := noise[k], a.signal[k]
		var nn, gg, NN, dd float64
		for p := range P {
			g := s[p] + n[p]
			nn += n[p] * n[p]
			gg += g * g
			a.run[p] += n[p]
			NN += a.run[p] * a.run[p]
			d := a.run[p] - a.tail[k][p]
			dd += d * d
		}
		a.noiseSq[k] += nn
		a.gradSq[k] += gg
		a.r.Innovation[k] += NN
		a.r.Direct[k] += dd
	}
	a.r.B++
	return nil
}

// Draws is the number of draws added so far.
func (a *PrefixAccumulator) Draws() int { return a.r.B }

// Result returns the decomposition over the draws added so far (at least one).
func (a *PrefixAccumulator) Result() PrefixRisk {
	K, P := a.r.K, a.r.P
	r := a.r
	r.Bias, r.Innovation, r.Direct = slices.Clone(a.r.Bias), slices.Clone(a.r.Innovation), slices.Clone(a.r.Direct)
	r.Total, r.Closure = make([]float64, K), make([]float64, K)
	r.SNR, r.NoiseFraction, r.RMS, r.RMSRel = make([]float64, K), make([]float64, K), make([]float64, K), make([]float64, K)
	r.KStarGrad = 0
	fb := float64(r.B)
	for k := range K {
		r.Innovation[k] /= fb
		r.Direct[k] /= fb
		r.Total[k] = r.Bias[k] + r.Innovation[k]
		meanNoise, meanGrad := a.noiseSq[k]/fb, a.gradSq[k]/fb
		r.SNR[k] = sqNorm(a.signal[k]) / meanNoise
		r.NoiseFraction[k] = meanNoise / meanGrad
		r.RMS[k] = math.Sqrt(meanGrad / float64(P))
		if r.Total[k] < r.Total[r.KStarGrad] {
			r.KStarGrad = k
		}
	}
	r.KStarGrad++ // 1-based
	full := r.Total[K-1]
	r.MaxClosure = math.Inf(-1)
	for k := range K {
		r.RMSRel[k] = r.RMS[k] / r.RMS[0]
		r.Closure[k] = math.Abs(r.Direct[k]-r.Total[k]) / full
		if full == 0 {
			r.Closure[k] = math.NaN()
		}
		r.MaxClosure = math.Max(r.MaxClosure, r.Closure[k])
	}
	return r
}

// checkVec verifies a parameter vector's length and finiteness.
func checkVec(v []float64, P int) error {
	if len(v) != P {
		return fmt.Errorf("has %d coordinates, want P=%d", len(v), P)
	}
	for p, x := range v {
		if !isFinite(x) {
			return fmt.Errorf("non-finite value %v at coordinate %d", x, p)
		}
	}
	return nil
}

func sqNorm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return s
}

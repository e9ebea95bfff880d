package noise

import (
	"fmt"
	"math"
)

// SpectralName is the registry name of the spatial-field prior sampler.
const SpectralName = "spectral"

func init() {
	Register(SpectralName, func(cfg Config) (Sampler, error) {
		switch c := cfg.(type) {
		case SpectralConfig:
			return NewSpectral(c)
		case *SpectralConfig:
			return NewSpectral(*c)
		case nil:
			return nil, fmt.Errorf("noise: the spectral sampler needs a SpectralConfig with the field's channels, height and width")
		}
		return nil, fmt.Errorf("noise: the spectral sampler needs a SpectralConfig, got %T", cfg)
	})
}

// SpectralConfig configures [Spectral]: the layout of a state vector as Channels fields of Height
// rows of Width values (channel-major, D = Channels·Height·Width), and the EMA coefficient.
type SpectralConfig struct {
	Channels, Height, Width int
	// Beta is the EMA coefficient of the residual moments and the colour spectrum, 0 < Beta < 1;
	// zero selects 0.99 (the paper's).
	Beta float64
}

// SamplerName implements [Config].
func (SpectralConfig) SamplerName() string { return SpectralName }

// Spectral is the paper's spatial prior for fields (App. "Spatial Fields: Matching Residual
// Spatial Structure", eqs. field-residual-moments to field-prior-sampler). Per horizon k and
// channel c it keeps
//
//	μ_k, M_k      EMAs of the residual and its square, per coordinate (β = .99, the first
//	              minibatch initialises them);
//	S_{k,c}       an EMA of the normalised power spectrum of the residuals standardised by the
//	              PREVIOUS committed moments, z = (e − μ)/√(v + δ), v = [M − μ²]₊,
//	              δ = 1e-8·max(1e-20, mean_{c,u} M) (a floor), the power |F z|² of the orthonormal
//	              2-D real FFT averaged over the minibatch and normalised to unit spatial variance,
//	              N(S) = S / (|Ω|⁻¹ Σ_ω w(ω) S(ω)) with w = 1 on the DC and Nyquist columns and 2 on
//	              the other stored columns (the first normalised spectrum initialises it);
//
// and draws ε = √(v + δ) ⊙ F⁻¹[√S ⊙ F W] from white Gaussian fields W. The draw is zero mean, keeps
// the coordinatewise residual scale and each horizon's and channel's spatial power, not the
// covariance across channels or horizons. Its identifying assumption is translation stationarity
// on the periodic grid. A horizon is ready once its moments and its spectrum exist (from the second
// minibatch that reaches it).
type Spectral struct {
	cfg    SpectralConfig
	plan   *fftPlan
	cur    spectralState
	staged *spectralStaged
}

// spectralState is the committed state, per horizon.
type spectralState struct {
	mean, second [][]float64 // [H][D]
	spec         [][]float64 // [H][C·Height·(Width/2+1)], nil until the first spectrum
	momN, specN  []int       // [H] minibatches that updated the moments and the spectrum
}

// spectralStaged accumulates one minibatch (several Stage calls) until Commit.
type spectralStaged struct {
	sumE, sumE2 [][]float64 // [Hs][D]
	sumPow      [][]float64 // [Hs][C·Height·(Width/2+1)]
	nE, nPow    []int
}

// NewSpectral returns the sampler for fields of cfg's shape.
func NewSpectral(cfg SpectralConfig) (*Spectral, error) {
	if cfg.Beta == 0 {
		cfg.Beta = DefaultGenericBeta
	}
	switch {
	case cfg.Channels < 1 || cfg.Height < 1 || cfg.Width < 1:
		return nil, fmt.Errorf("noise: SpectralConfig: channels %d, height %d, width %d must be >= 1", cfg.Channels, cfg.Height, cfg.Width)
	case !(cfg.Beta > 0 && cfg.Beta < 1):
		return nil, fmt.Errorf("noise: SpectralConfig.Beta = %v, must be in (0, 1)", cfg.Beta)
	}
	return &Spectral{cfg: cfg, plan: newFFTPlan(cfg.Width, cfg.Height)}, nil
}

// Name implements [Sampler].
func (s *Spectral) Name() string { return SpectralName }

// dim is D = C·Height·Width.
func (s *Spectral) dim() int { return s.cfg.Channels * s.cfg.Height * s.cfg.Width }

// half is the number of stored frequencies per channel, Height·(Width/2+1).
func (s *Spectral) half() int { return s.cfg.Height * (s.cfg.Width/2 + 1) }

// Ready implements [Sampler].
func (s *Spectral) Ready(K int) []bool {
	out := make([]bool, K)
	for k := range min(K, len(s.cur.momN)) {
		out[k] = s.cur.momN[k] > 0 && s.cur.specN[k] > 0
	}
	return out
}

// floor is δ_k = 1e-8·max(1e-20, mean_{c,u} M_k) of the committed moments.
func floorOf(second []float64) float64 {
	m := 0.0
	for _, v := range second {
		m += v
	}
	return 1e-8 * max(1e-20, m/float64(len(second)))
}

// scale returns √(v + δ) per coordinate of the committed moments of horizon k.
func (s *Spectral) scale(k int) []float64 {
	mu, M := s.cur.mean[k], s.cur.second[k]
	delta := floorOf(M)
	out := make([]float64, len(mu))
	for d := range mu {
		out[d] = math.Sqrt(max(M[d]-mu[d]*mu[d], 0) + delta)
	}
	return out
}

// Stage implements [Sampler]: the minibatch's residual sums, and (where moments are committed)
// the power spectrum of its residuals standardised by them.
func (s *Spectral) Stage(residuals []float64, n, K, D int) error {
	if D != s.dim() {
		return fmt.Errorf("noise: spectral Stage: D = %d, the configured fields have %d x %d x %d = %d values", D, s.cfg.Channels, s.cfg.Height, s.cfg.Width, s.dim())
	}
	if err := checkStage(residuals, n, K, D, 0, 0); err != nil {
		return err
	}
	st := s.staged.clone()
	if st == nil {
		st = &spectralStaged{}
	}
	for len(st.nE) < K {
		st.sumE, st.sumE2 = append(st.sumE, make([]float64, D)), append(st.sumE2, make([]float64, D))
		st.sumPow = append(st.sumPow, make([]float64, s.cfg.Channels*s.half()))
		st.nE, st.nPow = append(st.nE, 0), append(st.nPow, 0)
	}
	HW := s.cfg.Height * s.cfg.Width
	z := make([]float64, D)
	for k := range K {
		committed := k < len(s.cur.momN) && s.cur.momN[k] > 0
		var sc []float64
		if committed {
			sc = s.scale(k)
		}
		for i := range n {
			e := residuals[(i*K+k)*D : (i*K+k+1)*D]
			for d, v := range e {
				st.sumE[k][d] += v
				st.sumE2[k][d] += v * v
			}
			if !committed {
				continue
			}
			for d, v := range e {
				z[d] = (v - s.cur.mean[k][d]) / sc[d]
			}
			for c := range s.cfg.Channels {
				s.plan.addPower(st.sumPow[k][c*s.half():(c+1)*s.half()], z[c*HW:(c+1)*HW])
			}
			st.nPow[k]++
		}
		st.nE[k] += n
	}
	s.staged = st
	return nil
}

// Commit implements [Sampler].
func (s *Spectral) Commit() {
	st := s.staged
	if st == nil {
		return
	}
	b := s.cfg.Beta
	for len(s.cur.momN) < len(st.nE) {
		s.cur.mean, s.cur.second = append(s.cur.mean, nil), append(s.cur.second, nil)
		s.cur.spec = append(s.cur.spec, nil)
		s.cur.momN, s.cur.specN = append(s.cur.momN, 0), append(s.cur.specN, 0)
	}
	for k, n := range st.nE {
		if n == 0 {
			continue
		}
		ema := func(old []float64, sum []float64, count int, first bool) []float64 {
			out := make([]float64, len(sum))
			for d, v := range sum {
				if first {
					out[d] = v / float64(count)
				} else {
					out[d] = b*old[d] + (1-b)*v/float64(count)
				}
			}
			return out
		}
		if st.nPow[k] > 0 {
			norm := s.normalised(st.sumPow[k], st.nPow[k])
			s.cur.spec[k] = ema(s.cur.spec[k], norm, 1, s.cur.specN[k] == 0)
			s.cur.specN[k]++
		}
		first := s.cur.momN[k] == 0
		s.cur.mean[k] = ema(s.cur.mean[k], st.sumE[k], n, first)
		s.cur.second[k] = ema(s.cur.second[k], st.sumE2[k], n, first)
		s.cur.momN[k]++
	}
	s.staged = nil
}

// normalised returns N(Ŝ) per channel of the averaged power sum/n.
func (s *Spectral) normalised(sum []float64, n int) []float64 {
	out := make([]float64, len(sum))
	h, wh := s.half(), s.cfg.Width/2+1
	for c := range s.cfg.Channels {
		p := sum[c*h : (c+1)*h]
		total := 0.0
		for j, v := range p {
			total += columnWeight(j%wh, s.cfg.Width) * v / float64(n)
		}
		total /= float64(s.cfg.Height * s.cfg.Width)
		for j, v := range p {
			out[c*h+j] = max(v/float64(n)/max(total, 1e-20), 0)
		}
	}
	return out
}

// columnWeight is w(ω) for stored column j of a width-W real FFT: 1 for DC and (W even) Nyquist, 2
// for the others, which stand for themselves and their conjugate.
func columnWeight(j, W int) float64 {
	if j == 0 || W%2 == 0 && j == W/2 {
		return 1
	}
	return 2
}

// Discard implements [Sampler].
func (s *Spectral) Discard() { s.staged = nil }

func (st *spectralStaged) clone() *spectralStaged {
	if st == nil {
		return nil
	}
	cp := func(a [][]float64) [][]float64 {
		out := make([][]float64, len(a))
		for i, r := range a {
			out[i] = append([]float64(nil), r...)
		}
		return out
	}
	return &spectralStaged{sumE: cp(st.sumE), sumE2: cp(st.sumE2), sumPow: cp(st.sumPow),
		nE: append([]int(nil), st.nE...), nPow: append([]int(nil), st.nPow...)}
}

package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// IEEGSynthConfig parameterises "ieeg-synth", a seeded stand-in for the
// paper's iEEG data (DANDI 000623, not reachable here) whose reproducible
// structure is known, so that a DW-Prior bank can be judged against the
// truth. One participant watches the same movie Recordings times. Its C
// channels at step t (raw units) are
//
//	x_t = L f_t + B u_{t-1} + NoiseStd ε_t,      ε_t ~ N(0, I_C),
//	f_{t,j} = a1_j f_{t-1,j} + a2_j f_{t-2,j} + s_j η_{t,j},  η ~ N(0, 1),
//
// with F long-memory latent factors f (AR(2) with real roots
// FactorRoot_j and SecondRoot, innovation scale s_j chosen so every factor
// has unit stationary variance), a per-participant mixing matrix L (C×F,
// entries N(0, 1/F)), a per-participant linear response B (C×M, entries
// N(0, ResponseScale²/M)) to the shared stimulus-feature stream u (M
// unit-variance AR(1) features with coefficient FeatureCoef, standing in for
// the 512-d CLIP features), and white channel noise. The stimulus stream is
// the movie: the same in every recording; latent factors and noise are fresh
// draws per recording. Drive[t] = u_t, the input acting over t -> t+1.
//
// The "true" noise. A predictor that knows the model, the drive and the
// latent factors up to the last observed step (an oracle: the factors are
// not observed, so no predictor from x alone does better) leaves the
// residual e_{o,k} = L Σ_{s=1..k} ψ_{k-s} s η_{o+s-1} + NoiseStd ε_{o+k-1},
// k = 1..K (ψ the AR(2) impulse response): the factor innovations
// propagated over the horizon plus the observation noise.
// [IEEGSynthModel.TrueResidualCov] is its exact covariance across
// coordinates and horizons. It is the floor for a residual bank: what the
// prior factor-AR bank should approach and DW-Generic's early residuals
// (model not yet trained) far exceed.
type IEEGSynthConfig struct {
	Channels    int // C: 40 (the paper's smaller participants) or 80
	Participant int // selects L, B and the factor roots' order; >= 0
	Recordings  int // repeated viewings of the movie
	Length      int // movie steps per recording
	Factors     int // F latent factors
	Features    int // M stimulus features

	FactorRoot    []float64 // first AR(2) root per factor (nil: defaults, cycled)
	SecondRoot    float64   // second AR(2) root, shared
	FeatureCoef   float64   // AR(1) coefficient of the stimulus features
	ResponseScale float64   // scale of B
	NoiseStd      float64   // channel noise

	// ChunkLen and Gap are the unit length (the paper's 1024) and the
	// exclusion before each split boundary (the paper's 256); 0: scaled
	// with Length from the paper's values at DefaultIEEGLength.
	ChunkLen, Gap int

	Seed uint64 // generation seed
}

// DefaultIEEGLength is the default movie length: 12 paper chunks of 1024
// steps, so the 70/15/15 split with its 256-step exclusions leaves 8
// training chunks and one validation and one test chunk per recording.
const DefaultIEEGLength = 12288

// DefaultIEEGRoots are the first AR(2) roots of the default factors: memory
// from about 200 to about 30 steps (1/(1-r)), long against the paper's K=64.
var DefaultIEEGRoots = []float64{.995, .99, .98, .97}

// DefaultIEEGSynthConfig is the CPU-sized default: 40 channels, 4
// recordings of 12288 steps, 4 factors, 4 stimulus features.
func DefaultIEEGSynthConfig() IEEGSynthConfig {
	return IEEGSynthConfig{Channels: 40, Recordings: 4, Length: DefaultIEEGLength, Factors: 4, Features: 4,
		SecondRoot: .6, FeatureCoef: .95, ResponseScale: .7, NoiseStd: .5, Seed: DefaultGenSeed}
}

// chunkGap returns ChunkLen and Gap, scaled from 1024/256 at
// DefaultIEEGLength when unset (at least 16 and 4 steps).
func (c IEEGSynthConfig) chunkGap() (int, int) {
	chunk, gap := c.ChunkLen, c.Gap
	if chunk == 0 {
		chunk = max(16, min(1024, 1024*c.Length/DefaultIEEGLength))
	}
	if gap == 0 {
		gap = max(4, chunk/4)
	}
	return chunk, gap
}

func (c IEEGSynthConfig) roots() []float64 {
	src := c.FactorRoot
	if src == nil {
		src = DefaultIEEGRoots
	}
	out := make([]float64, c.Factors)
	for j := range out {
		out[j] = src[j%len(src)]
	}
	return out
}

func (c IEEGSynthConfig) validate() error {
	switch {
	case c.Channels < 1:
		return fmt.Errorf("data: ieeg-synth: Channels = %d, must be >= 1", c.Channels)
	case c.Participant < 0:
		return fmt.Errorf("data: ieeg-synth: Participant = %d, must be >= 0", c.Participant)
	case c.Recordings < 1:
		return fmt.Errorf("data: ieeg-synth: Recordings (NumTraj) = %d, must be >= 1", c.Recordings)
	case c.Factors < 1 || c.Features < 1:
		return fmt.Errorf("data: ieeg-synth: Factors = %d and Features = %d must be >= 1", c.Factors, c.Features)
	case !(math.Abs(c.SecondRoot) < 1) || !(math.Abs(c.FeatureCoef) < 1):
		return fmt.Errorf("data: ieeg-synth: SecondRoot %v and FeatureCoef %v must lie in (-1, 1)", c.SecondRoot, c.FeatureCoef)
	case !(c.NoiseStd >= 0) || !(c.ResponseScale >= 0):
		return fmt.Errorf("data: ieeg-synth: NoiseStd %v and ResponseScale %v must be >= 0", c.NoiseStd, c.ResponseScale)
	}
	for j, r := range c.roots() {
		if !(math.Abs(r) < 1) {
			return fmt.Errorf("data: ieeg-synth: FactorRoot[%d] = %v is not stationary (|r| must be < 1)", j, r)
		}
	}
	chunk, gap := c.chunkGap()
	if chunk < 1 || gap < 0 {
		return fmt.Errorf("data: ieeg-synth: ChunkLen %d must be >= 1 and Gap %d >= 0", chunk, gap)
	}
	if _, err := MovieSplit(c.Length, chunk, gap); err != nil {
		return fmt.Errorf("data: ieeg-synth: Length %d: %w", c.Length, err)
	}
	return nil
}

// cacheKey lists every parameter that changes the raw recordings.
func (c IEEGSynthConfig) cacheKey() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "gen=ieeg-synth/v1;C=%d;part=%d;n=%d;T=%d;F=%d;M=%d;r2=%g;fc=%g;rs=%g;ns=%g;seed=%d;roots=",
		c.Channels, c.Participant, c.Recordings, c.Length, c.Factors, c.Features, c.SecondRoot, c.FeatureCoef,
		c.ResponseScale, c.NoiseStd, c.Seed)
	for i, r := range c.roots() {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatFloat(r, 'g', -1, 64))
	}
	return sb.String()
}

// IEEGSynthModel is the participant's generating model: what a test or a
// notebook compares fitted predictors and residual banks against.
type IEEGSynthModel struct {
	Mixing   [][]float64 // L, C×F
	Response [][]float64 // B, C×M
	A1, A2   []float64   // AR(2) coefficients per factor
	InnovStd []float64   // s_j: unit stationary factor variance
	NoiseStd float64
}

// Model returns the participant's mixing, response and factor dynamics,
// drawn from the generation seed and the participant index only, so every
// recording (and every Recordings/Length) shares them.
func (c IEEGSynthConfig) Model() IEEGSynthModel {
	C, F, M := c.Channels, c.Factors, c.Features
	m := IEEGSynthModel{Mixing: make([][]float64, C), Response: make([][]float64, C), NoiseStd: c.NoiseStd}
	mix := newStream(c.Seed, purposeIEEGMixing, c.Participant)
	resp := newStream(c.Seed, purposeIEEGResponse, c.Participant)
	for ch := range C {
		m.Mixing[ch] = make([]float64, F)
		for j := range F {
			m.Mixing[ch][j] = mix.NormFloat64() / math.Sqrt(float64(F))
		}
		m.Response[ch] = make([]float64, M)
		for j := range M {
			m.Response[ch][j] = resp.NormFloat64() * c.ResponseScale / math.Sqrt(float64(M))
		}
	}
	r2 := c.SecondRoot
	for _, r1 := range c.roots() {
		a1, a2 := r1+r2, -r1*r2
		m.A1, m.A2 = append(m.A1, a1), append(m.A2, a2)
		m.InnovStd = append(m.InnovStd, 1/math.Sqrt(ar2Variance(a1, a2)))
	}
	return m
}

// ar2Variance is the stationary variance of an AR(2) with unit innovations:
// γ0 = (1 - a2) / ((1 + a2)((1 - a2)² - a1²)).
func ar2Variance(a1, a2 float64) float64 {
	return (1 - a2) / ((1 + a2) * ((1-a2)*(1-a2) - a1*a1))
}

// Stimulus returns the movie's feature stream u_{-1}, u_0, …, u_{Length-1}
// (Length+1 rows, u_{-1} first): the same for every recording and
// participant.
func (c IEEGSynthConfig) Stimulus() [][]float64 {
	u := make([][]float64, c.Length+1)
	for t := range u {
		u[t] = make([]float64, c.Features)
	}
	for j := range c.Features {
		col := ar1Drive(c.Length+1, c.FeatureCoef, newStream(c.Seed, purposeIEEGStimulus, j))
		for t, v := range col {
			u[t][j] = v
		}
	}
	return u
}

// IEEGRecording is one generated recording with its latent factors, for
// tests that check the defining equations.
type IEEGRecording struct {
	Series              // X (raw) and Drive (u_t)
	Factors [][]float64 // f_t, Length×F
}

// GenerateIEEGRecordings draws the Recordings raw recordings of the movie.
// Recording i uses its own latent and noise streams (participant, i).
func GenerateIEEGRecordings(c IEEGSynthConfig) ([]IEEGRecording, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	m, u := c.Model(), c.Stimulus()
	out := make([]IEEGRecording, c.Recordings)
	parallelFor(c.Recordings, func(i int) {
		out[i] = c.recording(m, u, i)
	})
	return out, nil
}

func (c IEEGSynthConfig) recording(m IEEGSynthModel, u [][]float64, i int) IEEGRecording {
	T, C, F := c.Length, c.Channels, c.Factors
	lat := newStream(c.Seed, purposeIEEGLatent, c.Participant, i)
	noise := newStream(c.Seed, purposeIEEGNoise, c.Participant, i)
	f := ar2Factors(m, T, lat)
	rec := IEEGRecording{Series: Series{X: make([][]float64, T), Drive: make([][]float64, T)}, Factors: f}
	for t := range T {
		x := make([]float64, C)
		for ch := range C {
			v := 0.0
			for j := range F {
				v += m.Mixing[ch][j] * f[t][j]
			}
			for j, b := range m.Response[ch] {
				v += b * u[t][j] // u[t] is u_{t-1}
			}
			x[ch] = v + c.NoiseStd*noise.NormFloat64()
		}
		rec.X[t] = x
		rec.Drive[t] = append([]float64(nil), u[t+1]...)
	}
	return rec
}

// ar2Factors draws T steps of the factors from their stationary law: (f_{-1},
// f_0) from the stationary 2×2 covariance (lag-1 correlation a1/(1-a2)),
// then the recursion, so no burn-in is needed.
func ar2Factors(m IEEGSynthModel, T int, rng *rand.Rand) [][]float64 {
	F := len(m.A1)
	f := make([][]float64, T)
	prev, prev2 := make([]float64, F), make([]float64, F)
	for j := range F {
		rho := m.A1[j] / (1 - m.A2[j])
		prev[j] = rng.NormFloat64()
		prev2[j] = rho*prev[j] + math.Sqrt(1-rho*rho)*rng.NormFloat64()
	}
	for t := range T {
		f[t] = make([]float64, F)
		for j := range F {
			f[t][j] = m.A1[j]*prev[j] + m.A2[j]*prev2[j] + m.InnovStd[j]*rng.NormFloat64()
		}
		prev2, prev = prev, f[t]
	}
	return f
}

// ImpulseResponse returns ψ_0..ψ_{K-1} of factor j: ψ_0 = 1, ψ_1 = a1,
// ψ_i = a1 ψ_{i-1} + a2 ψ_{i-2}.
func (m IEEGSynthModel) ImpulseResponse(j, K int) []float64 {
	psi := make([]float64, K)
	for i := range psi {
		switch i {
		case 0:
			psi[i] = 1
		case 1:
			psi[i] = m.A1[j]
		default:
			psi[i] = m.A1[j]*psi[i-1] + m.A2[j]*psi[i-2]
		}
	}
	return psi
}

// TrueResidualCov is the covariance of the oracle residual e_{o,1:K} (see
// [IEEGSynthConfig]) as a (K*C)×(K*C) row-major matrix in the [k][d] layout
// of a prior bank (index k*C+d): entry ((h,c),(g,c')) is
//
//	Σ_j L_cj L_c'j s_j² Σ_{s=1..min(h,g)} ψ_j,h-s ψ_j,g-s + NoiseStd² [h=g][c=c'].
//
// scale, when non-nil, divides coordinate d by scale[d] (the training
// standard deviations of a Dataset's Norm.State), giving the covariance in
// model coordinates.
func (m IEEGSynthModel) TrueResidualCov(K int, scale []float64) ([]float64, error) {
	C := len(m.Mixing)
	if K < 1 {
		return nil, fmt.Errorf("data: ieeg-synth TrueResidualCov: K = %d, must be >= 1", K)
	}
	if scale != nil && len(scale) != C {
		return nil, fmt.Errorf("data: ieeg-synth TrueResidualCov: %d scales for %d channels", len(scale), C)
	}
	F := len(m.A1)
	// cf[j][h][g]: factor j's forecast-error covariance between horizons h+1 and g+1.
	cf := make([][][]float64, F)
	for j := range F {
		psi := m.ImpulseResponse(j, K)
		s2 := m.InnovStd[j] * m.InnovStd[j]
		cf[j] = make([][]float64, K)
		for h := range K {
			cf[j][h] = make([]float64, K)
			for g := range K {
				v := 0.0
				for s := 1; s <= min(h, g)+1; s++ {
					v += psi[h+1-s] * psi[g+1-s]
				}
				cf[j][h][g] = s2 * v
			}
		}
	}
	n := K * C
	out := make([]float64, n*n)
	for h := range K {
		for g := range K {
			for c := range C {
				for c2 := range C {
					v := 0.0
					for j := range F {
						v += m.Mixing[c][j] * m.Mixing[c2][j] * cf[j][h][g]
					}
					if h == g && c == c2 {
						v += m.NoiseStd * m.NoiseStd
					}
					if scale != nil {
						v /= scale[c] * scale[c2]
					}
					out[(h*C+c)*n+g*C+c2] = v
				}
			}
		}
	}
	return out, nil
}

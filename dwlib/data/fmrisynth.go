package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FMRISynthConfig parameterises "fmri-synth", a seeded stand-in for the
// paper's HCP movie-fMRI data: Subjects watch the same movie; the P parcels
// of subject i at step t (raw units) are
//
//	x_{i,t} = μ_i + r_t + d_{i,t} + NoiseStd ε_{i,t},   ε ~ N(0, I_P),
//	r_t     = G Σ_{l=1..HRFLen} h_l s_{t-l},             (shared, stimulus-locked)
//	d_{i,t,p} = φ_p d_{i,t-1,p} + DevStd sqrt(1-φ_p²) η_{i,t,p},  η ~ N(0, 1),
//
// with a static subject offset μ_i (entries N(0, OffsetStd²); subject
// centring removes it), the shared response r to the movie's feature stream
// s (M unit-variance AR(1) features, coefficient FeatureCoef) through a
// smooth gamma-shaped kernel h (unit sum) and a loading G (P×M, entries
// N(0, ResponseScale²/M)), and subject-specific AR(1) deviations d with
// coefficients φ_p spread evenly over [PhiMin, PhiMax] across parcels (the
// same law in every subject, fresh draws per subject; stationary variance
// DevStd²). Drive[t] = s_t, which enters r_{t+1}.
//
// The "true" noise. The oracle that knows r, μ_i and d_{i,o-1} forecasts
// x_{i,o+k-1} by μ_i + r_{o+k-1} + φ^k d_{i,o-1}; its residual is the
// deviation innovations propagated over k steps plus the observation
// noise, with covariance (parcels independent)
//
//	Cov(e_h,p, e_g,p) = DevStd²(1-φ_p²) Σ_{s=1..min(h,g)} φ_p^{h-s} φ_p^{g-s} + NoiseStd² [h=g]
//
// ([FMRISynthModel.TrueResidualCov]). The subject-AR bank estimates exactly
// this structure (shared response from the fit subjects, per-parcel AR of
// the deviation); a residual bank that leaves r in the noise does not.
type FMRISynthConfig struct {
	Subjects, Parcels, Length, Features int
	HRFLen                              int // kernel length in steps
	FeatureCoef, ResponseScale          float64
	PhiMin, PhiMax                      float64
	DevStd, NoiseStd, OffsetStd         float64
	Seed                                uint64
}

// DefaultFMRISynthConfig is the CPU-sized default: 53 subjects (the paper's
// 111/24/24 scaled by a third gives 37/8/8, exactly what the 70/15/15 rule
// gives for 53), 32 parcels, 512 steps, 4 features, an 8-step kernel.
func DefaultFMRISynthConfig() FMRISynthConfig {
	return FMRISynthConfig{Subjects: 53, Parcels: 32, Length: 512, Features: 4, HRFLen: 8, FeatureCoef: .9,
		ResponseScale: 1, PhiMin: .5, PhiMax: .9, DevStd: .7, NoiseStd: .4, OffsetStd: .5, Seed: DefaultGenSeed}
}

func (c FMRISynthConfig) validate() error {
	switch {
	case c.Subjects < 3:
		return fmt.Errorf("data: fmri-synth: Subjects (NumTraj) = %d, need >= 3 for a subject-level split", c.Subjects)
	case c.Parcels < 1 || c.Length < 2 || c.Features < 1 || c.HRFLen < 1:
		return fmt.Errorf("data: fmri-synth: Parcels %d, Length %d, Features %d, HRFLen %d: need >= 1, 2, 1, 1", c.Parcels, c.Length, c.Features, c.HRFLen)
	case !(math.Abs(c.FeatureCoef) < 1) || !(math.Abs(c.PhiMin) < 1) || !(math.Abs(c.PhiMax) < 1):
		return fmt.Errorf("data: fmri-synth: FeatureCoef %v, PhiMin %v, PhiMax %v must lie in (-1, 1)", c.FeatureCoef, c.PhiMin, c.PhiMax)
	case !(c.DevStd >= 0) || !(c.NoiseStd >= 0) || !(c.OffsetStd >= 0) || !(c.ResponseScale >= 0):
		return fmt.Errorf("data: fmri-synth: DevStd %v, NoiseStd %v, OffsetStd %v, ResponseScale %v must be >= 0", c.DevStd, c.NoiseStd, c.OffsetStd, c.ResponseScale)
	}
	return nil
}

func (c FMRISynthConfig) cacheKey() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return strings.Join([]string{"gen=fmri-synth/v1", "S=" + strconv.Itoa(c.Subjects), "P=" + strconv.Itoa(c.Parcels),
		"T=" + strconv.Itoa(c.Length), "M=" + strconv.Itoa(c.Features), "H=" + strconv.Itoa(c.HRFLen), "fc=" + f(c.FeatureCoef),
		"rs=" + f(c.ResponseScale), "phi=" + f(c.PhiMin) + "," + f(c.PhiMax), "dev=" + f(c.DevStd), "ns=" + f(c.NoiseStd),
		"off=" + f(c.OffsetStd), "seed=" + strconv.FormatUint(c.Seed, 10)}, ";")
}

// FMRISynthModel is the generating model shared by all subjects.
type FMRISynthModel struct {
	Loading  [][]float64 // G, P×M
	Kernel   []float64   // h_1..h_H (index l-1), unit sum
	Phi      []float64   // φ_p
	DevStd   float64
	NoiseStd float64
}

// Model returns the shared model (from the generation seed only).
func (c FMRISynthConfig) Model() FMRISynthModel {
	P, M := c.Parcels, c.Features
	m := FMRISynthModel{Loading: make([][]float64, P), Phi: make([]float64, P), DevStd: c.DevStd, NoiseStd: c.NoiseStd}
	rng := newStream(c.Seed, purposeFMRIResponse)
	for p := range P {
		m.Loading[p] = make([]float64, M)
		for j := range M {
			m.Loading[p][j] = rng.NormFloat64() * c.ResponseScale / math.Sqrt(float64(M))
		}
		m.Phi[p] = c.PhiMin
		if P > 1 {
			m.Phi[p] += (c.PhiMax - c.PhiMin) * float64(p) / float64(P-1)
		}
	}
	// A gamma-shaped kernel l^2 exp(-l / (H/4)), peaking near H/2: smooth,
	// delayed, like a haemodynamic response.
	sum := 0.0
	for l := 1; l <= c.HRFLen; l++ {
		v := float64(l*l) * math.Exp(-float64(l)/math.Max(float64(c.HRFLen)/4, .5))
		m.Kernel = append(m.Kernel, v)
		sum += v
	}
	for i := range m.Kernel {
		m.Kernel[i] /= sum
	}
	return m
}

// Stimulus returns s_{-H}, …, s_{Length-1} (Length+HRFLen rows).
func (c FMRISynthConfig) Stimulus() [][]float64 {
	n := c.Length + c.HRFLen
	s := make([][]float64, n)
	for t := range s {
		s[t] = make([]float64, c.Features)
	}
	for j := range c.Features {
		for t, v := range ar1Drive(n, c.FeatureCoef, newStream(c.Seed, purposeFMRIStimulus, j)) {
			s[t][j] = v
		}
	}
	return s
}

// SharedResponse returns r_t, Length×P.
func (c FMRISynthConfig) SharedResponse(m FMRISynthModel, s [][]float64) [][]float64 {
	H := c.HRFLen
	r := make([][]float64, c.Length)
	for t := range r {
		r[t] = make([]float64, c.Parcels)
		for p := range r[t] {
			v := 0.0
			for l := 1; l <= H; l++ {
				for j, g := range m.Loading[p] {
					v += m.Kernel[l-1] * g * s[t+H-l][j] // s[t+H-l] is s_{t-l}
				}
			}
			r[t][p] = v
		}
	}
	return r
}

// FMRISubject is one generated subject with its parts, for tests.
type FMRISubject struct {
	Series                // X (raw) and Drive (s_t)
	Offset    []float64   // μ_i
	Deviation [][]float64 // d_{i,t}
}

// GenerateFMRISubjects draws the subjects; subject i uses its own stream.
func GenerateFMRISubjects(c FMRISynthConfig) ([]FMRISubject, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	m, s := c.Model(), c.Stimulus()
	r := c.SharedResponse(m, s)
	out := make([]FMRISubject, c.Subjects)
	parallelFor(c.Subjects, func(i int) {
		rng := newStream(c.Seed, purposeFMRISubject, i)
		P, T := c.Parcels, c.Length
		sub := FMRISubject{Series: Series{X: make([][]float64, T), Drive: make([][]float64, T)},
			Offset: make([]float64, P), Deviation: make([][]float64, T)}
		for p := range P {
			sub.Offset[p] = c.OffsetStd * rng.NormFloat64()
		}
		prev := make([]float64, P)
		for p := range P {
			prev[p] = c.DevStd * rng.NormFloat64() // d_{-1} from the stationary law
		}
		for t := range T {
			d := make([]float64, P)
			x := make([]float64, P)
			for p := range P {
				phi := m.Phi[p]
				d[p] = phi*prev[p] + c.DevStd*math.Sqrt(1-phi*phi)*rng.NormFloat64()
				x[p] = sub.Offset[p] + r[t][p] + d[p] + c.NoiseStd*rng.NormFloat64()
			}
			sub.X[t], sub.Deviation[t], prev = x, d, d
			sub.Drive[t] = append([]float64(nil), s[t+c.HRFLen]...)
		}
		out[i] = sub
	})
	return out, nil
}

// TrueResidualCov is the covariance of the oracle residual (see
// [FMRISynthConfig]) as a (K*P)×(K*P) row-major matrix in a prior bank's
// [k][d] layout; scale, when non-nil, divides parcel d by scale[d].
func (m FMRISynthModel) TrueResidualCov(K int, scale []float64) ([]float64, error) {
	P := len(m.Phi)
	if K < 1 {
		return nil, fmt.Errorf("data: fmri-synth TrueResidualCov: K = %d, must be >= 1", K)
	}
	if scale != nil && len(scale) != P {
		return nil, fmt.Errorf("data: fmri-synth TrueResidualCov: %d scales for %d parcels", len(scale), P)
	}
	n := K * P
	out := make([]float64, n*n)
	for p, phi := range m.Phi {
		s2 := m.DevStd * m.DevStd * (1 - phi*phi)
		for h := range K {
			for g := range K {
				v := 0.0
				for s := 1; s <= min(h, g)+1; s++ {
					v += math.Pow(phi, float64(h+1-s)) * math.Pow(phi, float64(g+1-s))
				}
				v *= s2
				if h == g {
					v += m.NoiseStd * m.NoiseStd
				}
				if scale != nil {
					v /= scale[p] * scale[p]
				}
				out[(h*P+p)*n+g*P+p] = v
			}
		}
	}
	return out, nil
}

func loadFMRISynth(name string, opt Options) (*Dataset, error) {
	c, err := fmriConfig(name, opt)
	if err != nil {
		return nil, err
	}
	d, err := synthetic(name, opt, c.cacheKey(), false, func() ([]Series, error) {
		subs, err := GenerateFMRISubjects(c)
		out := make([]Series, len(subs))
		for i, s := range subs {
			out[i] = s.Series
		}
		return out, err
	})
	if err != nil {
		return nil, err
	}
	d.Subjects = true
	return d, nil
}

// fmriConfig is the generator configuration that opt selects for fmri-synth.
func fmriConfig(name string, opt Options) (FMRISynthConfig, error) {
	c := DefaultFMRISynthConfig()
	if err := opt.onlyProjectGenerator(name); err != nil {
		return c, err
	}
	if opt.Participant != 0 {
		return c, fmt.Errorf("data: %s: Options.Participant %d: fmri-synth has subjects, not participants (use NumTraj for the subject count)", name, opt.Participant)
	}
	c.Seed = opt.genSeed()
	if err := opt.sizes(&c.Subjects, &c.Length); err != nil {
		return c, err
	}
	if opt.Channels < 0 {
		return c, fmt.Errorf("data: %s: Channels %d must not be negative", name, opt.Channels)
	}
	if opt.Channels > 0 {
		c.Parcels = opt.Channels
	}
	return c, c.validate()
}

package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// DiagAR1 is a stationary diagonal linear-Gaussian AR(1) process
//
//	x_{t+1} = A x_t + xi_{t+1},  A = diag(Coef),  xi ~ N(0, diag(1 - a_j^2)),
//
// whose innovation variances make every coordinate unit-variance at
// stationarity (Appendix E.1, Eq. known-snr-process).
type DiagAR1 struct {
	Coef []float64
}

// KnownSNRCoef is A_AR of Appendix E.1: distinct positive and
// sign-alternating memory scales.
var KnownSNRCoef = []float64{.995, .98, .95, .9, -.995, -.98, -.95, -.9}

// KnownSNR returns the 8-dimensional known-SNR process of Appendix E.1.
func KnownSNR() DiagAR1 { return DiagAR1{Coef: append([]float64(nil), KnownSNRCoef...)} }

// Dim is the state dimension.
func (p DiagAR1) Dim() int { return len(p.Coef) }

// InnovationStd returns sqrt(1 - a_j^2) per coordinate.
func (p DiagAR1) InnovationStd() []float64 {
	s := make([]float64, len(p.Coef))
	for j, a := range p.Coef {
		s[j] = math.Sqrt(1 - a*a)
	}
	return s
}

// ConditionalMean returns E[x_{t+k} | x_t = x] = A^k x (raw simulator
// coordinates; Eq. known-snr-conditional-mean). k=0 returns a copy of x.
func (p DiagAR1) ConditionalMean(x []float64, k int) []float64 {
	p.mustMatch(x)
	out := make([]float64, len(x))
	for j, v := range x {
		out[j] = math.Pow(p.Coef[j], float64(k)) * v
	}
	return out
}

// mustMatch panics on a state of the wrong dimension (a programming error).
func (p DiagAR1) mustMatch(x []float64) {
	if len(x) != p.Dim() {
		panic(fmt.Sprintf("data: AR(1) state has %d coordinates, the process has %d", len(x), p.Dim()))
	}
}

// step writes A x + xi into dst, drawing xi from rng.
func (p DiagAR1) step(dst, x, istd []float64, rng *rand.Rand) {
	for j, a := range p.Coef {
		dst[j] = a*x[j] + istd[j]*rng.NormFloat64()
	}
}

// Simulate draws one stationary trajectory of length T: x_0 ~ N(0, I) (the
// stationary law, so there is no burn-in) followed by T-1 AR(1) steps.
func (p DiagAR1) Simulate(T int, rng *rand.Rand) [][]float64 {
	istd := p.InnovationStd()
	x := make([][]float64, T)
	for t := range x {
		x[t] = make([]float64, p.Dim())
		if t == 0 {
			for j := range x[t] {
				x[t][j] = rng.NormFloat64()
			}
			continue
		}
		p.step(x[t], x[t-1], istd, rng)
	}
	return x
}

// Continuations draws B independent future-innovation continuations of
// length K from the fixed state x (Appendix E.1: "all future-noise
// realizations in one comparison begin at this same observed state").
// out[b][k-1] is draw b of x_{t+k}, k = 1..K, in raw coordinates. Draw b uses
// its own stream of seed, so draws are reproducible individually and
// increasing B keeps the first draws unchanged.
func (p DiagAR1) Continuations(x []float64, B, K int, seed uint64) [][][]float64 {
	p.mustMatch(x)
	istd := p.InnovationStd()
	out := make([][][]float64, B)
	for b := range out {
		rng := newStream(seed, purposeAR1Continuation, b)
		out[b] = make([][]float64, K)
		prev := x
		for k := range out[b] {
			out[b][k] = make([]float64, p.Dim())
			p.step(out[b][k], prev, istd, rng)
			prev = out[b][k]
		}
	}
	return out
}

// ConditionalMean is [DiagAR1.ConditionalMean] of the known-SNR process:
// A_AR^k x.
func ConditionalMean(x []float64, k int) []float64 { return KnownSNR().ConditionalMean(x, k) }

// Continuations is [DiagAR1.Continuations] of the known-SNR process.
func Continuations(x []float64, B, K int, seed uint64) [][][]float64 {
	return KnownSNR().Continuations(x, B, K, seed)
}

// AR1Config parameterises the known-SNR trajectory set.
type AR1Config struct {
	NumTraj, Length int
	Coef            []float64 // nil: KnownSNRCoef
	Seed            uint64    // generation seed
}

// DefaultAR1Config: 100 trajectories of 2048 steps. The paper fixes only the
// 15 test trajectories (Appendix E.1 probe protocol); 100 trajectories under
// the common 70/15/15 rule give exactly 70/15/15.
func DefaultAR1Config() AR1Config {
	return AR1Config{NumTraj: 100, Length: 2048, Coef: KnownSNR().Coef, Seed: DefaultGenSeed}
}

func (c AR1Config) process() DiagAR1 {
	if c.Coef == nil {
		return KnownSNR()
	}
	return DiagAR1{Coef: c.Coef}
}

func (c AR1Config) validate() error {
	if c.NumTraj < 1 || c.Length < 1 {
		return fmt.Errorf("data: known-snr: need NumTraj>=1 and Length>=1, got %d, %d", c.NumTraj, c.Length)
	}
	for _, a := range c.process().Coef {
		if !(math.Abs(a) < 1) {
			return fmt.Errorf("data: known-snr: coefficient %v is not stationary (|a| must be < 1)", a)
		}
	}
	return nil
}

// cacheKey lists every generator parameter (and the algorithm version).
func (c AR1Config) cacheKey() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "gen=ar1-diag/v1;n=%d;T=%d;seed=%d;coef=", c.NumTraj, c.Length, c.Seed)
	for i, a := range c.process().Coef {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.FormatFloat(a, 'g', -1, 64))
	}
	return sb.String()
}

// GenerateAR1 returns NumTraj raw, autonomous trajectories; trajectory i uses
// its own stream of c.Seed.
func GenerateAR1(c AR1Config) ([]Series, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	p := c.process()
	out := make([]Series, c.NumTraj)
	parallelFor(c.NumTraj, func(i int) {
		out[i] = Series{X: p.Simulate(c.Length, newStream(c.Seed, purposeAR1, i))}
	})
	return out, nil
}

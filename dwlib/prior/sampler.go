package prior

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/noise"
)

// Registry names of the bank sampler. Both build the same [Sampler]; the
// name records which predictor filled the bank ("prior": any of the paper's
// predictors, "prior-ar": the ridge-AR predictor of [BuildARBank]).
const (
	Name   = "prior"
	ARName = "prior-ar"
	// FactorName: the iEEG factor-AR predictor of [BuildFactorBank].
	FactorName = "prior-factor"
	// SubjectName: the fMRI subject-AR predictor of [BuildSubjectBank].
	SubjectName = "prior-subject"
)

// Names lists the registry names of the bank sampler.
func Names() []string { return []string{Name, ARName, FactorName, SubjectName} }

// IsName reports whether name is one of [Names]: a DW-Prior sampler.
func IsName(name string) bool {
	for _, n := range Names() {
		if n == name {
			return true
		}
	}
	return false
}

func init() {
	for _, name := range Names() {
		noise.Register(name, func(cfg noise.Config) (noise.Sampler, error) {
			if cfg == nil {
				// Empty: what a checkpoint restore fills with UnmarshalJSON.
				return &Sampler{name: name}, nil
			}
			var c Config
			switch v := cfg.(type) {
			case Config:
				c = v
			case *Config:
				c = *v
			default:
				return nil, fmt.Errorf("prior: sampler %q needs a prior.Config, got %T", name, cfg)
			}
			if c.Name == "" {
				c.Name = name
			}
			return NewSampler(c)
		})
	}
}

// Config configures a bank [Sampler] for noise.New.
type Config struct {
	// Name is the registry name, one of [Names] ("" is Name).
	Name string
	// Bank is the residual bank; required.
	Bank *Bank
}

// SamplerName implements noise.Config.
func (c Config) SamplerName() string {
	if c.Name == "" {
		return Name
	}
	return c.Name
}

// Sampler is the template bootstrap of eq. prior-template-bootstrap as a
// noise.Sampler:
//
//	eps_{i,1:K} = xi_i (e_{J,1:K} - ē_{1:K}),   J uniform on the bank, xi_i = ±1,
//
// one bank trajectory and one sign per draw, the same at every horizon and
// coordinate. Every draw is therefore a centred bank row up to sign, so the
// draws are zero mean and their second moment is exactly the bank's
// coordinate and cross-horizon covariance ([Bank.Covariance]).
//
// The bank is fixed: it is built once from training data before training,
// so Stage, Commit and Discard change nothing (they only check their
// arguments), and Ready is true at every horizon the bank covers from the
// first minibatch on. Horizons beyond the bank's K are not ready (zero).
type Sampler struct {
	name     string
	bank     *Bank
	centered [][]float64 // bank rows minus the bank mean
}

// NewSampler returns the bootstrap over cfg.Bank.
func NewSampler(cfg Config) (*Sampler, error) {
	name := cfg.SamplerName()
	if !IsName(name) {
		return nil, fmt.Errorf("prior: Config.Name = %q, want one of %q", name, Names())
	}
	if cfg.Bank == nil {
		return nil, errors.New("prior: Config.Bank is nil")
	}
	s := &Sampler{name: name}
	s.setBank(cfg.Bank)
	return s, nil
}

func (s *Sampler) setBank(b *Bank) {
	s.bank = b
	s.centered = make([][]float64, len(b.rows))
	for i, r := range b.rows {
		c := make([]float64, len(r))
		for j, v := range r {
			c[j] = v - b.mean[j]
		}
		s.centered[i] = c
	}
}

// Bank returns the sampler's bank (nil for an empty sampler).
func (s *Sampler) Bank() *Bank { return s.bank }

// Name implements noise.Sampler.
func (s *Sampler) Name() string { return s.name }

// Ready implements noise.Sampler: true for k < the bank's K.
func (s *Sampler) Ready(K int) []bool {
	r := make([]bool, max(K, 0))
	if s.bank != nil {
		for k := range min(K, s.bank.k) {
			r[k] = true
		}
	}
	return r
}

// Sample implements noise.Sampler. Each draw consumes exactly two values of
// rng, rng.IntN(bank size) for J and rng.Uint64 for the sign, so the stream
// does not depend on K. An empty sampler (noise.New without a Config, before
// UnmarshalJSON) refuses to sample: a DW run with no bank would otherwise
// calibrate with no noise at all.
func (s *Sampler) Sample(rng *rand.Rand, n, K, D int) ([]float64, error) {
	if rng == nil {
		return nil, errors.New("prior: Sample: nil rng")
	}
	if s.bank == nil {
		return nil, fmt.Errorf("prior: Sample: the %q sampler has no bank (build one with prior.BuildARBank, BuildFactorBank or BuildSubjectBank and pass it in prior.Config, or restore a checkpoint)", s.name)
	}
	if err := s.checkLayout("Sample", n*K*D, n, K, D); err != nil {
		return nil, err
	}
	out := make([]float64, n*K*D)
	ready := min(K, s.bank.k) * D
	for i := range n {
		src := s.centered[rng.IntN(len(s.centered))][:ready]
		neg := rng.Uint64()&1 == 1 // xi_i, shared across horizons and coordinates
		dst := out[i*K*D : i*K*D+ready]
		if neg {
			for j, v := range src {
				dst[j] = -v
			}
		} else {
			copy(dst, src)
		}
	}
	return out, nil
}

// Stage implements noise.Sampler. The bank is fixed, so residuals are only
// checked for their layout and otherwise ignored.
func (s *Sampler) Stage(residuals []float64, n, K, D int) error {
	return s.checkLayout("Stage", len(residuals), n, K, D)
}

// Commit implements noise.Sampler; the bank does not change.
func (s *Sampler) Commit() {}

// Discard implements noise.Sampler; nothing is ever staged.
func (s *Sampler) Discard() {}

func (s *Sampler) checkLayout(who string, length, n, K, D int) error {
	if n < 0 || K < 1 || D < 1 {
		return fmt.Errorf("prior: %s: n=%d, K=%d, D=%d: need n >= 0, K >= 1, D >= 1", who, n, K, D)
	}
	if length != n*K*D {
		return fmt.Errorf("prior: %s: %d values, want n*K*D=%d", who, length, n*K*D)
	}
	if s.bank != nil && D != s.bank.d {
		return fmt.Errorf("prior: %s: D=%d differs from the bank's dimension %d", who, D, s.bank.d)
	}
	return nil
}

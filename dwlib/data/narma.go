package data

import (
	"fmt"
	"math"
	"strconv"
)

// NARMAConfig parameterises bounded NARMA-5 (Appendix F.1):
//
//	y_{t+1} = tanh(.3 y_t + .05 y_t sum_{j=0}^{4} y_{t-j} + 1.5 u_{t-4} u_t + .1),
//	u_t ~ U[0, InputHigh],
//
// independently for each of Channels coordinates, each with its own input.
// The tanh keeps the recursion bounded (the classical NARMA can diverge).
type NARMAConfig struct {
	NumTraj, Length, Channels int
	BurnIn                    int     // discarded steps (200)
	InputHigh                 float64 // upper end of the uniform input (.5)
	Seed                      uint64  // generation seed

	// Generator "" or GeneratorProject keeps y_0..y_4 = 0 and discards
	// BurnIn steps. GeneratorAuthors uses the release's index layout
	// (docs/paper-vs-code.md §2.2): y_0..y_5 = 0, the recursion starting at
	// t = 5, and the window starting at index BurnIn+6. That is the same
	// recursion discarding narmaOrder more steps (see authorsNARMAExtraBurnIn);
	// law, input range, raw input and alignment are otherwise the same.
	Generator string
}

// DefaultNARMAConfig: 40 trajectories x 2048 steps, 8 channels, 200-step
// burn-in, u ~ U[0, .5].
func DefaultNARMAConfig() NARMAConfig {
	return NARMAConfig{NumTraj: 40, Length: 2048, Channels: 8, BurnIn: 200, InputHigh: .5, Seed: DefaultGenSeed}
}

func (c NARMAConfig) validate() error {
	if c.NumTraj < 1 || c.Length < 1 || c.Channels < 1 || c.BurnIn < 0 || !(c.InputHigh > 0) {
		return fmt.Errorf("data: narma5: need NumTraj, Length, Channels >= 1, BurnIn >= 0, InputHigh > 0; got %d, %d, %d, %d, %v",
			c.NumTraj, c.Length, c.Channels, c.BurnIn, c.InputHigh)
	}
	return checkGenerator("NARMAConfig.Generator", c.Generator)
}

// cacheKey names the algorithm and every parameter; the project's key is
// unchanged from before Generator existed.
func (c NARMAConfig) cacheKey() string {
	alg := "narma5-tanh/v1"
	if isAuthors(c.Generator) {
		alg = "narma5-tanh-authors/v1"
	}
	return fmt.Sprintf("gen=%s;n=%d;T=%d;ch=%d;burn=%d;uhigh=%s;seed=%d",
		alg, c.NumTraj, c.Length, c.Channels, c.BurnIn, strconv.FormatFloat(c.InputHigh, 'g', -1, 64), c.Seed)
}

// authorsNARMAExtraBurnIn is how many more steps the release's layout
// discards. The release zeroes y_0..y_L (L = narmaOrder), runs the recursion
// for t >= L and keeps indices from BurnIn+L+1; its u_0 is never read.
// Shifting its indices down by one (y'_m = y_{m+1}, u'_m = u_{m+1}) gives
// exactly this package's recursion (y'_0..y'_4 = 0, t >= 4) with the window
// starting at BurnIn+L.
const authorsNARMAExtraBurnIn = narmaOrder

// burnIn is the number of discarded steps in this package's indexing.
func (c NARMAConfig) burnIn() int {
	if isAuthors(c.Generator) {
		return c.BurnIn + authorsNARMAExtraBurnIn
	}
	return c.BurnIn
}

// narmaOrder is the memory of NARMA-5: y_{t+1} reads y_{t-4..t}, u_{t-4}, u_t.
const narmaOrder = 5

// narmaNext is the defining recursion, given y_{t-4..t} (oldest first).
func narmaNext(y []float64, uLag, uNow float64) float64 {
	yt := y[narmaOrder-1]
	sum := 0.0
	for j := range narmaOrder {
		sum += y[narmaOrder-1-j] // y_{t-j}
	}
	return math.Tanh(.3*yt + .05*yt*sum + 1.5*uLag*uNow + .1)
}

// GenerateNARMA5 returns NumTraj raw trajectories: X[t][c] = y_{B+t} and
// Drive[t][c] = u_{B+t} (B = BurnIn, plus authorsNARMAExtraBurnIn for the
// authors' layout), so Drive[t] is the input acting over t -> t+1. The
// recursion starts from y_0..y_4 = 0 and runs from t = 4; the first B steps
// are discarded. Inputs keep their raw scale.
func GenerateNARMA5(c NARMAConfig) ([]Series, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	burn := c.burnIn()
	total := burn + c.Length
	out := make([]Series, c.NumTraj)
	parallelFor(c.NumTraj, func(i int) {
		s := Series{X: makeRows(c.Length, c.Channels), Drive: makeRows(c.Length, c.Channels)}
		y := make([]float64, total+1)
		u := make([]float64, total)
		for ch := range c.Channels {
			rng := newStream(c.Seed, purposeNARMAInput, i, ch)
			for t := range u {
				u[t] = c.InputHigh * rng.Float64()
			}
			clear(y)
			for t := narmaOrder - 1; t < total; t++ {
				y[t+1] = narmaNext(y[t-narmaOrder+1:t+1], u[t-narmaOrder+1], u[t])
			}
			for t := range c.Length {
				s.X[t][ch] = y[burn+t]
				s.Drive[t][ch] = u[burn+t]
			}
		}
		out[i] = s
	})
	return out, nil
}

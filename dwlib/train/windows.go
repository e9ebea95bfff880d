package train

import (
	"fmt"
	"math/rand/v2"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// Geometry is the shape of one rollout window cut from a unit: Window observed states (the last
// one is the rollout origin x_o), then K targets x_{o+1..o+K}. The first BurnIn steps of every
// unit are never used (see dwlib/model for our reading of the paper's "16-step input window,
// 32-step burn-in").
type Geometry struct {
	Window, K, BurnIn int
}

// OriginRange returns the valid rollout origins o (index of x_o) of a unit of length n:
// BurnIn+Window−1 <= o <= n−1−K. It fails, naming the sizes, when the unit is too short.
func (g Geometry) OriginRange(n int) (lo, hi int, err error) {
	if g.Window < 1 || g.K < 1 || g.BurnIn < 0 {
		return 0, 0, fmt.Errorf("train: invalid geometry Window=%d, K=%d, BurnIn=%d", g.Window, g.K, g.BurnIn)
	}
	lo, hi = g.BurnIn+g.Window-1, n-1-g.K
	if hi < lo {
		return 0, 0, fmt.Errorf("train: a unit of %d steps is too short for burn-in %d + window %d + K %d = %d steps",
			n, g.BurnIn, g.Window, g.K, g.BurnIn+g.Window+g.K)
	}
	return lo, hi, nil
}

// CheckUnits checks that every unit fits the geometry, naming the first that does not.
func (g Geometry) CheckUnits(split string, units []data.Series) error {
	for u, s := range units {
		if _, _, err := g.OriginRange(s.Len()); err != nil {
			return fmt.Errorf("%s unit %d: %w", split, u, err)
		}
	}
	return nil
}

// Pick is one rollout window: a unit and an origin in it.
type Pick struct{ Unit, Origin int }

// EpochPicks draws one epoch of training windows: startsPerUnit origins per unit, each uniform
// over the unit's valid range (a fresh random start at every step, App. F.2), all shuffled
// together. The order of draws is fixed, so the same rng state gives the same epoch.
func EpochPicks(rng *rand.Rand, units []data.Series, startsPerUnit int, g Geometry) ([]Pick, error) {
	if startsPerUnit < 1 {
		return nil, fmt.Errorf("train: startsPerUnit = %d, must be >= 1", startsPerUnit)
	}
	picks := make([]Pick, 0, len(units)*startsPerUnit)
	for u, s := range units {
		lo, hi, err := g.OriginRange(s.Len())
		if err != nil {
			return nil, fmt.Errorf("train unit %d: %w", u, err)
		}
		for range startsPerUnit {
			picks = append(picks, Pick{Unit: u, Origin: lo + rng.IntN(hi-lo+1)})
		}
	}
	rng.Shuffle(len(picks), func(i, j int) { picks[i], picks[j] = picks[j], picks[i] })
	return picks, nil
}

// MakeBatch cuts the windows picks from units (see Batch for the layout). Drive entry t of a
// window is the drive acting over the step that consumes input t: Drive[o−Window+1+t] for
// t < Window−1+K.
func MakeBatch(units []data.Series, picks []Pick, g Geometry) (*Batch, error) {
	if len(picks) == 0 {
		return nil, fmt.Errorf("train: MakeBatch: no windows")
	}
	first := units[picks[0].Unit]
	D := len(first.X[0])
	J := 0
	if first.Drive != nil {
		J = len(first.Drive[0])
	}
	W, K := g.Window, g.K
	b := &Batch{N: len(picks), Window: W, K: K, D: D, J: J}
	b.History = make([]float64, 0, b.N*W*D)
	b.Targets = make([]float64, 0, b.N*K*D)
	if J > 0 {
		b.Drive = make([]float64, 0, b.N*(W-1+K)*J)
	}
	for _, p := range picks {
		if p.Unit < 0 || p.Unit >= len(units) {
			return nil, fmt.Errorf("train: MakeBatch: unit %d out of range [0, %d)", p.Unit, len(units))
		}
		s := units[p.Unit]
		lo, hi, err := g.OriginRange(s.Len())
		if err != nil {
			return nil, fmt.Errorf("unit %d: %w", p.Unit, err)
		}
		if p.Origin < lo || p.Origin > hi {
			return nil, fmt.Errorf("train: MakeBatch: unit %d origin %d outside [%d, %d]", p.Unit, p.Origin, lo, hi)
		}
		for t := p.Origin - W + 1; t <= p.Origin; t++ {
			b.History = append(b.History, s.X[t]...)
		}
		for t := p.Origin + 1; t <= p.Origin+K; t++ {
			b.Targets = append(b.Targets, s.X[t]...)
		}
		if J > 0 {
			for t := p.Origin - W + 1; t < p.Origin+K; t++ {
				b.Drive = append(b.Drive, s.Drive[t]...)
			}
		}
	}
	return b, nil
}

// TrajectoryMicrobatches draws one epoch in the authors' geometry: the units are shuffled and cut
// into microbatches of perMicro trajectories (the last may be smaller), and each microbatch draws
// starts origins, uniform over the valid range of its shortest unit, shared by all of its
// trajectories; the starts are distinct (as Python's random.sample in the authors' code) when the
// range holds enough of them. A microbatch's picks are trajectory-major: perMicro × starts windows.
func TrajectoryMicrobatches(rng *rand.Rand, units []data.Series, perMicro, starts int, g Geometry) ([][]Pick, error) {
	if perMicro < 1 || starts < 1 {
		return nil, fmt.Errorf("train: TrajectoryMicrobatches: perMicro = %d and starts = %d must be >= 1", perMicro, starts)
	}
	order := rng.Perm(len(units))
	var out [][]Pick
	for i := 0; i < len(order); i += perMicro {
		group := order[i:min(i+perMicro, len(order))]
		hi := -1
		lo := 0
		for j, u := range group {
			l, h, err := g.OriginRange(units[u].Len())
			if err != nil {
				return nil, fmt.Errorf("train unit %d: %w", u, err)
			}
			if j == 0 || h < hi {
				hi = h
			}
			lo = l
		}
		origins := make([]int, starts)
		taken := map[int]bool{}
		for s := range origins {
			o := lo + rng.IntN(hi-lo+1)
			for taken[o] && len(taken) < hi-lo+1 {
				o = lo + rng.IntN(hi-lo+1)
			}
			origins[s], taken[o] = o, true
		}
		picks := make([]Pick, 0, len(group)*starts)
		for _, u := range group {
			for _, o := range origins {
				picks = append(picks, Pick{Unit: u, Origin: o})
			}
		}
		out = append(out, picks)
	}
	return out, nil
}

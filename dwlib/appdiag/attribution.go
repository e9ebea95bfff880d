package appdiag

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/progress"
	"github.com/internal-dw/dwgo/dwlib/train"
)

// DefaultAttributionWindows is the number of training windows NoiseAttribution probes.
const DefaultAttributionWindows = 32

// AttributionConfig configures NoiseAttribution. Zero fields take the defaults.
type AttributionConfig struct {
	Windows int    // training windows in the batch (DefaultAttributionWindows)
	Shifts  int    // foreign pairings per window, 1..Windows−1 (0: all Windows−1)
	Seed    uint64 // the draw of the windows
}

// Defaults returns c with zero fields set.
func (c AttributionConfig) Defaults() AttributionConfig {
	if c.Windows == 0 {
		c.Windows = DefaultAttributionWindows
	}
	if c.Shifts == 0 {
		c.Shifts = c.Windows - 1
	}
	return c
}

// Validate reports the first invalid field.
func (c AttributionConfig) Validate() error {
	if c.Windows < 2 {
		return fmt.Errorf("appdiag: AttributionConfig.Windows = %d, must be >= 2 (a window needs another to pair with)", c.Windows)
	}
	if c.Shifts < 1 || c.Shifts > c.Windows-1 {
		return fmt.Errorf("appdiag: AttributionConfig.Shifts = %d, must be in [1, Windows−1 = %d]", c.Shifts, c.Windows-1)
	}
	return nil
}

// Attribution says where DW-Generic's noise moment comes from at one set of frozen parameters.
// The generic sampler (App. D.1) pushes a centered residual of ANOTHER window through each
// window's open routes; the total probe pushes the window's OWN residual. For a sampler that only
// sees noise, tr R ≤ tr T; a residual that is the window's own, unpredictable noise would give
// tr R ≈ tr T. Each field is the route moment's trace tr(·) = II + JJ per route, laid out [K][L],
// summed over the batch, for the probe noise ε_i of window i given by:
//
//	Total            ε_i = e_i                       (the total probe's moment T, exactly)
//	Centered         ε_i = e_i − ē                  (own residual, batch mean per step removed)
//	Rescaled         ε_i = e_j · ‖e_i‖/‖e_j‖        (another window's pattern at the own size)
//	Foreign          ε_i = e_j                       (another window's residual)
//	ForeignCentered  ε_i = e_j − ē                  (the generic sampler's draw, in expectation)
//
// with e = x* − x̂ the residual over the whole rollout, ‖·‖ its norm over every step and
// coordinate, and j = (i + s) mod N averaged over the shifts s = 1..Shifts. The pooled ratios
// factor exactly: Foreign/Total = Rescaled/Total (which pattern) × Foreign/Rescaled (which size).
//
// Templates is what one draw of the sampler gives: for each window j, the trace summed over every
// route of the moment when every window is probed with the same centered residual e_j − ē, as the
// generic sampler probes a whole minibatch with one template. Its mean over j is ForeignCentered's
// (pooled) with the j = i terms included; its spread is how far one calibration's R̂ can land from it.
type Attribution struct {
	K, L    int
	Windows []Example
	Shifts  int

	Total, Centered, Rescaled, Foreign, ForeignCentered []float64
	Templates                                           []float64 // [N]: Σ over routes, one template each

	Seconds float64 // wall time of the measurement
}

// Pooled returns Σ x / Σ Total over every route: the share of the total probe's route energy
// that the probe noise x carries, pooled over routes.
func (a *Attribution) Pooled(x []float64) float64 {
	num, den := 0.0, 0.0
	for i := range x {
		num += x[i]
		den += a.Total[i]
	}
	return num / den
}

// TemplateRatios returns Templates[j] / Σ Total: the noise share one template would give.
func (a *Attribution) TemplateRatios() []float64 {
	out := make([]float64, len(a.Templates))
	den := sum(a.Total)
	for j, x := range a.Templates {
		out[j] = x / den
	}
	return out
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// MeanRatio returns the mean over routes (with tr T > 0) of x/Total, the statistic training
// reports as the noise share (mean tr R̂/tr T̂).
func (a *Attribution) MeanRatio(x []float64) float64 {
	s, n := 0.0, 0
	for i := range x {
		if a.Total[i] > 0 {
			s += x[i] / a.Total[i]
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// FractionAbove returns the fraction of routes (with tr T > 0) where x exceeds Total: the routes
// where a sampler drawing x would close the gains.
func (a *Attribution) FractionAbove(x []float64) float64 {
	above, n := 0, 0
	for i := range x {
		if a.Total[i] > 0 {
			n++
			if x[i] > a.Total[i] {
				above++
			}
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(above) / float64(n)
}

// NoiseAttribution measures Attribution at f's frozen parameters on Windows training windows drawn
// uniformly (unit, then origin) from units with cfg.Seed, rolled out with geometry g; detach
// follows the run's DetachContext. rep (may be nil) sees one step per probe.
func NoiseAttribution(bk compute.Backend, f train.Model, units []data.Series, g train.Geometry, detach bool, cfg AttributionConfig, rep progress.Reporter) (*Attribution, error) {
	start := time.Now()
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("appdiag: NoiseAttribution: no units")
	}
	if err := g.CheckUnits("train", units); err != nil {
		return nil, fmt.Errorf("appdiag: NoiseAttribution: %w", err)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, streamAttribution))
	picks := make([]train.Pick, cfg.Windows)
	windows := make([]Example, cfg.Windows)
	for i := range picks {
		u := rng.IntN(len(units))
		lo, hi, _ := g.OriginRange(units[u].Len())
		picks[i] = train.Pick{Unit: u, Origin: lo + rng.IntN(hi-lo+1)}
		windows[i] = Example{Unit: u, Origin: picks[i].Origin}
	}
	b, pr, pred, err := probeBatch(bk, f, units, picks, g, detach)
	if err != nil {
		return nil, err
	}
	rep = progress.OrNop(rep)
	rep.Start(2+3*cfg.Shifts+cfg.Windows, "noise attribution")
	defer rep.Finish()
	a, err := attribute(pr, pred, b.Targets, b.N, b.K, b.D, f.NumLayers(), cfg.Shifts, rep)
	if err != nil {
		return nil, err
	}
	a.Windows = windows
	a.Seconds = time.Since(start).Seconds()
	return a, nil
}

// attribute runs every probe of Attribution with the prober pr, fixed predictions pred and
// targets (both [N][K][D]).
func attribute(pr prober, pred, target []float64, N, K, D, L, shifts int, rep progress.Reporter) (*Attribution, error) {
	row := K * D
	e := make([]float64, len(target)) // e = x* − x̂
	for j := range e {
		e[j] = target[j] - pred[j]
	}
	mean := make([]float64, row) // ē per (k, d)
	for i := range N {
		for j := range row {
			mean[j] += e[i*row+j] / float64(N)
		}
	}
	norm := make([]float64, N)
	for i := range N {
		s := 0.0
		for _, v := range e[i*row : (i+1)*row] {
			s += v * v
		}
		norm[i] = math.Sqrt(s)
	}
	a := &Attribution{K: K, L: L, Shifts: shifts}
	// trace probes the noise eps and returns tr(·) per route; the total probe comes with it.
	trace := func(eps []float64, what string) (tot, nz []float64, err error) {
		t, n, err := pr.probe(target, eps)
		if err != nil {
			return nil, nil, fmt.Errorf("appdiag: NoiseAttribution: %s probe: %w", what, err)
		}
		if len(t) != K*L || len(n) != K*L {
			return nil, nil, fmt.Errorf("appdiag: NoiseAttribution: %s probe returned %d and %d routes, want K·L = %d", what, len(t), len(n), K*L)
		}
		tot, nz = make([]float64, K*L), make([]float64, K*L)
		for r := range tot {
			tot[r], nz[r] = t[r].II+t[r].JJ, n[r].II+n[r].JJ
		}
		rep.Step(1, what)
		return tot, nz, nil
	}
	var err error
	if a.Total, _, err = trace(e, "own residual"); err != nil {
		return nil, err
	}
	eps := make([]float64, len(e))
	for i := range N {
		for j := range row {
			eps[i*row+j] = e[i*row+j] - mean[j]
		}
	}
	if _, a.Centered, err = trace(eps, "own residual, centered"); err != nil {
		return nil, err
	}
	a.Rescaled, a.Foreign, a.ForeignCentered = make([]float64, K*L), make([]float64, K*L), make([]float64, K*L)
	add := func(acc, x []float64) {
		for r := range acc {
			acc[r] += x[r] / float64(shifts)
		}
	}
	for s := 1; s <= shifts; s++ {
		for _, v := range []struct {
			name string
			acc  []float64
			of   func(i, j, c int) float64 // entry c of ε_i built from window j
		}{
			{"rescaled", a.Rescaled, func(i, j, c int) float64 {
				if norm[j] == 0 {
					return 0
				}
				return e[j*row+c] * norm[i] / norm[j]
			}},
			{"foreign", a.Foreign, func(i, j, c int) float64 { return e[j*row+c] }},
			{"foreign, centered", a.ForeignCentered, func(i, j, c int) float64 { return e[j*row+c] - mean[c] }},
		} {
			for i := range N {
				j := (i + s) % N
				for c := range row {
					eps[i*row+c] = v.of(i, j, c)
				}
			}
			_, nz, err := trace(eps, fmt.Sprintf("%s, shift %d", v.name, s))
			if err != nil {
				return nil, err
			}
			add(v.acc, nz)
		}
	}
	a.Templates = make([]float64, N)
	for j := range N {
		for i := range N {
			for c := range row {
				eps[i*row+c] = e[j*row+c] - mean[c]
			}
		}
		_, nz, err := trace(eps, fmt.Sprintf("template %d", j))
		if err != nil {
			return nil, err
		}
		a.Templates[j] = sum(nz)
	}
	return a, nil
}

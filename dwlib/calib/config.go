package calib

import (
	"errors"
	"fmt"
)

// Paper defaults (training-settings table: W/C = 8/4, route EMA .95).
const (
	DefaultWarmup     = 8
	DefaultPeriod     = 4
	DefaultRouteEMA   = 0.95
	DefaultHistoryCap = 256
)

// Config configures a [Controller].
type Config struct {
	// K is the number of rollout steps (forecast horizons), K > 0.
	K int `json:"K"`
	// L is the number of routed residual layers per step, L > 0.
	L int `json:"L"`
	// Warmup W is the number of fully open minibatches before the first
	// calibration, W ≥ 0.
	Warmup int `json:"warmup"`
	// Period C is the number of minibatches between calibrations, C ≥ 1.
	Period int `json:"period"`
	// RouteEMA is the coefficient a of the route-moment EMAs,
	// T̂ ← a·T̂ + (1-a)·(1/D_l) dᵀd, with 0 < a < 1.
	RouteEMA float64 `json:"route_ema"`
	// HistoryCap bounds the gain history: 0 selects DefaultHistoryCap, a
	// negative value keeps every entry, a positive value keeps the most
	// recent HistoryCap entries (older ones are dropped and counted).
	HistoryCap int `json:"history_cap"`
}

// DefaultConfig returns the paper's settings for K steps and L layers.
func DefaultConfig(K, L int) Config {
	return Config{K: K, L: L, Warmup: DefaultWarmup, Period: DefaultPeriod, RouteEMA: DefaultRouteEMA}
}

// Validate reports every invalid field, naming it.
func (c Config) Validate() error {
	var errs []error
	if c.K <= 0 {
		errs = append(errs, fmt.Errorf("Config.K = %d, must be > 0", c.K))
	}
	if c.L <= 0 {
		errs = append(errs, fmt.Errorf("Config.L = %d, must be > 0", c.L))
	}
	if c.Warmup < 0 {
		errs = append(errs, fmt.Errorf("Config.Warmup = %d, must be >= 0 (paper: %d)", c.Warmup, DefaultWarmup))
	}
	if c.Period < 1 {
		errs = append(errs, fmt.Errorf("Config.Period = %d, must be >= 1 (paper: %d)", c.Period, DefaultPeriod))
	}
	if !(c.RouteEMA > 0 && c.RouteEMA < 1) {
		errs = append(errs, fmt.Errorf("Config.RouteEMA = %v, must be in (0, 1) (paper: %v)", c.RouteEMA, DefaultRouteEMA))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("calib: invalid config: %w", err)
	}
	return nil
}

// historyCap resolves HistoryCap; a negative result means unbounded.
func (c Config) historyCap() int {
	if c.HistoryCap == 0 {
		return DefaultHistoryCap
	}
	return c.HistoryCap
}

package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MGConfig parameterises the (optionally driven) Mackey–Glass testbed of
// Appendix F.1 and Appendix "Controlled Test of Strong Observed Drive":
//
//	dx/dt = Beta x(t-Tau) / (1 + x(t-Tau)^Power) - Gamma x(t) + DriveScale u(t)
//
// independently for each of Channels coordinates.
type MGConfig struct {
	NumTraj, Length, Channels int
	Tau, Beta, Gamma          float64
	Power                     int     // exponent of the delayed term (10)
	Step                      float64 // RK4 step; Tau/Step and 1/Step must be integers
	BurnIn                    int     // discarded time units before the first sample

	// Initial history: x(t) = c for t in [-Tau, 0], with c drawn uniformly
	// from [HistLow, HistHigh] independently per trajectory and channel.
	// The paper only asks for "independent initial histories"; a constant
	// history around the attractor's mean (about .9) is the classical
	// choice, and the long burn-in removes any trace of it.
	HistLow, HistHigh float64

	// Driven adds the observed drive u and returns it as Series.Drive.
	// DriveScale is lambda_D; DriveCoef is the AR(1) coefficient of u. The
	// drive acts from t=0, burn-in included, so the retained window starts
	// on the driven system's own stationary regime. u is held constant on
	// every unit interval [j, j+1).
	Driven     bool
	DriveScale float64
	DriveCoef  float64

	Seed uint64 // generation seed

	// Generator selects the recipe: "" or GeneratorProject is the one
	// documented on this type and in mgChannel; GeneratorAuthors is the
	// release's (mgFrozen): a noisy near-constant history, the delayed value
	// frozen over each RK4 step, samples one unit later, and Drive[t] the
	// forcing that produced X[t]. HistLow and HistHigh are then unused.
	Generator string
}

// DefaultMGConfig is the autonomous testbed: 40 trajectories x 2048 unit-time
// samples, 8 channels, tau=30, beta=.2, gamma=.1, power 10, RK4 step .1,
// 1000-unit burn-in.
func DefaultMGConfig() MGConfig {
	return MGConfig{
		NumTraj: 40, Length: 2048, Channels: 8,
		Tau: 30, Beta: .2, Gamma: .1, Power: 10, Step: .1, BurnIn: 1000,
		HistLow: .5, HistHigh: 1.5,
		DriveCoef: .9,
		Seed:      DefaultGenSeed,
	}
}

// DefaultDrivenMGConfig is the strong-observed-drive testbed: the autonomous
// defaults plus a unit-variance AR(1) drive (coefficient .9) of scale .08.
func DefaultDrivenMGConfig() MGConfig {
	c := DefaultMGConfig()
	c.Driven = true
	c.DriveScale = DefaultDriveScale
	return c
}

// DefaultDriveScale is lambda_D of the strong-observed-drive comparison; the
// probe-validation sweep uses .0315 to .34.
const DefaultDriveScale = .08

func (c MGConfig) grid() (lag, perUnit int, err error) {
	if !(c.Step > 0) {
		return 0, 0, fmt.Errorf("data: mackey-glass: Step must be > 0, got %v", c.Step)
	}
	lagF, unitF := c.Tau/c.Step, 1/c.Step
	lag, perUnit = int(math.Round(lagF)), int(math.Round(unitF))
	if math.Abs(lagF-float64(lag)) > 1e-9 || math.Abs(unitF-float64(perUnit)) > 1e-9 || lag < 1 {
		return 0, 0, fmt.Errorf("data: mackey-glass: Tau/Step (%v) and 1/Step (%v) must be positive integers", lagF, unitF)
	}
	return lag, perUnit, nil
}

func (c MGConfig) validate() error {
	if c.NumTraj < 1 || c.Length < 1 || c.Channels < 1 || c.BurnIn < 0 {
		return fmt.Errorf("data: mackey-glass: need NumTraj, Length, Channels >= 1 and BurnIn >= 0, got %d, %d, %d, %d",
			c.NumTraj, c.Length, c.Channels, c.BurnIn)
	}
	if c.Power < 1 {
		return fmt.Errorf("data: mackey-glass: Power must be >= 1, got %d", c.Power)
	}
	if !(c.HistLow <= c.HistHigh) {
		return fmt.Errorf("data: mackey-glass: need HistLow <= HistHigh, got %v, %v", c.HistLow, c.HistHigh)
	}
	if err := checkGenerator("MGConfig.Generator", c.Generator); err != nil {
		return err
	}
	if c.Driven && !(math.Abs(c.DriveCoef) < 1) {
		return fmt.Errorf("data: mackey-glass: drive AR coefficient %v is not stationary", c.DriveCoef)
	}
	_, _, err := c.grid()
	return err
}

func (c MGConfig) name() string {
	if c.Driven {
		return "driven-mg"
	}
	return "mackey-glass"
}

// cacheKey lists every generator parameter (and the algorithm version). The
// project's key is unchanged from before Generator existed, so its cache
// files stay valid; the authors' recipe has its own algorithm name, and its
// history constants replace the unused HistLow..HistHigh.
func (c MGConfig) cacheKey() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	alg, hist := "mackey-glass/v1", f(c.HistLow)+".."+f(c.HistHigh)
	if isAuthors(c.Generator) {
		alg, hist = "mackey-glass-authors/v1", f(authorsHistMean)+"+"+f(authorsHistSD)+"N"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "gen=%s;n=%d;T=%d;ch=%d;tau=%s;beta=%s;gamma=%s;power=%d;h=%s;burn=%d;hist=%s;seed=%d",
		alg, c.NumTraj, c.Length, c.Channels, f(c.Tau), f(c.Beta), f(c.Gamma), c.Power, f(c.Step), c.BurnIn,
		hist, c.Seed)
	if c.Driven {
		fmt.Fprintf(&sb, ";drive=ar1;scale=%s;coef=%s", f(c.DriveScale), f(c.DriveCoef))
	}
	return sb.String()
}

// GenerateMackeyGlass returns NumTraj raw trajectories of Length unit-time
// samples. X[t] is the state at time BurnIn+t. When c.Driven, Drive[t] holds
// the Channels drive values u acting over [BurnIn+t, BurnIn+t+1) (so the last
// one acts after the last retained sample; it is kept for alignment).
//
// With GeneratorAuthors, X[t] is the state at time BurnIn+1+t and Drive[t] is
// still u over [BurnIn+t, BurnIn+t+1), now the interval that ends at X[t]:
// the drive fed with a state is the forcing that produced it, one interval
// behind the project's alignment. The drive realisation u is the same
// stream for both recipes, so the Drive arrays of the two are identical for
// the same seed and sizes while the states they accompany are one unit apart.
//
// Each channel's initial history and drive come from their own streams of
// c.Seed, so they are identical for every DriveScale (and the autonomous
// testbed shares its initial histories with the driven one): with
// DriveScale=0 the driven generator reproduces the autonomous states bit for
// bit.
func GenerateMackeyGlass(c MGConfig) ([]Series, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	out := make([]Series, c.NumTraj)
	parallelFor(c.NumTraj, func(i int) {
		s := Series{X: makeRows(c.Length, c.Channels)}
		if c.Driven {
			s.Drive = makeRows(c.Length, c.Channels)
		}
		for ch := range c.Channels {
			x, u := mgSimulateChannel(c, i, ch, nil)
			for t := range c.Length {
				s.X[t][ch] = x[t]
				if c.Driven {
					s.Drive[t][ch] = u[c.BurnIn+t]
				}
			}
		}
		out[i] = s
	})
	return out, nil
}

func makeRows(T, dim int) [][]float64 {
	flat := make([]float64, T*dim)
	rows := make([][]float64, T)
	for t := range rows {
		rows[t] = flat[t*dim : (t+1)*dim : (t+1)*dim]
	}
	return rows
}

// mgSimulateChannel integrates channel ch of trajectory traj. It returns the
// Length retained unit-time samples and the full drive sequence u_j for
// j = 0..BurnIn+Length-1 (nil when autonomous). If fine is non-nil it is
// called with every internal-grid value (step index n >= 0, x_n), which the
// tests use to re-integrate steps independently.
//
// The authors' recipe also reports its initial history: fine(n, x) for
// n = -lag-1 .. -1 (oldest first) precedes fine(0, x_0).
func mgSimulateChannel(c MGConfig, traj, ch int, fine func(n int, x float64)) (samples, u []float64) {
	lag, perUnit, _ := c.grid()
	total := c.BurnIn + c.Length
	if c.Driven {
		u = ar1Drive(total, c.DriveCoef, newStream(c.Seed, purposeMGDrive, traj, ch))
	}
	var m mgIntegrator
	first := c.BurnIn // unit time of the first retained sample
	if isAuthors(c.Generator) {
		hist := authorsHistory(c, lag, traj, ch)
		if fine != nil {
			for k, v := range hist[:len(hist)-1] {
				fine(k-len(hist)+1, v)
			}
		}
		m = newMGFrozen(c, lag, hist)
		first++ // the release keeps the state after each interval
	} else {
		hist := c.HistLow + (c.HistHigh-c.HistLow)*newStream(c.Seed, purposeMGHistory, traj, ch).Float64()
		m = newMGChannel(c, lag, hist)
	}
	samples = make([]float64, c.Length)
	if fine != nil {
		fine(0, m.current())
	}
	last := first + c.Length - 1 // <= total-1, so u covers every interval
	for j := 0; ; j++ {
		if j >= first {
			samples[j-first] = m.current()
		}
		if j == last {
			break // the last retained sample needs no further integration
		}
		force := 0.0
		if c.Driven {
			force = c.DriveScale * u[j]
		}
		for range perUnit {
			m.step(force)
			if fine != nil {
				fine(m.index(), m.current())
			}
		}
	}
	return samples, u
}

// mgIntegrator advances one delay equation on the grid t_n = n h; the
// project's (mgChannel) and the authors' (mgFrozen) schemes implement it, so
// both share the sampling loop of mgSimulateChannel.
type mgIntegrator interface {
	step(force float64) // one step with constant additive forcing
	current() float64   // x_n
	index() int         // n
}

// mgChannel is an RK4 integrator for one delay equation on the grid
// t_n = n h, with a ring buffer of the last lag+1 grid values (lag = Tau/h).
//
// RK4 needs the delayed state at t_n - Tau (a grid point), t_n + h - Tau (a
// grid point) and t_n + h/2 - Tau (a midpoint). The midpoint is obtained by
// cubic Hermite interpolation of the stored history,
//
//	x(m + 1/2) = (x_m + x_{m+1})/2 + h (x'_m - x'_{m+1}) / 8,
//
// using the derivatives the equation itself provides at the two grid points.
// This is O(h^4) accurate, so the scheme keeps RK4's fourth order, whereas
// linear interpolation would degrade it to second order. The drive is
// constant on every internal interval (unit intervals are whole numbers of
// steps), so within the interval its contribution to x'_m and x'_{m+1}
// cancels: only the autonomous part a_n = Beta g(x_{n-lag}) - Gamma x_n is
// stored. The constant initial history has zero derivative; at t=0 the
// left derivative (history side, 0) and right derivative (a_0) differ, which
// the interpolation respects.
type mgChannel struct {
	beta, gamma, h float64
	power, lag     int
	x, a           []float64 // ring buffers over grid indices n-lag..n
	n              int       // index of the current (latest) grid point
}

func newMGChannel(c MGConfig, lag int, hist float64) *mgChannel {
	m := &mgChannel{beta: c.Beta, gamma: c.Gamma, h: c.Step, power: c.Power, lag: lag,
		x: make([]float64, lag+1), a: make([]float64, lag+1)}
	for i := range m.x {
		m.x[i] = hist // a stays 0 on the constant history
	}
	m.a[m.slot(0)] = m.beta*m.g(hist) - m.gamma*hist // right derivative at t=0
	return m
}

func (m *mgChannel) slot(n int) int { return (n + m.lag) % (m.lag + 1) }

func (m *mgChannel) current() float64 { return m.x[m.slot(m.n)] }

func (m *mgChannel) index() int { return m.n }

// g is the Mackey–Glass production nonlinearity v / (1 + v^power).
func (m *mgChannel) g(v float64) float64 { return v / (1 + powi(v, m.power)) }

// powi computes v^p by repeated squaring (exact for the small p used here
// and much cheaper than math.Pow in the inner loop).
func powi(v float64, p int) float64 {
	r := 1.0
	for p > 0 {
		if p&1 == 1 {
			r *= v
		}
		v *= v
		p >>= 1
	}
	return r
}

// step advances by one RK4 step with constant additive forcing.
func (m *mgChannel) step(force float64) {
	n, d := m.n, m.n-m.lag
	h := m.h
	xn := m.x[m.slot(n)]
	xd0, xd1 := m.x[m.slot(d)], m.x[m.slot(d+1)]
	dR := m.a[m.slot(d)] // right derivative at d (0 on the history)
	dL := 0.0            // left derivative at d+1 (0 up to and including t=0)
	if d+1 > 0 {
		dL = m.a[m.slot(d+1)]
	}
	xdm := 0.5*(xd0+xd1) + h*(dR-dL)/8

	p0, pm, p1 := m.beta*m.g(xd0), m.beta*m.g(xdm), m.beta*m.g(xd1)
	k1 := p0 - m.gamma*xn + force
	k2 := pm - m.gamma*(xn+0.5*h*k1) + force
	k3 := pm - m.gamma*(xn+0.5*h*k2) + force
	k4 := p1 - m.gamma*(xn+h*k3) + force
	xnew := xn + h/6*(k1+2*k2+2*k3+k4)

	// slot(n+1) == slot(d): the oldest value is no longer needed.
	m.x[m.slot(n+1)] = xnew
	m.a[m.slot(n+1)] = p1 - m.gamma*xnew
	m.n++
}

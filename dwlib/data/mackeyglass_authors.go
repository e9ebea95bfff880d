package data

// The authors' Mackey–Glass recipe (MGConfig.Generator = GeneratorAuthors),
// as their release integrates it (docs/paper-vs-code.md §2.1, §2.3, §9.6
// items 22–24 and 27). Only the scheme is reproduced: the random numbers come
// from this package's PCG streams, not numpy's.

// The release's initial history: every buffer slot is independently
// authorsHistMean + authorsHistSD * N(0,1), a noisy near-constant history
// that is the same for every trajectory up to noise.
const (
	authorsHistMean = 1.2
	authorsHistSD   = 0.02
)

// authorsHistory draws the release's lag+2 history slots for (traj, ch),
// oldest first; the last one is x_0. The release sizes its buffer as
// ceil(Tau/h)+2, so the oldest slot (time -(lag+1) h) is drawn but never
// read: the delay is exactly lag steps. It is kept so the buffer has the
// release's layout and draw count.
func authorsHistory(c MGConfig, lag, traj, ch int) []float64 {
	rng := newStream(c.Seed, purposeMGAuthorsHistory, traj, ch)
	h := make([]float64, lag+2)
	for k := range h {
		h[k] = authorsHistMean + authorsHistSD*rng.NormFloat64()
	}
	return h
}

// mgFrozen is the release's RK4: the delayed value x_{n-lag} is read once at
// the start of step n and held for all four stages,
//
//	p  = Beta g(x_{n-lag}),  f(x) = p - Gamma x + force,
//	k1 = f(x_n), k2 = f(x_n + h k1/2), k3 = f(x_n + h k2/2), k4 = f(x_n + h k3),
//	x_{n+1} = x_n + h (k1 + 2 k2 + 2 k3 + k4) / 6.
//
// Freezing the delay makes the local error O(h^2) in the delay term (the
// delayed state moves by about h x'(t-Tau) during the step), so the scheme
// is first order overall, unlike mgChannel's fourth-order stage-time delay.
// It is reproduced as is because it is what generated the paper's data.
type mgFrozen struct {
	beta, gamma, h float64
	power, lag     int
	buf            []float64 // ring of lag+2 grid values
	pos            int       // slot of x_n
	n              int
}

// newMGFrozen starts from hist (oldest first, last = x_0, len lag+2).
func newMGFrozen(c MGConfig, lag int, hist []float64) *mgFrozen {
	return &mgFrozen{beta: c.Beta, gamma: c.Gamma, h: c.Step, power: c.Power, lag: lag,
		buf: append([]float64(nil), hist...), pos: len(hist) - 1}
}

func (m *mgFrozen) current() float64 { return m.buf[m.pos] }

func (m *mgFrozen) index() int { return m.n }

func (m *mgFrozen) step(force float64) {
	size := len(m.buf)
	h, x := m.h, m.buf[m.pos]
	xd := m.buf[(m.pos-m.lag+size)%size]
	p := m.beta * xd / (1 + powi(xd, m.power))
	k1 := p - m.gamma*x + force
	k2 := p - m.gamma*(x+0.5*h*k1) + force
	k3 := p - m.gamma*(x+0.5*h*k2) + force
	k4 := p - m.gamma*(x+h*k3) + force
	// The next slot holds x_{n-lag-1}, which is no longer needed.
	m.pos = (m.pos + 1) % size
	m.buf[m.pos] = x + h/6*(k1+2*k2+2*k3+k4)
	m.n++
}

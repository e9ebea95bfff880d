package baseline

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"slices"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/internal/fft2"
)

// NameFourierAR is the field testbeds' linear baseline (Result.Name).
const NameFourierAR = "fourier-ar"

// FourierAR is the linear baseline of the spatial fields: per channel c and 2-D Fourier mode ω of
// the periodic grid, an independent complex autoregression of order P,
//
//	ẑ_{t+1}(c, ω) = Σ_{j=1..P} a_j(c, ω) z_{t+1−j}(c, ω),   z_t(c, ·) = FFT2(x_t(c, ·)),
//
// rolled out closed loop in Fourier space and transformed back every step.
//
// Why per Fourier mode rather than the full-state ridge AR of the time series or a ridge on a
// local stencil: the full-state AR needs a D × D (D = 4·64·128 = 32 768) system per lag, which is
// out of reach; a stencil is local and would have to learn advection from a few neighbours. On a
// periodic grid a linear, translation-invariant dynamics is diagonal in Fourier space, so one
// P-coefficient regression per mode is the exact linear model of that class: it contains
// advection by a uniform flow (a phase rotation), diffusion (a decay growing with |ω|²) and
// persistence (a = 1), at a cost of D small P × P solves. What it cannot represent is the
// nonlinear coupling between modes, which is what the learned models are there for.
type FourierAR struct {
	Field  data.Field
	P      int
	Lambda float64
	// Coef[(c·Height·Width + m)·P + j−1] is a_j(c, ω_m), ω_m the mode at the flat index m of the
	// unnormalised FFT (row-major ky, kx, as fft2 stores it).
	Coef []complex128
}

var (
	_ eval.Forecaster      = (*FourierAR)(nil)
	_ eval.BatchForecaster = (*FourierAR)(nil)
)

// DefaultFourierOrders and DefaultFourierLambdas are the validation grid of the Fourier AR: the
// order P (capped by the protocol's history) and the relative ridge strength λ (the penalty is
// λ times the mean diagonal of each mode's Gram matrix, so it is scale-free across modes whose
// energies differ by orders of magnitude).
var (
	DefaultFourierOrders  = []int{1, 2, 3, 4}
	DefaultFourierLambdas = []float64{1e-6, 1e-4, 1e-2, 1e-1}
)

// FourierGrid is the validation grid of SelectFourierAR (nil fields: the defaults).
type FourierGrid struct {
	Orders  []int
	Lambdas []float64
}

func (g FourierGrid) withDefaults() FourierGrid {
	if len(g.Orders) == 0 {
		g.Orders = slices.Clone(DefaultFourierOrders)
	}
	if len(g.Lambdas) == 0 {
		g.Lambdas = slices.Clone(DefaultFourierLambdas)
	}
	return g
}

// fourierStats holds, per channel and mode, the Hermitian Gram matrix of the lag vector
// s = (z_t, z_{t−1}, …, z_{t−Pmax}) summed over every training step t >= Pmax of every unit:
// G[u][v] = Σ conj(s_u) s_v. Every order P <= Pmax is fitted from it, on the same samples.
type fourierStats struct {
	field data.Field
	pmax  int
	g     []complex128 // [(c·HW + m)·(pmax+1)² + u·(pmax+1) + v]
	n     int          // samples per mode
}

// spectra returns the 2-D FFT of each channel of state x, channel-major.
func spectra(plan *fft2.Plan, f data.Field, x []float64) []complex128 {
	hw := f.Height * f.Width
	out := make([]complex128, f.Channels*hw)
	for c := range f.Channels {
		plan.Forward(out[c*hw:(c+1)*hw], x[c*hw:(c+1)*hw])
	}
	return out
}

func collectFourierStats(units []eval.Unit, f data.Field, pmax int) (*fourierStats, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if pmax < 1 {
		return nil, fmt.Errorf("baseline: Fourier AR: maximum order %d, must be >= 1", pmax)
	}
	hw, q := f.Height*f.Width, pmax+1
	st := &fourierStats{field: f, pmax: pmax, g: make([]complex128, f.Channels*hw*q*q)}
	plan := fft2.New(f.Width, f.Height)
	for i, u := range units {
		if len(u.X) <= pmax {
			continue
		}
		if len(u.X[0]) != f.Dim() {
			return nil, fmt.Errorf("baseline: Fourier AR: unit %d has %d coordinates, the %d x %d x %d field has %d", i, len(u.X[0]), f.Channels, f.Height, f.Width, f.Dim())
		}
		ring := make([][]complex128, 0, len(u.X))
		for t, x := range u.X {
			ring = append(ring, spectra(plan, f, x))
			if t < pmax {
				continue
			}
			st.n++
			for cm := range f.Channels * hw {
				g := st.g[cm*q*q : (cm+1)*q*q]
				for a := range q {
					sa := cmplx.Conj(ring[t-a][cm])
					for b := range q {
						g[a*q+b] += sa * ring[t-b][cm]
					}
				}
			}
		}
	}
	if st.n == 0 {
		return nil, fmt.Errorf("baseline: Fourier AR: no training unit is longer than the maximum order %d", pmax)
	}
	return st, nil
}

// fit solves every mode's ridge regression of order p.
func (st *fourierStats) fit(p int, lambda float64) (*FourierAR, error) {
	if p < 1 || p > st.pmax {
		return nil, fmt.Errorf("baseline: Fourier AR: order %d outside [1, %d]", p, st.pmax)
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("baseline: Fourier AR: lambda = %v, must be finite and >= 0", lambda)
	}
	f := st.field
	hw, q := f.Height*f.Width, st.pmax+1
	m := &FourierAR{Field: f, P: p, Lambda: lambda, Coef: make([]complex128, f.Channels*hw*p)}
	A := make([]complex128, p*p)
	b := make([]complex128, p)
	for cm := range f.Channels * hw {
		g := st.g[cm*q*q : (cm+1)*q*q]
		tr := 0.0
		for u := 1; u <= p; u++ {
			tr += real(g[u*q+u])
		}
		if !(tr > 0) {
			continue // a mode with no energy in training: forecast 0
		}
		for u := 1; u <= p; u++ {
			for v := 1; v <= p; v++ {
				A[(u-1)*p+v-1] = g[u*q+v]
			}
			A[(u-1)*p+u-1] += complex(lambda*tr/float64(p), 0)
			b[u-1] = g[u*q]
		}
		if err := solveComplex(A, b, p); err != nil {
			continue // singular even with the ridge (lambda 0 and a degenerate mode): forecast 0
		}
		copy(m.Coef[cm*p:(cm+1)*p], b)
	}
	return m, nil
}

// solveComplex solves A x = b in place (x in b) by Gaussian elimination with partial pivoting.
func solveComplex(A, b []complex128, n int) error {
	for k := range n {
		piv := k
		for i := k + 1; i < n; i++ {
			if cmplx.Abs(A[i*n+k]) > cmplx.Abs(A[piv*n+k]) {
				piv = i
			}
		}
		if cmplx.Abs(A[piv*n+k]) < 1e-300 {
			return errors.New("singular")
		}
		if piv != k {
			for j := range n {
				A[k*n+j], A[piv*n+j] = A[piv*n+j], A[k*n+j]
			}
			b[k], b[piv] = b[piv], b[k]
		}
		for i := k + 1; i < n; i++ {
			r := A[i*n+k] / A[k*n+k]
			for j := k; j < n; j++ {
				A[i*n+j] -= r * A[k*n+j]
			}
			b[i] -= r * b[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= A[i*n+j] * b[j]
		}
		b[i] = s / A[i*n+i]
	}
	return nil
}

// FitFourierAR fits the Fourier AR of order p with relative ridge lambda on the training units
// (one-step least squares per channel and mode).
func FitFourierAR(train []eval.Unit, f data.Field, p int, lambda float64) (*FourierAR, error) {
	st, err := collectFourierStats(train, f, p)
	if err != nil {
		return nil, err
	}
	return st.fit(p, lambda)
}

// Forecast implements eval.Forecaster: the last P observed frames to Fourier space, H steps of
// every mode's recursion, each step back to the grid.
func (m *FourierAR) Forecast(w eval.Window, H int) ([][]float64, error) {
	if H < 1 {
		return nil, fmt.Errorf("baseline: Fourier AR: H=%d must be >= 1", H)
	}
	if len(w.History) < m.P {
		return nil, fmt.Errorf("baseline: Fourier AR: %d observed frames, order %d needs %d", len(w.History), m.P, m.P)
	}
	f := m.Field
	hw := f.Height * f.Width
	plan := fft2.New(f.Width, f.Height)
	// lags[j] is the spectrum j steps before the next one (0: the newest).
	lags := make([][]complex128, m.P)
	for j := range m.P {
		x := w.History[len(w.History)-1-j]
		if len(x) != f.Dim() {
			return nil, fmt.Errorf("baseline: Fourier AR: a state of %d coordinates, the field has %d", len(x), f.Dim())
		}
		lags[j] = spectra(plan, f, x)
	}
	out := make([][]float64, H)
	for h := range H {
		next := make([]complex128, f.Channels*hw)
		for cm := range next {
			var s complex128
			for j, a := range m.Coef[cm*m.P : (cm+1)*m.P] {
				s += a * lags[j][cm]
			}
			next[cm] = s
		}
		row := make([]float64, f.Dim())
		for c := range f.Channels {
			plan.Inverse(row[c*hw:(c+1)*hw], next[c*hw:(c+1)*hw])
		}
		out[h] = row
		copy(lags[1:], lags[:m.P-1])
		lags[0] = next
	}
	return out, nil
}

// ForecastBatch implements eval.BatchForecaster.
func (m *FourierAR) ForecastBatch(ws []eval.Window, H int) ([][][]float64, error) {
	return forecastEach(m, ws, H)
}

// FourierCandidate is one point of the validation grid with its eq. (8) validation score.
type FourierCandidate struct {
	P      int
	Lambda float64
	Val    float64
}

// FourierSelection is SelectFourierAR's choice and its grid.
type FourierSelection struct {
	Model      *FourierAR
	Val        eval.Result
	Candidates []FourierCandidate
}

// SelectFourierAR fits the Fourier AR on the training units for every order P of the grid that
// the history allows (P <= history) and every λ, and keeps the one with the lowest eq. (8)
// validation rel-L2 (history, H and maxOrigins as the test protocol).
func SelectFourierAR(train, val []eval.Unit, f data.Field, history, H, maxOrigins int, g FourierGrid) (*FourierSelection, error) {
	g = g.withDefaults()
	var orders []int
	for _, p := range g.Orders {
		if p >= 1 && p <= history {
			orders = append(orders, p)
		}
	}
	if len(orders) == 0 {
		return nil, fmt.Errorf("baseline: Fourier AR: no order of %v fits the history of %d frames", g.Orders, history)
	}
	st, err := collectFourierStats(train, f, slices.Max(orders))
	if err != nil {
		return nil, err
	}
	var sel *FourierSelection
	var cands []FourierCandidate
	for _, p := range orders {
		for _, l := range g.Lambdas {
			m, err := st.fit(p, l)
			if err != nil {
				return nil, err
			}
			r, err := eval.Evaluate(m, val, history, H, maxOrigins)
			if err != nil {
				return nil, fmt.Errorf("baseline: Fourier AR P=%d lambda=%g validation: %w", p, l, err)
			}
			cands = append(cands, FourierCandidate{P: p, Lambda: l, Val: r.RelL2})
			if sel == nil || r.RelL2 < sel.Val.RelL2 {
				sel = &FourierSelection{Model: m, Val: r}
			}
		}
	}
	sel.Candidates = cands
	return sel, nil
}

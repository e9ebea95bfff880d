package fields

import (
	"math"
	"math/rand/v2"
	"testing"
)

// xy returns the coordinates of grid point i.
func xy(i, nx, ny int, lx, ly float64) (x, y float64) {
	return float64(i%nx) * lx / float64(nx), float64(i/nx) * ly / float64(ny)
}

// smoothField is a random combination of low modes (|m| ≤ 3), seeded.
func smoothField(nx, ny int, lx, ly float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 9))
	f := make([]float64, nx*ny)
	for mx := -3; mx <= 3; mx++ {
		for my := -3; my <= 3; my++ {
			a, ph := rng.NormFloat64()/float64(1+mx*mx+my*my), 2*math.Pi*rng.Float64()
			for i := range f {
				x, y := xy(i, nx, ny, lx, ly)
				f[i] += a * math.Cos(2*math.Pi*(float64(mx)*x/lx+float64(my)*y/ly)+ph)
			}
		}
	}
	return f
}

// velocityFromStream returns (u, v) = (∂ψ/∂y, −∂ψ/∂x) of a random smooth ψ: divergence-free.
func velocityFromStream(nx, ny int, lx, ly float64, seed uint64) (u, v []float64) {
	g := newGrid(nx, ny, lx, ly)
	psi := smoothField(nx, ny, lx, ly, seed)
	ph, d := make([]complex128, nx*ny), make([]complex128, nx*ny)
	g.forward(ph, psi)
	u, v = make([]float64, nx*ny), make([]float64, nx*ny)
	g.dy(d, ph)
	g.inverse(u, d)
	g.dx(d, ph)
	g.inverse(v, d)
	for i := range v {
		v[i] = -v[i]
	}
	return u, v
}

// TestTaylorGreenDecay: ψ = sin x sin y is a steady solution of Euler's equations (u·∇ω = 0), so
// with viscosity ω decays as exp(−2νt) with its shape unchanged.
func TestTaylorGreenDecay(t *testing.T) {
	const n, nu, T = 32, 0.05, 2.0
	l := 2 * math.Pi
	u, v, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range u {
		x, y := xy(i, n, n, l, l)
		u[i], v[i] = math.Sin(x)*math.Cos(y), -math.Cos(x)*math.Sin(y)
	}
	f, err := NewFlow(FlowConfig{NX: n, NY: n, LX: l, LY: l, Re: 1 / nu, Sc: 1, DT: 0.01}, u, v, c)
	if err != nil {
		t.Fatal(err)
	}
	for range int(T / 0.01) {
		f.Step()
	}
	_, _, uT, vT := f.Fields()
	decay := math.Exp(-2 * nu * f.Time())
	worst := 0.0
	for i := range u {
		worst = max(worst, math.Abs(uT[i]-decay*u[i]), math.Abs(vT[i]-decay*v[i]))
	}
	if worst > 1e-12 {
		t.Errorf("t = %g: velocity differs from the analytic decay exp(-2νt) = %g by %g", f.Time(), decay, worst)
	}
}

// TestInviscidInvariants: without viscosity the de-aliased Galerkin system conserves energy and
// enstrophy; the time stepper's error is O(dt⁴). A sign error in either advection term breaks it.
func TestInviscidInvariants(t *testing.T) {
	const nx, ny = 32, 64
	lx, ly := 1.0, 2.0
	u, v := velocityFromStream(nx, ny, lx, ly, 1)
	normalize(u, v) // |u| at most 1: the stepper's error is then (|u| k_max dt)⁵ ≈ 1e-9 a step
	f, err := NewFlow(FlowConfig{NX: nx, NY: ny, LX: lx, LY: ly, Re: math.Inf(1), Sc: 1, DT: 1e-3}, u, v, make([]float64, nx*ny))
	if err != nil {
		t.Fatal(err)
	}
	e0, z0 := f.Energy()
	for range 300 {
		f.Step()
	}
	e1, z1 := f.Energy()
	if d := math.Abs(e1-e0) / e0; d > 1e-7 {
		t.Errorf("energy changed by %.3g (relative) over t = %g", d, f.Time())
	}
	if d := math.Abs(z1-z0) / z0; d > 1e-7 {
		t.Errorf("enstrophy changed by %.3g (relative) over t = %g", d, f.Time())
	}
	if z1 == z0 {
		t.Error("enstrophy unchanged to the bit: nothing was stepped")
	}
}

// TestMomentumEquation: the fields satisfy ∂u/∂t + u·∇u = −∇p + ν∇²u (both components), with
// ∂u/∂t from a central difference of two steps: this checks the pressure against the velocity.
func TestMomentumEquation(t *testing.T) {
	const nx, ny, dt = 32, 32, 1e-4
	lx, ly := 1.0, 1.0
	nu := 1e-2
	u, v := velocityFromStream(nx, ny, lx, ly, 2)
	f, err := NewFlow(FlowConfig{NX: nx, NY: ny, LX: lx, LY: ly, Re: 1 / nu, Sc: 1, DT: dt}, u, v, make([]float64, nx*ny))
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		f.Step()
	}
	_, _, um, vm := f.Fields()
	f.Step()
	_, p, u0, v0 := f.Fields()
	f.Step()
	_, _, up, vp := f.Fields()
	g := f.g
	n := nx * ny
	spec := func(a []float64) []complex128 { h := make([]complex128, n); g.forward(h, a); return h }
	deriv := func(h []complex128, dir int) []float64 {
		d, out := make([]complex128, n), make([]float64, n)
		if dir == 0 {
			g.dx(d, h)
		} else {
			g.dy(d, h)
		}
		g.inverse(out, d)
		return out
	}
	lap := func(h []complex128) []float64 {
		d, out := make([]complex128, n), make([]float64, n)
		for i := range h {
			d[i] = -complex(g.k2[i], 0) * h[i]
		}
		g.inverse(out, d)
		return out
	}
	uh, vh, phat := spec(u0), spec(v0), spec(p)
	ux, uy, vx, vy := deriv(uh, 0), deriv(uh, 1), deriv(vh, 0), deriv(vh, 1)
	px, py := deriv(phat, 0), deriv(phat, 1)
	lu, lv := lap(uh), lap(vh)
	worst, scale := 0.0, 0.0
	for i := range u0 {
		dudt, dvdt := (up[i]-um[i])/(2*dt), (vp[i]-vm[i])/(2*dt)
		ru := dudt + u0[i]*ux[i] + v0[i]*uy[i] + px[i] - nu*lu[i]
		rv := dvdt + u0[i]*vx[i] + v0[i]*vy[i] + py[i] - nu*lv[i]
		worst = max(worst, math.Abs(ru), math.Abs(rv))
		scale = max(scale, math.Abs(px[i]), math.Abs(py[i]), math.Abs(dudt))
		_ = vx
	}
	// The residual is the de-aliasing's truncation of u·∇u (the modes the 2/3 rule drops) plus
	// the O(dt²) difference: small against the terms themselves.
	if worst > 1e-3*scale {
		t.Errorf("momentum residual %.3g against terms of size %.3g", worst, scale)
	}
}

// TestDivergenceFreeAndTracerMass: the velocity stays divergence-free to round-off and the
// tracer's mean does not change, over a viscous shear-layer run.
func TestDivergenceFreeAndTracerMass(t *testing.T) {
	const nx, ny = 32, 64
	lx, ly := 1.0, 2.0
	u, v := velocityFromStream(nx, ny, lx, ly, 3)
	c := smoothField(nx, ny, lx, ly, 4)
	f, err := NewFlow(FlowConfig{NX: nx, NY: ny, LX: lx, LY: ly, Re: 500, Sc: 2, DT: 2e-3}, u, v, c)
	if err != nil {
		t.Fatal(err)
	}
	mean := func(a []float64) float64 {
		s := 0.0
		for _, x := range a {
			s += x
		}
		return s / float64(len(a))
	}
	m0 := mean(c)
	for range 100 {
		f.Step()
	}
	cT, _, uT, vT := f.Fields()
	if d := math.Abs(mean(cT) - m0); d > 1e-12 {
		t.Errorf("tracer mean moved by %g", d)
	}
	g := f.g
	n := nx * ny
	uh, vh, d1, d2 := make([]complex128, n), make([]complex128, n), make([]complex128, n), make([]complex128, n)
	g.forward(uh, uT)
	g.forward(vh, vT)
	g.dx(d1, uh)
	g.dy(d2, vh)
	div, umax := make([]float64, n), 0.0
	for i := range d1 {
		d1[i] += d2[i]
		umax = max(umax, math.Abs(uT[i]), math.Abs(vT[i]))
	}
	g.inverse(div, d1)
	worst := 0.0
	for _, x := range div {
		worst = max(worst, math.Abs(x))
	}
	if worst > 1e-10*umax*float64(nx) {
		t.Errorf("max |∇·u| = %g (|u| up to %g)", worst, umax)
	}
}

// normalize scales (u, v) so that the largest speed component is 1.
func normalize(u, v []float64) {
	m := 0.0
	for i := range u {
		m = max(m, math.Abs(u[i]), math.Abs(v[i]))
	}
	for i := range u {
		u[i] /= m
		v[i] /= m
	}
}

package fields

import (
	"fmt"
	"math"
	"math/cmplx"
)

// Flow is a two-dimensional periodic incompressible flow with a passive tracer (see the package
// documentation), advanced by Step.
type Flow struct {
	g        *grid
	nu, diff float64 // viscosity 1/Re and tracer diffusivity ν/Sc
	dt       float64
	u0, v0   float64 // the mean velocity (the k = 0 mode, which the vorticity does not carry)
	w, c     []complex128
	// integrating factors exp(−κk²·dt/2) and exp(−κk²·dt) for vorticity and tracer
	ewHalf, ewFull, ecHalf, ecFull []float64
	// work arrays
	tmp                    [8][]complex128
	ux, vy, wx, wy, cx, cy []float64
	pw, pc                 []float64 // the products −u·∇ω and −u·∇c on the grid
	k1w, k2w, k3w, k4w, qw []complex128
	k1c, k2c, k3c, k4c, qc []complex128
	time                   float64
}

// FlowConfig sets up a Flow.
type FlowConfig struct {
	NX, NY int     // grid points along x (periodic, the fast index) and y
	LX, LY float64 // domain size
	Re     float64 // Reynolds number: ν = 1/Re (math.Inf(1): inviscid)
	Sc     float64 // Schmidt number: the tracer diffuses at ν/Sc
	DT     float64 // time step
}

// Validate names the first invalid field.
func (c FlowConfig) Validate() error {
	switch {
	case c.NX < 4 || c.NY < 4:
		return fmt.Errorf("fields: grid %d x %d, need at least 4 x 4", c.NX, c.NY)
	case !(c.LX > 0) || !(c.LY > 0) || math.IsInf(c.LX, 0) || math.IsInf(c.LY, 0):
		return fmt.Errorf("fields: domain %g x %g must be finite and positive", c.LX, c.LY)
	case !(c.Re > 0):
		return fmt.Errorf("fields: Re = %g, must be > 0", c.Re)
	case !(c.Sc > 0) || math.IsInf(c.Sc, 0):
		return fmt.Errorf("fields: Sc = %g, must be finite and > 0", c.Sc)
	case !(c.DT > 0) || math.IsInf(c.DT, 0):
		return fmt.Errorf("fields: DT = %g, must be finite and > 0", c.DT)
	}
	return nil
}

// NewFlow starts a flow from the velocity (u, v) and tracer c on the grid (NY rows of NX values).
// The velocity is projected on the divergence-free fields through its vorticity; its mean is kept.
func NewFlow(cfg FlowConfig, u, v, c []float64) (*Flow, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := cfg.NX * cfg.NY
	for name, f := range map[string][]float64{"u": u, "v": v, "c": c} {
		if len(f) != n {
			return nil, fmt.Errorf("fields: NewFlow: %s has %d values, the grid %d", name, len(f), n)
		}
		for i, x := range f {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("fields: NewFlow: %s[%d] = %v", name, i, x)
			}
		}
	}
	g := newGrid(cfg.NX, cfg.NY, cfg.LX, cfg.LY)
	f := &Flow{g: g, nu: 1 / cfg.Re, dt: cfg.DT}
	f.diff = f.nu / cfg.Sc
	cs := func() []complex128 { return make([]complex128, n) }
	fs := func() []float64 { return make([]float64, n) }
	for i := range f.tmp {
		f.tmp[i] = cs()
	}
	f.w, f.c = cs(), cs()
	f.ux, f.vy, f.wx, f.wy, f.cx, f.cy = fs(), fs(), fs(), fs(), fs(), fs()
	f.pw, f.pc = fs(), fs()
	f.k1w, f.k2w, f.k3w, f.k4w, f.qw = cs(), cs(), cs(), cs(), cs()
	f.k1c, f.k2c, f.k3c, f.k4c, f.qc = cs(), cs(), cs(), cs(), cs()
	f.ewHalf, f.ewFull, f.ecHalf, f.ecFull = fs(), fs(), fs(), fs()
	for i, k2 := range g.k2 {
		f.ewHalf[i], f.ewFull[i] = math.Exp(-f.nu*k2*f.dt/2), math.Exp(-f.nu*k2*f.dt)
		f.ecHalf[i], f.ecFull[i] = math.Exp(-f.diff*k2*f.dt/2), math.Exp(-f.diff*k2*f.dt)
	}
	// ω = ∂v/∂x − ∂u/∂y, spectrally; the mean velocity from the k = 0 modes.
	uh, vh := f.tmp[0], f.tmp[1]
	g.forward(uh, u)
	g.forward(vh, v)
	f.u0, f.v0 = real(uh[0])/float64(n), real(vh[0])/float64(n)
	g.dx(f.tmp[2], vh)
	g.dy(f.tmp[3], uh)
	for i := range f.w {
		f.w[i] = f.tmp[2][i] - f.tmp[3][i]
	}
	g.forward(f.c, c)
	g.dealias(f.w)
	g.dealias(f.c)
	return f, nil
}

// Time is the flow's time.
func (f *Flow) Time() float64 { return f.time }

// velocity returns the spectra of u and v from the vorticity spectrum wh (the mean added).
func (f *Flow) velocity(uh, vh, wh []complex128) {
	g := f.g
	for iy := range g.ny {
		for ix := range g.nx {
			i := iy*g.nx + ix
			if g.k2[i] == 0 {
				uh[i], vh[i] = complex(f.u0*float64(g.nx*g.ny), 0), complex(f.v0*float64(g.nx*g.ny), 0)
				continue
			}
			psi := wh[i] / complex(g.k2[i], 0)  // ∇²ψ = −ω: ψ̂ = ω̂/|k|²
			uh[i] = complex(0, g.ky[iy]) * psi  // u = ∂ψ/∂y
			vh[i] = -complex(0, g.kx[ix]) * psi // v = −∂ψ/∂x
		}
	}
}

// nonlinear returns in nw, nc the de-aliased spectra of −u·∇ω and −u·∇c.
func (f *Flow) nonlinear(nw, nc, wh, ch []complex128) {
	g := f.g
	uh, vh, d := f.tmp[4], f.tmp[5], f.tmp[6]
	f.velocity(uh, vh, wh)
	g.inverse(f.ux, uh) // u
	g.inverse(f.vy, vh) // v
	g.dx(d, wh)
	g.inverse(f.wx, d)
	g.dy(d, wh)
	g.inverse(f.wy, d)
	g.dx(d, ch)
	g.inverse(f.cx, d)
	g.dy(d, ch)
	g.inverse(f.cy, d)
	pw, pc := f.pw, f.pc
	for i := range f.ux {
		pw[i] = -(f.ux[i]*f.wx[i] + f.vy[i]*f.wy[i])
		pc[i] = -(f.ux[i]*f.cx[i] + f.vy[i]*f.cy[i])
	}
	g.forward(nw, pw)
	g.forward(nc, pc)
	g.dealias(nw)
	g.dealias(nc)
}

// Step advances the flow by one time step (integrating-factor RK4: the diffusion is exact).
func (f *Flow) Step() {
	dt := complex(f.dt, 0)
	f.nonlinear(f.k1w, f.k1c, f.w, f.c)
	for i := range f.w {
		f.k1w[i] *= dt
		f.k1c[i] *= dt
		f.qw[i] = complex(f.ewHalf[i], 0) * (f.w[i] + f.k1w[i]/2)
		f.qc[i] = complex(f.ecHalf[i], 0) * (f.c[i] + f.k1c[i]/2)
	}
	f.nonlinear(f.k2w, f.k2c, f.qw, f.qc)
	for i := range f.w {
		f.k2w[i] *= dt
		f.k2c[i] *= dt
		f.qw[i] = complex(f.ewHalf[i], 0)*f.w[i] + f.k2w[i]/2
		f.qc[i] = complex(f.ecHalf[i], 0)*f.c[i] + f.k2c[i]/2
	}
	f.nonlinear(f.k3w, f.k3c, f.qw, f.qc)
	for i := range f.w {
		f.k3w[i] *= dt
		f.k3c[i] *= dt
		f.qw[i] = complex(f.ewFull[i], 0)*f.w[i] + complex(f.ewHalf[i], 0)*f.k3w[i]
		f.qc[i] = complex(f.ecFull[i], 0)*f.c[i] + complex(f.ecHalf[i], 0)*f.k3c[i]
	}
	f.nonlinear(f.k4w, f.k4c, f.qw, f.qc)
	for i := range f.w {
		ew, ewh := complex(f.ewFull[i], 0), complex(f.ewHalf[i], 0)
		ec, ech := complex(f.ecFull[i], 0), complex(f.ecHalf[i], 0)
		f.w[i] = ew*f.w[i] + (ew*f.k1w[i]+2*ewh*(f.k2w[i]+f.k3w[i])+f.k4w[i]*dt)/6
		f.c[i] = ec*f.c[i] + (ec*f.k1c[i]+2*ech*(f.k2c[i]+f.k3c[i])+f.k4c[i]*dt)/6
	}
	f.time += f.dt
}

// Fields returns the tracer c, the pressure p and the velocity (u, v) on the grid. The pressure
// solves ∇²p = −(u_x² + 2 u_y v_x + v_y²) with zero mean.
func (f *Flow) Fields() (c, p, u, v []float64) {
	g := f.g
	n := g.nx * g.ny
	c, p, u, v = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	uh, vh, d := f.tmp[4], f.tmp[5], f.tmp[6]
	f.velocity(uh, vh, f.w)
	g.inverse(u, uh)
	g.inverse(v, vh)
	g.inverse(c, f.c)
	ux, uy, vx, vy := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	g.dx(d, uh)
	g.inverse(ux, d)
	g.dy(d, uh)
	g.inverse(uy, d)
	g.dx(d, vh)
	g.inverse(vx, d)
	g.dy(d, vh)
	g.inverse(vy, d)
	src := make([]float64, n)
	for i := range src {
		src[i] = ux[i]*ux[i] + 2*uy[i]*vx[i] + vy[i]*vy[i]
	}
	ph := f.tmp[7]
	g.forward(ph, src)
	g.dealias(ph)
	for i := range ph {
		if g.k2[i] == 0 {
			ph[i] = 0
			continue
		}
		ph[i] /= complex(g.k2[i], 0) // −|k|² p̂ = −F[src]
	}
	g.inverse(p, ph)
	return c, p, u, v
}

// Energy returns the mean kinetic energy ½⟨u² + v²⟩ of the fluctuating velocity and the mean
// enstrophy ½⟨ω²⟩ (Parseval, from the spectrum).
func (f *Flow) Energy() (energy, enstrophy float64) {
	g := f.g
	n2 := float64(g.nx*g.ny) * float64(g.nx*g.ny)
	for i, w := range f.w {
		a := cmplx.Abs(w)
		enstrophy += a * a
		if g.k2[i] > 0 {
			energy += a * a / g.k2[i]
		}
	}
	return energy / (2 * n2), enstrophy / (2 * n2)
}

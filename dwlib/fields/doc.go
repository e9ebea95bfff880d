// Package fields generates spatial field testbeds: two-dimensional periodic flows computed
// pseudo-spectrally, the counterpart of the paper's shear-flow data (The Well's shear_flow:
// incompressible Navier–Stokes with a passive tracer, four channels tracer, pressure, u, v), which
// this project cannot download.
//
// The simulator works in vorticity form on a periodic Nx × Ny grid,
//
//	∂ω/∂t + u·∇ω = ν ∇²ω,   ∂c/∂t + u·∇c = (ν/Sc) ∇²c,   ∇²ψ = −ω,   (u, v) = (∂ψ/∂y, −∂ψ/∂x),
//
// with ν = 1/Re, the nonlinear terms evaluated on the grid from 2/3-de-aliased spectra, and an
// integrating-factor fourth-order Runge–Kutta step (diffusion integrated exactly). The pressure
// solves ∇²p = −(u_x² + 2 u_y v_x + v_y²), the divergence of the momentum equation.
package fields

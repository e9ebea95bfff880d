package model

import (
	"fmt"
	"math"
)

// plainParam is one variable of the plain-Go reference: its value and its gradient accumulator,
// both row-major in the variable's shape.
type plainParam[T real] struct{ val, grad []T }

// plainBlock is a Mamba block of the plain-Go reference step (see mambaBlock for the equations),
// with hand-written backpropagation through time. Its caches hold every step's intermediates
// and are allocated once, not at every benchmark iteration.
type plainBlock[T real] struct {
	N, H, E, S, R, W int

	norm, inX, inZ, convB, dt1, dt2, dt2b, projB, projC, aLog, d, out *plainParam[T]
	convW                                                             []*plainParam[T]

	a     []T // A = −exp(A_log), [E, S]
	dA    []T // ∂loss/∂A over all steps, [E, S]; turned into ∂/∂A_log at the end
	dH    []T // ∂loss/∂h at the step being back-propagated, [N, E, S]
	steps []plainBlockStep[T]

	// Scratch of one backward step.
	dyo, dy, dzg, dv, dDelta, dr1, dc, dnrm []T
	dBm, dCm                                []T
}

// plainBlockStep holds one step's intermediates of a block.
type plainBlockStep[T real] struct {
	x, rinv, nrm   []T // input [N, H], 1/RMS [N], normalised input [N, H]
	u, zg, c, v    []T // in-projections, convolution output, silu(c): [N, E]
	r1, pre, delta []T // low-rank Δ projection [N, R], Δ before and after softplus [N, E]
	bm, cm         []T // [N, S]
	decay, h       []T // exp(Δ⊗A) and the state after the step, [N, E, S]
	y, gate, yo    []T // y = h·C + D⊙v, silu(z), y⊙silu(z): [N, E]
	du             []T // ∂loss/∂u, accumulated by the convolutions of later steps
	out            []T // F, [N, H]
}

func newPlainBlock[T real](get func(scope, name string, dims ...int) *plainParam[T], layer int, c Config, n, steps int) *plainBlock[T] {
	e, s, w := c.Expand*c.Hidden, c.SSMState, c.ConvWidth
	rank := int(math.Ceil(float64(c.Hidden) / 16))
	sc := func(part string) string { return scopeOf(layer, part) }
	b := &plainBlock[T]{N: n, H: c.Hidden, E: e, S: s, R: rank, W: w,
		norm: get(sc("norm"), "g", c.Hidden), inX: get(sc("in_x"), "w", c.Hidden, e), inZ: get(sc("in_z"), "w", c.Hidden, e),
		convB: get(sc("conv"), "b", e), dt1: get(sc("dt1"), "w", e, rank), dt2: get(sc("dt2"), "w", rank, e),
		dt2b: get(sc("dt2"), "b", e), projB: get(sc("B"), "w", e, s), projC: get(sc("C"), "w", e, s),
		aLog: get(sc("ssm"), "A_log", e, s), d: get(sc("ssm"), "D", e), out: get(sc("out"), "w", e, c.Hidden),
	}
	for j := range w {
		b.convW = append(b.convW, get(sc("conv"), fmt.Sprintf("w%d", j), e))
	}
	mk := func(k int) []T { return make([]T, k) }
	b.a, b.dA, b.dH = mk(e*s), mk(e*s), mk(n*e*s)
	b.dyo, b.dy, b.dzg, b.dv, b.dDelta, b.dc, b.dnrm = mk(n*e), mk(n*e), mk(n*e), mk(n*e), mk(n*e), mk(n*e), mk(n*c.Hidden)
	b.dr1, b.dBm, b.dCm = mk(n*rank), mk(n*s), mk(n*s)
	for range steps {
		b.steps = append(b.steps, plainBlockStep[T]{
			x: mk(n * c.Hidden), rinv: mk(n), nrm: mk(n * c.Hidden),
			u: mk(n * e), zg: mk(n * e), c: mk(n * e), v: mk(n * e),
			r1: mk(n * rank), pre: mk(n * e), delta: mk(n * e), bm: mk(n * s), cm: mk(n * s),
			decay: mk(n * e * s), h: mk(n * e * s), y: mk(n * e), gate: mk(n * e), yo: mk(n * e),
			du: mk(n * e), out: mk(n * c.Hidden),
		})
	}
	return b
}

// begin prepares a new forward pass: A from A_log.
func (b *plainBlock[T]) begin() {
	for i, l := range b.aLog.val {
		b.a[i] = T(-math.Exp(float64(l)))
	}
}

// forward runs step t on x [N, H] and returns F [N, H] (a cache slice).
func (b *plainBlock[T]) forward(t int, x []T) []T {
	N, H, E, S, R := b.N, b.H, b.E, b.S, b.R
	st := &b.steps[t]
	copy(st.x, x)
	for n := range N {
		ms := T(0)
		for _, xi := range x[n*H : (n+1)*H] {
			ms += xi * xi
		}
		r := T(1 / math.Sqrt(float64(ms/T(H))+1e-6))
		st.rinv[n] = r
		for i := range H {
			st.nrm[n*H+i] = x[n*H+i] * r * b.norm.val[i]
		}
	}
	matMul(st.u, st.nrm, b.inX.val, nil, N, H, E)
	matMul(st.zg, st.nrm, b.inZ.val, nil, N, H, E)
	for n := range N {
		for e := range E {
			c := b.convB.val[e]
			for j := range b.W {
				if src := t - b.W + 1 + j; src >= 0 {
					c += b.convW[j].val[e] * b.steps[src].u[n*E+e]
				}
			}
			st.c[n*E+e] = c
			st.v[n*E+e] = c * sigmoid(c)
		}
	}
	matMul(st.r1, st.v, b.dt1.val, nil, N, E, R)
	matMul(st.pre, st.r1, b.dt2.val, b.dt2b.val, N, R, E)
	for i, p := range st.pre {
		st.delta[i] = softplusT(p)
	}
	matMul(st.bm, st.v, b.projB.val, nil, N, E, S)
	matMul(st.cm, st.v, b.projC.val, nil, N, E, S)
	var prev []T
	if t > 0 {
		prev = b.steps[t-1].h
	}
	for n := range N {
		bm, cm := st.bm[n*S:(n+1)*S], st.cm[n*S:(n+1)*S]
		for e := range E {
			i := n*E + e
			dl, dv := st.delta[i], st.delta[i]*st.v[i]
			a := b.a[e*S : (e+1)*S]
			dec, h := st.decay[i*S:(i+1)*S], st.h[i*S:(i+1)*S]
			y := T(0)
			for s := range S {
				dec[s] = T(math.Exp(float64(dl * a[s])))
				hs := dv * bm[s]
				if prev != nil {
					hs += dec[s] * prev[i*S+s]
				}
				h[s] = hs
				y += hs * cm[s]
			}
			y += b.d.val[e] * st.v[i]
			st.y[i] = y
			z := st.zg[i]
			st.gate[i] = z * sigmoid(z)
			st.yo[i] = y * st.gate[i]
		}
	}
	matMul(st.out, st.yo, b.out.val, nil, N, E, H)
	return st.out
}

// beginBackward clears the recurrent gradients before back-propagating from the last step.
func (b *plainBlock[T]) beginBackward() {
	clear(b.dH)
	clear(b.dA)
	for i := range b.steps {
		clear(b.steps[i].du)
	}
}

// backward back-propagates step t (later steps must be done) given dF = ∂loss/∂F_t [N, H],
// accumulates the parameter gradients and adds ∂loss/∂x_t to dx.
func (b *plainBlock[T]) backward(t int, dF, dx []T) {
	N, H, E, S, R := b.N, b.H, b.E, b.S, b.R
	st := &b.steps[t]
	matMulTA(b.out.grad, st.yo, dF, N, E, H)
	clear(b.dyo)
	matMulTB(b.dyo, dF, b.out.val, N, E, H)
	for i := range N * E {
		e := i % E
		dy := b.dyo[i] * st.gate[i]
		b.dy[i] = dy
		b.dzg[i] = b.dyo[i] * st.y[i] * siluGrad(st.zg[i])
		b.d.grad[e] += dy * st.v[i]
		b.dv[i] = dy * b.d.val[e]
	}
	// The selective SSM, back through h_t = decay ⊙ h_{t−1} + (Δ⊙v) ⊗ B and y = h_t·C.
	clear(b.dBm)
	clear(b.dCm)
	var prev []T
	if t > 0 {
		prev = b.steps[t-1].h
	}
	for n := range N {
		bm, cm := st.bm[n*S:(n+1)*S], st.cm[n*S:(n+1)*S]
		dBm, dCm := b.dBm[n*S:(n+1)*S], b.dCm[n*S:(n+1)*S]
		for e := range E {
			i := n*E + e
			dy, dl, v := b.dy[i], st.delta[i], st.v[i]
			a, dA := b.a[e*S:(e+1)*S], b.dA[e*S:(e+1)*S]
			dec, h, dH := st.decay[i*S:(i+1)*S], st.h[i*S:(i+1)*S], b.dH[i*S:(i+1)*S]
			var dDelta, dvIn T
			for s := range S {
				dh := dH[s] + dy*cm[s]
				dCm[s] += dy * h[s]
				if prev != nil {
					g := dh * prev[i*S+s] * dec[s] // ∂loss/∂(Δ·A) at (n, e, s)
					dDelta += g * a[s]
					dA[s] += g * dl
				}
				dH[s] = dh * dec[s]
				dDelta += dh * v * bm[s]
				dvIn += dh * dl * bm[s]
				dBm[s] += dh * dl * v
			}
			b.dv[i] += dvIn
			b.dDelta[i] = dDelta * sigmoid(st.pre[i]) // through softplus
		}
	}
	colSum(b.dt2b.grad, b.dDelta, N, E)
	matMulTA(b.dt2.grad, st.r1, b.dDelta, N, R, E)
	clear(b.dr1)
	matMulTB(b.dr1, b.dDelta, b.dt2.val, N, R, E)
	matMulTA(b.dt1.grad, st.v, b.dr1, N, E, R)
	matMulTB(b.dv, b.dr1, b.dt1.val, N, E, R)
	matMulTA(b.projB.grad, st.v, b.dBm, N, E, S)
	matMulTB(b.dv, b.dBm, b.projB.val, N, E, S)
	matMulTA(b.projC.grad, st.v, b.dCm, N, E, S)
	matMulTB(b.dv, b.dCm, b.projC.val, N, E, S)
	for i := range N * E {
		b.dc[i] = b.dv[i] * siluGrad(st.c[i])
	}
	colSum(b.convB.grad, b.dc, N, E)
	for j := range b.W {
		src := t - b.W + 1 + j
		if src < 0 {
			continue
		}
		u, du, w, dw := b.steps[src].u, b.steps[src].du, b.convW[j].val, b.convW[j].grad
		for i := range N * E {
			e := i % E
			dw[e] += b.dc[i] * u[i]
			du[i] += b.dc[i] * w[e]
		}
	}
	// In-projections and the RMSNorm.
	matMulTA(b.inX.grad, st.nrm, st.du, N, H, E)
	matMulTA(b.inZ.grad, st.nrm, b.dzg, N, H, E)
	clear(b.dnrm)
	matMulTB(b.dnrm, st.du, b.inX.val, N, H, E)
	matMulTB(b.dnrm, b.dzg, b.inZ.val, N, H, E)
	for n := range N {
		r := st.rinv[n]
		x, dn := st.x[n*H:(n+1)*H], b.dnrm[n*H:(n+1)*H]
		dot := T(0)
		for i := range H {
			xh := x[i] * r
			b.norm.grad[i] += dn[i] * xh
			dot += dn[i] * b.norm.val[i] * xh
		}
		dot /= T(H)
		for i := range H {
			xh := x[i] * r
			dx[n*H+i] += r * (dn[i]*b.norm.val[i] - xh*dot)
		}
	}
}

// endBackward turns ∂loss/∂A into ∂loss/∂A_log (A = −exp(A_log), so ∂A/∂A_log = A).
func (b *plainBlock[T]) endBackward() {
	for i, g := range b.dA {
		b.aLog.grad[i] += g * b.a[i]
	}
}

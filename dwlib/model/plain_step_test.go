package model

import (
	"fmt"
	"math"
	"slices"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/tensors"
)

// plainStep is a plain-Go implementation of one Full-BPTT training step of a Mamba forecaster in
// the default architecture (RMSNorm blocks, linear read-in, SiLU read-out, no drive): the
// teacher-forced window, the K-step closed-loop rollout, the task loss (relative L2, as
// dwlib/train) and the gradient of every parameter by hand-written backpropagation through time.
// It is the yardstick the GoMLX step is benchmarked against (issue 10: how far is the graph from
// what plain loops do?), and TestPlainStepMatchesGraph keeps it honest.
type plainStep[T real] struct {
	N, D, H, window, K int

	params                                   map[string]*plainParam[T] // by variable path
	readInW, readInB, ro1W, ro1B, ro2W, ro2B *plainParam[T]
	blocks                                   []*plainBlock[T]

	// Per rollout step k: the input state, the last residual stream, the read-out's hidden
	// pre-activation and the prediction.
	xs, zs, a1s, preds [][]T
	z, dz, dx, da1     []T // scratch
}

// newPlainStep reads the parameters of f (whose DType must be T's) for batches of n.
func newPlainStep[T real](f *Forecaster, n, K int) (*plainStep[T], error) {
	c := f.Config()
	if c.Kind != "mamba" || c.DriveDim != 0 || c.Norm != NormRMS || c.Stem != StemLinear || c.Head != HeadSiLU {
		return nil, fmt.Errorf("plainStep: only the default Mamba architecture without drive, got %+v", c)
	}
	var zero T
	want := dtypes.Float32
	if _, ok := any(zero).(float64); ok {
		want = dtypes.Float64
	}
	if c.DType != want {
		return nil, fmt.Errorf("plainStep: forecaster is %s, reference is %s", c.DType, want)
	}
	p := &plainStep[T]{N: n, D: c.StateDim, H: c.Hidden, window: c.Window, K: K, params: map[string]*plainParam[T]{}}
	var err error
	get := func(scope, name string, dims ...int) *plainParam[T] {
		path := ModelScope + "/" + scope + "/" + name
		v := f.Store().GetVariable(path)
		if v == nil {
			err = fmt.Errorf("plainStep: no variable %s", path)
			return &plainParam[T]{val: make([]T, prod(dims)), grad: make([]T, prod(dims))}
		}
		if got := v.Shape().Dimensions; !slices.Equal(got, dims) && err == nil {
			err = fmt.Errorf("plainStep: %s has dimensions %v, want %v", path, got, dims)
		}
		val := tensors.MustCopyFlatData[T](v.MustValue())
		pp := &plainParam[T]{val: val, grad: make([]T, len(val))}
		p.params[path] = pp
		return pp
	}
	H, D := c.Hidden, c.StateDim
	p.readInW, p.readInB = get("read_in", "w", D, H), get("read_in", "b", H)
	steps := c.Window - 1 + K
	for l := range c.Layers {
		p.blocks = append(p.blocks, newPlainBlock(get, l, c, n, steps))
	}
	p.ro1W, p.ro1B = get("read_out1", "w", H, H), get("read_out1", "b", H)
	p.ro2W, p.ro2B = get("read_out2", "w", H, D), get("read_out2", "b", D)
	mk := func(k int) []T { return make([]T, k) }
	for range K {
		p.xs, p.zs, p.a1s, p.preds = append(p.xs, mk(n*D)), append(p.zs, mk(n*H)), append(p.a1s, mk(n*H)), append(p.preds, mk(n*D))
	}
	p.z, p.dz, p.dx, p.da1 = mk(n*H), mk(n*H), mk(n*D), mk(n*H)
	return p, err
}

// lossAndGradients runs the step on hist [N, Window, D] and target [N, K, D] and returns the loss;
// the gradients are left in params[path].grad.
func (p *plainStep[T]) lossAndGradients(hist, target []T) T {
	N, D, H, W, K := p.N, p.D, p.H, p.window, p.K
	for _, b := range p.blocks {
		b.begin()
	}
	// Forward: window−1 teacher-forced steps, then K closed-loop steps.
	for t := range W - 1 + K {
		k := t - (W - 1)
		x := make([]T, 0, N*D)
		switch {
		case k < 0:
			x = p.histAt(hist, t, x)
		case k == 0:
			x = p.histAt(hist, W-1, x)
		default:
			x = append(x, p.preds[k-1]...)
		}
		matMul(p.z, x, p.readInW.val, p.readInB.val, N, D, H)
		for _, b := range p.blocks {
			for i, f := range b.forward(t, p.z) {
				p.z[i] += f
			}
		}
		if k < 0 {
			continue
		}
		copy(p.xs[k], x)
		copy(p.zs[k], p.z)
		matMul(p.a1s[k], p.z, p.ro1W.val, p.ro1B.val, N, H, H)
		s1 := mapT(p.a1s[k], func(a T) T { return a * sigmoid(a) })
		matMul(p.preds[k], s1, p.ro2W.val, p.ro2B.val, N, H, D)
		for i := range p.preds[k] {
			p.preds[k][i] += x[i]
		}
	}
	loss, dPreds := p.relL2(target)

	// Backward.
	for _, pp := range p.params {
		clear(pp.grad)
	}
	for _, b := range p.blocks {
		b.beginBackward()
	}
	var dNext []T // ∂loss/∂(input of step t+1), which is the prediction of step t
	for t := W - 2 + K; t >= 0; t-- {
		k := t - (W - 1)
		clear(p.dz)
		if k >= 0 {
			dp := dPreds[k]
			if dNext != nil {
				for i := range dp {
					dp[i] += dNext[i]
				}
			}
			copy(p.dx, dp) // the outer update x + Δ
			colSum(p.ro2B.grad, dp, N, D)
			s1 := mapT(p.a1s[k], func(a T) T { return a * sigmoid(a) })
			matMulTA(p.ro2W.grad, s1, dp, N, H, D)
			clear(p.da1)
			matMulTB(p.da1, dp, p.ro2W.val, N, H, D)
			for i, a := range p.a1s[k] {
				p.da1[i] *= siluGrad(a)
			}
			colSum(p.ro1B.grad, p.da1, N, H)
			matMulTA(p.ro1W.grad, p.zs[k], p.da1, N, H, H)
			matMulTB(p.dz, p.da1, p.ro1W.val, N, H, H)
		}
		for l := len(p.blocks) - 1; l >= 0; l-- {
			dF := slices.Clone(p.dz) // z_{l+1} = z_l + F_l: F_l and z_l both get ∂loss/∂z_{l+1}
			p.blocks[l].backward(t, dF, p.dz)
		}
		colSum(p.readInB.grad, p.dz, N, H)
		var x []T
		if k >= 0 {
			x = p.xs[k]
		} else {
			x = p.histAt(hist, t, nil)
		}
		matMulTA(p.readInW.grad, x, p.dz, N, D, H)
		if k > 0 {
			dNext = make([]T, N*D)
			matMulTB(dNext, p.dz, p.readInW.val, N, D, H)
			for i := range dNext {
				dNext[i] += p.dx[i]
			}
		}
	}
	for _, b := range p.blocks {
		b.endBackward()
	}
	return loss
}

// histAt appends the observed states hist[:, t, :] to x.
func (p *plainStep[T]) histAt(hist []T, t int, x []T) []T {
	for n := range p.N {
		off := (n*p.window + t) * p.D
		x = append(x, hist[off:off+p.D]...)
	}
	return x
}

// relL2 is dwlib/train's task loss, mean_{n,k} ‖x̂ − x*‖ / max(‖x*‖, 1e-8), with its gradient
// with respect to every prediction.
func (p *plainStep[T]) relL2(target []T) (T, [][]T) {
	N, D, K := p.N, p.D, p.K
	loss := 0.0
	grads := make([][]T, K)
	scale := 1 / float64(N*K)
	for k := range K {
		grads[k] = make([]T, N*D)
		for n := range N {
			num, den := 1e-12, 0.0
			for d := range D {
				e := float64(p.preds[k][n*D+d] - target[(n*K+k)*D+d])
				tg := float64(target[(n*K+k)*D+d])
				num += e * e
				den += tg * tg
			}
			num, den = math.Sqrt(num), math.Max(math.Sqrt(den), 1e-8)
			loss += num / den * scale
			for d := range D {
				e := float64(p.preds[k][n*D+d] - target[(n*K+k)*D+d])
				grads[k][n*D+d] = T(e / (num * den) * scale)
			}
		}
	}
	return T(loss), grads
}

func mapT[T real](x []T, f func(T) T) []T {
	y := make([]T, len(x))
	for i, v := range x {
		y[i] = f(v)
	}
	return y
}

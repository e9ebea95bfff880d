package model

import "math"

// This file holds the plain loops the plain-Go reference step (plain_step_test.go) is made of:
// row-major matrix products and the scalar activations with their derivatives. They are written
// for clarity first and speed second (loop orders that stream rows, no SIMD, no goroutines), so
// the reference measures what straightforward Go achieves on the step.

// real is the float type of the plain-Go reference: float32 for the benchmark, float64 for the
// exactness check against the GoMLX graph.
type real interface{ float32 | float64 }

// matMul sets out[M, N] = a[M, K]·b[K, N] (+ bias[N] when not nil).
func matMul[T real](out, a, b, bias []T, M, K, N int) {
	for i := range M {
		row := out[i*N : (i+1)*N]
		if bias != nil {
			copy(row, bias)
		} else {
			clear(row)
		}
		for k := range K {
			aik := a[i*K+k]
			bk := b[k*N : (k+1)*N]
			for j, bkj := range bk {
				row[j] += aik * bkj
			}
		}
	}
}

// matMulTA adds aᵀ·d to out[K, N] for a[M, K] and d[M, N]: the weight gradient of a dense layer.
func matMulTA[T real](out, a, d []T, M, K, N int) {
	for i := range M {
		di := d[i*N : (i+1)*N]
		for k := range K {
			aik := a[i*K+k]
			ok := out[k*N : (k+1)*N]
			for j, dij := range di {
				ok[j] += aik * dij
			}
		}
	}
}

// matMulTB adds d·bᵀ to out[M, K] for d[M, N] and b[K, N]: the input gradient of a dense layer.
func matMulTB[T real](out, d, b []T, M, K, N int) {
	for i := range M {
		di := d[i*N : (i+1)*N]
		oi := out[i*K : (i+1)*K]
		for k := range K {
			bk := b[k*N : (k+1)*N]
			var s T
			for j, dij := range di {
				s += dij * bk[j]
			}
			oi[k] += s
		}
	}
}

// colSum adds the column sums of d[M, N] to out[N]: the bias gradient of a dense layer.
func colSum[T real](out, d []T, M, N int) {
	for i := range M {
		for j, v := range d[i*N : (i+1)*N] {
			out[j] += v
		}
	}
}

func sigmoid[T real](x T) T { return T(1 / (1 + math.Exp(-float64(x)))) }

// siluGrad is d/dx x·σ(x) = σ(x)·(1 + x·(1 − σ(x))).
func siluGrad[T real](x T) T {
	s := sigmoid(x)
	return s * (1 + x*(1-s))
}

// softplusT is max(x, 0) + log1p(e^{−|x|}), the graph's overflow-free form.
func softplusT[T real](x T) T {
	f := float64(x)
	return T(math.Max(f, 0) + math.Log1p(math.Exp(-math.Abs(f))))
}

package data

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// leastSquares solves min ||Z b - y|| for each column of Y (rows of Z are
// regressors), returning B (p×q) and the residual variance per column.
func leastSquares(Z, Y [][]float64) (B [][]float64, resVar []float64) {
	n, p, q := len(Z), len(Z[0]), len(Y[0])
	zm := mat.NewDense(n, p, nil)
	ym := mat.NewDense(n, q, nil)
	for i := range n {
		zm.SetRow(i, Z[i])
		ym.SetRow(i, Y[i])
	}
	var b mat.Dense
	if err := b.Solve(zm, ym); err != nil {
		panic(err)
	}
	var fit mat.Dense
	fit.Mul(zm, &b)
	resVar = make([]float64, q)
	for i := range n {
		for j := range q {
			r := ym.At(i, j) - fit.At(i, j)
			resVar[j] += r * r
		}
	}
	for j := range resVar {
		resVar[j] /= float64(n)
	}
	B = make([][]float64, p)
	for i := range p {
		B[i] = mat.Row(nil, i, &b)
	}
	return B, resVar
}

// relFrob is ||a-b||_F / ||b||_F.
func relFrob(a, b []float64) float64 {
	num, den := 0.0, 0.0
	for i := range a {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	return math.Sqrt(num / den)
}

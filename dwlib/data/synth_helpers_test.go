package data

import (
	"math"
	"testing"

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

// addOuter adds e eᵀ (row-major) to acc, one residual trajectory's share of an empirical
// covariance.
func addOuter(acc, e []float64) {
	n := len(e)
	for a := range n {
		for b := range n {
			acc[a*n+b] += e[a] * e[b]
		}
	}
}

// checkOracleCov divides the summed outer products of count oracle residuals and holds them
// against the model's TrueResidualCov to relative Frobenius error tol.
func checkOracleCov(t *testing.T, emp []float64, count int, m interface {
	TrueResidualCov(K int, scale []float64) ([]float64, error)
}, K int, tol float64) {
	t.Helper()
	for i := range emp {
		emp[i] /= float64(count)
	}
	want, err := m.TrueResidualCov(K, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := relFrob(emp, want); r > tol {
		t.Errorf("oracle residual covariance vs TrueResidualCov: relative Frobenius error %.3f (at most %.2f)", r, tol)
	}
}

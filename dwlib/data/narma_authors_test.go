package data

import (
	"math"
	"testing"
)

// TestNARMAAuthorsLayout transcribes the release's index layout directly:
// T = n + B + L + 1 values, y_0..y_L = 0, y_{t+1} from the recursion for
// t = L..T-2, and the window [B+L+1, B+L+1+n) of both y and u. Its u_0 is
// poisoned with NaN to show it is never read; u_1.. are this package's
// input stream. The authors' generator must reproduce the window, and it
// must equal the project's generator with narmaOrder more burn-in steps.
func TestNARMAAuthorsLayout(t *testing.T) {
	c := smallNARMA()
	c.Generator = GeneratorAuthors
	got, err := GenerateNARMA5(c)
	if err != nil {
		t.Fatal(err)
	}
	const L = 5
	B, n := c.BurnIn, c.Length
	T := n + B + L + 1
	maxErr := 0.0
	for i := range c.NumTraj {
		for ch := range c.Channels {
			rng := newStream(c.Seed, purposeNARMAInput, i, ch)
			u := make([]float64, T)
			u[0] = math.NaN()
			for k := 1; k < T; k++ {
				u[k] = c.InputHigh * rng.Float64()
			}
			y := make([]float64, T)
			for k := L; k < T-1; k++ {
				sum := 0.0
				for j := k - L + 1; j <= k; j++ {
					sum += y[j]
				}
				y[k+1] = math.Tanh(.3*y[k] + .05*y[k]*sum + 1.5*u[k-L+1]*u[k] + .1)
			}
			for k := range n {
				if got[i].Drive[k][ch] != u[B+L+1+k] {
					t.Fatalf("traj %d ch %d: u[%d] = %v, release layout %v", i, ch, k, got[i].Drive[k][ch], u[B+L+1+k])
				}
				maxErr = max(maxErr, math.Abs(got[i].X[k][ch]-y[B+L+1+k]))
			}
		}
	}
	t.Logf("max |y - release layout| = %.3g", maxErr)
	if !(maxErr <= 1e-14) { // summation order only
		t.Errorf("authors' NARMA differs from the release layout by %g", maxErr)
	}

	p := c
	p.Generator, p.BurnIn = GeneratorProject, c.BurnIn+authorsNARMAExtraBurnIn
	proj, _ := GenerateNARMA5(p)
	same, _ := GenerateNARMA5(smallNARMA())
	for i := range got {
		if !rowsEqual(got[i].X, proj[i].X) || !rowsEqual(got[i].Drive, proj[i].Drive) {
			t.Fatalf("traj %d: authors' layout is not the project's with BurnIn+%d", i, authorsNARMAExtraBurnIn)
		}
		if rowsEqual(got[i].X, same[i].X) {
			t.Fatalf("traj %d: authors' and project's windows coincide", i)
		}
	}
}

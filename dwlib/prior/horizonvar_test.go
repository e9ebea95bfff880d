package prior

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestHorizonVarianceIsCovarianceDiagonal holds HorizonVariance against the
// diagonal of Covariance, averaged by hand per horizon, on random banks.
func TestHorizonVarianceIsCovarianceDiagonal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ K, D, N int }{{1, 1, 2}, {3, 2, 5}, {4, 3, 17}} {
		rows := make([][]float64, tc.N)
		for i := range rows {
			rows[i] = make([]float64, tc.K*tc.D)
			for j := range rows[i] {
				rows[i][j] = rng.NormFloat64() * float64(1+j/tc.D) // variance grows with k
			}
		}
		b, err := NewBank(tc.K, tc.D, rows)
		if err != nil {
			t.Fatal(err)
		}
		n := tc.K * tc.D
		cov := b.Covariance()
		got := b.HorizonVariance()
		for k := range tc.K {
			want := 0.0
			for d := range tc.D {
				j := k*tc.D + d
				want += cov[j*n+j]
			}
			want /= float64(tc.D)
			if math.Abs(got[k]-want) > 1e-12*(1+want) {
				t.Errorf("K=%d D=%d N=%d: horizon %d variance %v, covariance diagonal gives %v", tc.K, tc.D, tc.N, k+1, got[k], want)
			}
		}
	}
}

// TestHorizonVarianceHandWorked: two rows ±1 at horizon 1 and ±3 at horizon 2
// (D = 1) have variances 1 and 9 about their zero mean.
func TestHorizonVarianceHandWorked(t *testing.T) {
	b, err := NewBank(2, 1, [][]float64{{1, 3}, {-1, -3}})
	if err != nil {
		t.Fatal(err)
	}
	got := b.HorizonVariance()
	if got[0] != 1 || got[1] != 9 {
		t.Fatalf("HorizonVariance = %v, want [1 9]", got)
	}
}

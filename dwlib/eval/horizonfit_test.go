package eval

import (
	"math"
	"testing"
)

func TestFitHorizonCurve(t *testing.T) {
	tests := []struct {
		name        string
		Ks, ys      []float64
		A, B, C     float64
		constrained bool
		kStar       float64
		yStar       float64
		vertex      bool
	}{
		{
			// y = 2(K-10)^2 + 1 = 2K^2 - 40K + 201, sampled exactly:
			// recovered exactly, optimum at the interior vertex K* = 10.
			name: "exact quadratic, interior vertex",
			Ks:   []float64{4, 8, 12, 16, 24, 32},
			ys:   []float64{73, 9, 9, 73, 393, 969},
			A:    2, B: -40, C: 201, kStar: 10, yStar: 1, vertex: true,
		},
		{
			// Concave y = -(K-3)^2 + 4 at K = 1..4 gives (0, 3, 4, 3). The
			// unconstrained fit is exact with a = -1 < 0, so the constrained
			// optimum is the least-squares line: Kbar = ybar = 2.5,
			// Sxy = Sxx = 5, slope 1, intercept 0, i.e. y = K. It increases,
			// so K* is the left endpoint 1 with fitted value 1.
			name: "concave input falls back to line",
			Ks:   []float64{1, 2, 3, 4},
			ys:   []float64{0, 3, 4, 3},
			A:    0, B: 1, C: 0, constrained: true, kStar: 1, yStar: 1,
		},
		{
			// Upward parabola (K-20)^2 with its vertex right of [2, 8]: the
			// fit is exact and decreasing on the range, so K* = KMax = 8.
			name: "vertex beyond range, optimum at right endpoint",
			Ks:   []float64{2, 4, 6, 8},
			ys:   []float64{324, 256, 196, 144},
			A:    1, B: -40, C: 400, kStar: 8, yStar: 144,
		},
		{
			// (K+1)^2 with vertex left of [0, 3]: K* = KMin = 0.
			name: "vertex before range, optimum at left endpoint",
			Ks:   []float64{0, 1, 2, 3},
			ys:   []float64{1, 4, 9, 16},
			A:    1, B: 2, C: 1, kStar: 0, yStar: 1,
		},
		{
			// Concave and decreasing: -K^2 at 1..3 = (-1, -4, -9); line
			// slope -4, intercept ybar - slope*Kbar = -14/3 + 8 = 10/3.
			// Optimum at the right endpoint 3: 10/3 - 12 = -26/3.
			name: "concave decreasing, line optimum at right endpoint",
			Ks:   []float64{1, 2, 3},
			ys:   []float64{-1, -4, -9},
			A:    0, B: -4, C: 10.0 / 3, constrained: true, kStar: 3, yStar: -26.0 / 3,
		},
		{
			// Flat data: a = b = 0, a tie between endpoints picks KMin.
			name: "flat tie picks shorter horizon",
			Ks:   []float64{8, 16, 32},
			ys:   []float64{0.5, 0.5, 0.5},
			A:    0, B: 0, C: 0.5, kStar: 8, yStar: 0.5,
		},
		{
			// Two seeds with symmetric perturbations ±0.1 of
			// 0.01(K-12)^2 + 0.9 on the same grid: the pooled fit equals
			// the fit to the means, i.e. the noise-free curve.
			// Unsorted input order must not matter.
			name: "pooled seeds equal fit to means",
			Ks:   []float64{24, 4, 8, 16, 4, 8, 16, 24},
			ys:   []float64{2.44, 1.64, 0.96, 0.96, 1.44, 1.16, 1.16, 2.24},
			A:    0.01, B: -0.24, C: 2.34, kStar: 12, yStar: 0.9, vertex: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FitHorizonCurve(tc.Ks, tc.ys)
			if err != nil {
				t.Fatal(err)
			}
			const tol = 1e-9
			checkClose(t, "A", f.A, tc.A, tol)
			checkClose(t, "B", f.B, tc.B, tol)
			checkClose(t, "C", f.C, tc.C, tol)
			checkClose(t, "KStar", f.KStar, tc.kStar, tol)
			checkClose(t, "YStar", f.YStar, tc.yStar, tol)
			if f.Constrained != tc.constrained {
				t.Errorf("Constrained = %v, want %v", f.Constrained, tc.constrained)
			}
			if f.Vertex != tc.vertex {
				t.Errorf("Vertex = %v, want %v", f.Vertex, tc.vertex)
			}
			if f.A < 0 {
				t.Errorf("negative curvature A = %v", f.A)
			}
			// Eval agrees with the reported coefficients.
			for _, k := range tc.Ks {
				checkClose(t, "Eval vs A,B,C", f.Eval(k), f.A*k*k+f.B*k+f.C, 1e-9)
			}
		})
	}
}

// TestFitHorizonCurveConstrainedIsOptimal checks the a >= 0 projection
// argument numerically: on concave data no line nearby, and no small
// positive curvature, has a smaller residual than the returned fit.
func TestFitHorizonCurveConstrainedIsOptimal(t *testing.T) {
	Ks := []float64{4, 8, 16, 24, 32, 48}
	ys := []float64{1.2, 0.9, 0.7, 0.72, 0.8, 1.4}
	for i := range ys {
		ys[i] -= 0.002 * Ks[i] * Ks[i] // make it concave overall
	}
	f, err := FitHorizonCurve(Ks, ys)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Constrained {
		t.Fatalf("expected a concave unconstrained fit; got A=%v", f.A)
	}
	rss := func(a, b, c float64) float64 {
		s := 0.0
		for i, k := range Ks {
			r := ys[i] - (a*k*k + b*k + c)
			s += r * r
		}
		return s
	}
	best := rss(f.A, f.B, f.C)
	for _, da := range []float64{0, 1e-4, 1e-3} {
		for _, db := range []float64{-1e-3, 0, 1e-3} {
			for _, dc := range []float64{-1e-2, 0, 1e-2} {
				if da == 0 && db == 0 && dc == 0 {
					continue
				}
				if r := rss(f.A+da, f.B+db, f.C+dc); r < best-1e-12 {
					t.Errorf("feasible perturbation (%g, %g, %g) improves RSS: %v < %v", da, db, dc, r, best)
				}
			}
		}
	}
}

func TestFitHorizonCurveErrors(t *testing.T) {
	tests := []struct {
		name   string
		Ks, ys []float64
		parts  []string
	}{
		{"length mismatch", []float64{1, 2, 3}, []float64{1, 2}, []string{"len(Ks)=3", "len(ys)=2"}},
		{"two distinct K", []float64{4, 8, 4, 8}, []float64{1, 2, 1, 2}, []string{"3 distinct", "got 2", "4 points"}},
		{"empty", nil, nil, []string{"got 0"}},
		{"NaN y", []float64{1, 2, 3}, []float64{1, math.NaN(), 3}, []string{"point 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitHorizonCurve(tc.Ks, tc.ys)
			checkErrContains(t, err, tc.parts...)
		})
	}
}

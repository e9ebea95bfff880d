package eval

import (
	"math"
	"testing"
)

// handCase is a 2-unit example of eq. (8) with d = 2 and H = 2, worked by
// hand. Unit A has one origin, unit B two, so weighting units equally
// (0.4875) differs from weighting origins equally (0.5333...).
//
//	unit A, origin 0: h=1 target (3,4) pred (4,4): 1/5  = 0.2
//	                  h=2 target (0,2) pred (0,3): 1/2  = 0.5
//	unit B, origin 0: h=1 target (1,0) pred (1,0): 0/1  = 0
//	                  h=2 target (0,1) pred (0,0): 1/1  = 1
//	unit B, origin 1: h=1 target (6,8) pred (9,12): 5/10 = 0.5
//	                  h=2 target (2,0) pred (2,2): 2/2  = 1
//
// Unit A = (0.2+0.5)/2 = 0.35; unit B = ((0+1)/2 + (0.5+1)/2)/2 = 0.625;
// RelL2 = (0.35+0.625)/2 = 0.4875. Per horizon: h=1 (0.2 + 0.25)/2 = 0.225,
// h=2 (0.5 + 1)/2 = 0.75.
func handCase() (pred, target [][][][]float64) {
	target = [][][][]float64{
		{{{3, 4}, {0, 2}}},
		{{{1, 0}, {0, 1}}, {{6, 8}, {2, 0}}},
	}
	pred = [][][][]float64{
		{{{4, 4}, {0, 3}}},
		{{{1, 0}, {0, 0}}, {{9, 12}, {2, 2}}},
	}
	return pred, target
}

func TestRelL2HandCase(t *testing.T) {
	pred, target := handCase()
	r, err := RelL2(pred, target)
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-15
	checkClose(t, "RelL2", r.RelL2, 0.4875, tol)
	checkSliceClose(t, "PerHorizon", r.PerHorizon, []float64{0.225, 0.75}, tol)
	checkSliceClose(t, "PerUnit", r.PerUnit, []float64{0.35, 0.625}, tol)
	if len(r.NumOrigins) != 2 || r.NumOrigins[0] != 1 || r.NumOrigins[1] != 2 {
		t.Errorf("NumOrigins = %v, want [1 2]", r.NumOrigins)
	}
	if r.Origins != nil {
		t.Errorf("Origins = %v, want nil from RelL2", r.Origins)
	}
	// Guard against origin weighting: (0.35 + 0.5 + 0.75)/3.
	if approx(r.RelL2, 1.6/3, 1e-9) {
		t.Errorf("RelL2 weights origins equally instead of units")
	}
}

func TestRelL2TargetFloor(t *testing.T) {
	tests := []struct {
		name         string
		pred, target []float64
		want         float64
	}{
		// ||target|| = 0 -> denominator 1e-8: 5e-9 / 1e-8.
		{"zero target", []float64{3e-9, 4e-9}, []float64{0, 0}, 0.5},
		// ||target|| = 5e-9 < 1e-8 is still floored: 5e-9 / 1e-8.
		{"tiny target", []float64{0, 0}, []float64{3e-9, 4e-9}, 0.5},
		// Exactly at the floor: 1e-8 / 1e-8.
		{"target at floor", []float64{0}, []float64{1e-8}, 1},
		// Above the floor, the ordinary ratio: 1e-8 / 2e-8.
		{"above floor", []float64{3e-8}, []float64{2e-8}, 0.5},
		{"exact zero forecast of zero", []float64{0, 0}, []float64{0, 0}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := RelL2([][][][]float64{{{tc.pred}}}, [][][][]float64{{{tc.target}}})
			if err != nil {
				t.Fatal(err)
			}
			checkClose(t, "RelL2", r.RelL2, tc.want, 1e-12)
		})
	}
}

func TestRelL2HugeValuesDoNotOverflow(t *testing.T) {
	// 3e200, 4e200 squared overflow; the scaled path gives 5e200/1e201.
	r, err := RelL2([][][][]float64{{{{3e200 + 6e200, 4e200 + 8e200}}}}, [][][][]float64{{{{6e200, 8e200}}}})
	if err != nil {
		t.Fatal(err)
	}
	checkClose(t, "RelL2", r.RelL2, 0.5, 1e-12)
}

func TestRelL2Errors(t *testing.T) {
	good := func() (p, q [][][][]float64) { return handCase() }
	tests := []struct {
		name   string
		mutate func(p, q [][][][]float64) ([][][][]float64, [][][][]float64)
		parts  []string
	}{
		{"NaN prediction", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			p[1][0][1][1] = math.NaN()
			return p, q
		}, []string{"unit 1", "origin 0", "step h=2", "non-finite prediction", "coordinate 1"}},
		{"Inf prediction", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			p[0][0][0][0] = math.Inf(1)
			return p, q
		}, []string{"unit 0", "origin 0", "step h=1"}},
		{"NaN target", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			q[1][1][0][0] = math.NaN()
			return p, q
		}, []string{"unit 1", "origin 1", "step h=1", "non-finite target"}},
		{"unit count mismatch", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			return p[:1], q
		}, []string{"1 prediction units", "2 target units"}},
		{"origin count mismatch", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			p[1] = p[1][:1]
			return p, q
		}, []string{"unit 1", "1 prediction origins", "2 target origins"}},
		{"horizon mismatch", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			p[1][1] = p[1][1][:1]
			return p, q
		}, []string{"unit 1", "origin 1", "want H=2"}},
		{"dimension mismatch", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			p[0][0][1] = []float64{0, 3, 1}
			return p, q
		}, []string{"unit 0", "step h=2", "dimension 3"}},
		{"unit without origins", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			p[1], q[1] = nil, nil
			return p, q
		}, []string{"unit 1", "no origins"}},
		{"no units", func(p, q [][][][]float64) ([][][][]float64, [][][][]float64) {
			return nil, nil
		}, []string{"no units"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, q := tc.mutate(good())
			_, err := RelL2(p, q)
			checkErrContains(t, err, tc.parts...)
		})
	}
}

func TestHEval(t *testing.T) {
	tests := []struct{ K, want int }{{1, 2}, {2, 3}, {5, 8}, {8, 12}, {16, 24}, {32, 48}, {33, 50}, {0, 0}, {-3, 0}}
	for _, tc := range tests {
		if got := HEval(tc.K); got != tc.want {
			t.Errorf("HEval(%d) = %d, want %d", tc.K, got, tc.want)
		}
		if tc.K > 0 {
			if ref := int(math.Ceil(1.5 * float64(tc.K))); ref != tc.want {
				t.Errorf("test table inconsistent: ceil(1.5*%d) = %d", tc.K, ref)
			}
		}
	}
}

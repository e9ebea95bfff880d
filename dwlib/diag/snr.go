package diag

import (
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/wiener"
)

// GainPoint is the solve at one noise scale of GainsVsSNR.
type GainPoint struct {
	Scale         float64    `table:"noise scale s,%.3g"`
	SNR           float64    `table:"SNR = tr P / tr R,%.3g"`
	Alpha         float64    `table:"alpha,%.4f"`
	M             float64    `table:"m,%.4f"`
	Unconstrained [2]float64 `table:"-"`
	Candidate     string     `table:"candidate"`
}

// GainsVsSNR solves the route gains for a fixed signal moment P and the noise moment R = s·R0 at
// each scale s, i.e. wiener.SolveDetailed(P + s·R0, s·R0), and reports them against the
// signal-to-noise ratio SNR = tr(P)/tr(s·R0).
//
// This is the two-route version of the scalar Wiener gain P/(P+R) that Theorem 1 reduces to for a
// single route (paper, Section 3.2): with P positive definite, the gains tend to the fully open
// (1,1) as s → 0 (no innovation to suppress) and to the closed (0,0) as s → ∞ (no predictable
// credit left to keep). In between, each route closes as its own share of noise grows, and the
// box constraint binds wherever w_unc = T⁻¹P1 leaves [0,1]².
//
// Scales must be positive and finite, and tr(R0) > 0.
func GainsVsSNR(P, R0 wiener.Sym2, scales []float64) ([]GainPoint, error) {
	if !(R0.Trace() > 0) {
		return nil, fmt.Errorf("diag.GainsVsSNR: tr(R0) = %v, want > 0", R0.Trace())
	}
	out := make([]GainPoint, 0, len(scales))
	for _, s := range scales {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("diag.GainsVsSNR: scale %v, want positive and finite", s)
		}
		R := R0.Scale(s)
		sol := wiener.SolveDetailed(P.Add(R), R)
		if sol.Fallback != "" {
			return nil, fmt.Errorf("diag.GainsVsSNR: scale %v: solver fell back to BPTT: %s", s, sol.Fallback)
		}
		wu, _ := Unconstrained(P, R)
		out = append(out, GainPoint{
			Scale: s, SNR: P.Trace() / R.Trace(),
			Alpha: sol.W[0], M: sol.W[1], Unconstrained: wu, Candidate: sol.Candidate,
		})
	}
	return out, nil
}

// LogSpace returns n values from lo to hi (both > 0, n ≥ 2) equally spaced in log scale, with
// the end points exact.
func LogSpace(lo, hi float64, n int) []float64 {
	if !(lo > 0) || !(hi > 0) || n < 2 {
		panic(fmt.Sprintf("diag.LogSpace(%v, %v, %d): want lo, hi > 0 and n ≥ 2", lo, hi, n))
	}
	out := make([]float64, n)
	a, b := math.Log(lo), math.Log(hi)
	for i := range n {
		out[i] = math.Exp(a + (b-a)*float64(i)/float64(n-1))
	}
	out[0], out[n-1] = lo, hi
	return out
}

// GainCurves holds the points of GainsVsSNR as columns, for plotting against the SNR.
type GainCurves struct {
	SNR, Alpha, M []float64
	// UncAlpha and UncM are the unconstrained w_unc's two gains.
	UncAlpha, UncM []float64
}

// Curves returns pts as columns.
func Curves(pts []GainPoint) GainCurves {
	var c GainCurves
	for _, g := range pts {
		c.SNR, c.Alpha, c.M = append(c.SNR, g.SNR), append(c.Alpha, g.Alpha), append(c.M, g.M)
		c.UncAlpha, c.UncM = append(c.UncAlpha, g.Unconstrained[0]), append(c.UncM, g.Unconstrained[1])
	}
	return c
}

package eval

import (
	"fmt"
	"math"
)

// Fit is a least-squares training-horizon curve y(K) = A K^2 + B K + C with
// nonnegative curvature A >= 0, and its fitted optimum on the evaluated
// range (Section "Fitted optimal training-horizon range"; Appendix
// "Per-seed fitted curves").
type Fit struct {
	// A, B, C are the coefficients in the original K units, for reporting
	// and plotting. Eval is numerically preferable to evaluating them
	// directly (it uses the centred form the fit was computed in).
	A, B, C float64
	// Constrained reports that the unconstrained quadratic had negative
	// curvature, so the constrained optimum is the best linear fit (A = 0):
	// the "boundary solution [that] may reduce to a linear trend".
	Constrained bool
	// KMin and KMax bound the evaluated range: the smallest and largest K
	// passed to FitHorizonCurve.
	KMin, KMax float64
	// KStar is the fitted optimal training horizon K*: the vertex -B/(2A)
	// when A > 0 and the vertex lies in [KMin, KMax]; otherwise the endpoint
	// with the lower fitted value (KMin on an exact tie, e.g. a flat line:
	// the shorter horizon is preferred when the data cannot tell).
	// It is a real number; it is not snapped to an evaluated K.
	KStar float64
	// YStar is the fitted value at KStar, the "fitted minimum error".
	YStar float64
	// Vertex is true when KStar is the parabola's vertex, false when it is
	// an endpoint of the range.
	Vertex bool

	// The fit is solved in t = (K - center)/scale, t in [-1, 1], as
	// y = alpha t^2 + beta t + gamma, which keeps the normal equations well
	// conditioned for K up to the hundreds.
	center, scale, alpha, beta, gamma float64
}

// Eval returns the fitted curve at K.
func (f Fit) Eval(K float64) float64 {
	t := (K - f.center) / f.scale
	return (f.alpha*t+f.beta)*t + f.gamma
}

// FitHorizonCurve fits y ≈ a K^2 + b K + c by least squares subject to
// a >= 0 and returns it with its fitted optimum K* on [min Ks, max Ks].
//
// Ks are training horizons and ys the matching relative L2 values at the
// fixed evaluation horizon. Ks may repeat: passing the points of all
// matched seeds pools them into one fit. (With every seed evaluated on the
// same K grid, the pooled least-squares fit equals the fit to the seed
// means, so the two readings of "quadratic fits across matched seeds"
// coincide.)
//
// The constraint is handled exactly: the objective is a convex quadratic
// in (a, b, c) and a >= 0 a half-space, so if the unconstrained minimiser
// has a < 0 the constrained minimiser lies on a = 0, i.e. it is the
// ordinary least-squares line. If the unconstrained a >= 0 it is already
// optimal.
//
// Errors: len(Ks) != len(ys), non-finite inputs, or fewer than 3 distinct K
// values (the quadratic is then not identified).
func FitHorizonCurve(Ks, ys []float64) (Fit, error) {
	if len(Ks) != len(ys) {
		return Fit{}, fmt.Errorf("eval.FitHorizonCurve: length mismatch: len(Ks)=%d, len(ys)=%d", len(Ks), len(ys))
	}
	for i := range Ks {
		if !isFinite(Ks[i]) || !isFinite(ys[i]) {
			return Fit{}, fmt.Errorf("eval.FitHorizonCurve: non-finite point %d: K=%v, y=%v", i, Ks[i], ys[i])
		}
	}
	distinct := map[float64]bool{}
	kmin, kmax := math.Inf(1), math.Inf(-1)
	for _, k := range Ks {
		distinct[k] = true
		kmin, kmax = math.Min(kmin, k), math.Max(kmax, k)
	}
	if len(distinct) < 3 {
		return Fit{}, fmt.Errorf("eval.FitHorizonCurve: need at least 3 distinct K values for a quadratic, got %d (of %d points)",
			len(distinct), len(Ks))
	}
	f := Fit{KMin: kmin, KMax: kmax, center: (kmin + kmax) / 2, scale: (kmax - kmin) / 2}

	// Unconstrained: normal equations G [alpha beta gamma]' = r with
	// G_ij = sum t^(4-i-j), r_i = sum y t^(2-i).
	n := float64(len(Ks))
	var s1, s2, s3, s4, r0, r1, r2 float64
	for i, k := range Ks {
		t := (k - f.center) / f.scale
		t2 := t * t
		s1 += t
		s2 += t2
		s3 += t2 * t
		s4 += t2 * t2
		r0 += ys[i] * t2
		r1 += ys[i] * t
		r2 += ys[i]
	}
	sol, ok := solve3([3][3]float64{{s4, s3, s2}, {s3, s2, s1}, {s2, s1, n}}, [3]float64{r0, r1, r2})
	if !ok { // cannot happen with >= 3 distinct K; guard anyway
		return Fit{}, fmt.Errorf("eval.FitHorizonCurve: singular normal equations for Ks=%v", Ks)
	}
	f.alpha, f.beta, f.gamma = sol[0], sol[1], sol[2]

	if f.alpha < 0 {
		// Constrained optimum: ordinary least-squares line in t.
		f.Constrained = true
		tbar, ybar := s1/n, r2/n
		var stt, sty float64
		for i, k := range Ks {
			dt := (k-f.center)/f.scale - tbar
			stt += dt * dt
			sty += dt * (ys[i] - ybar)
		}
		f.alpha, f.beta, f.gamma = 0, sty/stt, ybar-(sty/stt)*tbar
	}

	// Back to K units: t = (K-m)/s.
	m, s := f.center, f.scale
	f.A = f.alpha / (s * s)
	f.B = f.beta/s - 2*f.alpha*m/(s*s)
	f.C = f.alpha*m*m/(s*s) - f.beta*m/s + f.gamma

	// Fitted optimum on [KMin, KMax].
	if f.alpha > 0 {
		kv := m + s*(-f.beta/(2*f.alpha))
		if kv >= kmin && kv <= kmax {
			f.KStar, f.YStar, f.Vertex = kv, f.Eval(kv), true
			return f, nil
		}
	}
	ylo, yhi := f.Eval(kmin), f.Eval(kmax)
	if yhi < ylo {
		f.KStar, f.YStar = kmax, yhi
	} else {
		f.KStar, f.YStar = kmin, ylo
	}
	return f, nil
}

// solve3 solves the 3x3 system a x = b by Gaussian elimination with partial
// pivoting; ok is false when a is (numerically) singular.
func solve3(a [3][3]float64, b [3]float64) (x [3]float64, ok bool) {
	for c := range 3 {
		p := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if a[p][c] == 0 {
			return x, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < 3; r++ {
			m := a[r][c] / a[c][c]
			for j := c; j < 3; j++ {
				a[r][j] -= m * a[c][j]
			}
			b[r] -= m * b[c]
		}
	}
	for r := 2; r >= 0; r-- {
		v := b[r]
		for j := r + 1; j < 3; j++ {
			v -= a[r][j] * x[j]
		}
		x[r] = v / a[r][r]
	}
	return x, true
}

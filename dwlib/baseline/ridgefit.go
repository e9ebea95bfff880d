package baseline

import (
	"errors"
	"fmt"
	"math"

	"github.com/internal-dw/dwgo/dwlib/eval"
	"gonum.org/v1/gonum/mat"
)

// RidgeSpec selects one ridge autoregression.
type RidgeSpec struct {
	// W is the number of lagged states, >= 1.
	W int
	// Lambda >= 0 is the ridge strength on the mean-squared-error scale:
	// FitRidge minimises (1/n) Σ_t ||x_{t+1} - Aᵀ z_t||² + Lambda ||A'||²,
	// A' being every coefficient except the intercept. Because states are
	// standardised, the same Lambda means the same relative shrinkage on
	// every testbed, whatever its number of training pairs n.
	Lambda float64
	// NoDrive fits without drive features even when the units have a drive
	// (to measure what the drive is worth).
	NoDrive bool
}

// FitRidge fits a [Ridge] by one-step ridge regression on the given
// (training) units: every transition t -> t+1 with t >= W-1 inside a unit
// is one training pair, with regressor z_t = (x_t, ..., x_{t-W+1}, u_t, 1)
// and target x_{t+1}; the intercept is not penalised. The fit is one-step
// (teacher-forced) least squares; the closed-loop H-step quality it leads to
// is what SelectRidge measures on validation units.
//
// The normal equations (Zᵀ Z/n + Lambda·P) A = Zᵀ Y/n are solved by a
// Cholesky factorisation (gonum). Lambda = 0 is allowed and gives ordinary
// least squares, which fails with an error when the lagged features are
// collinear (e.g. a noiseless AR(p) fitted with W > p).
//
// Errors: W < 1, Lambda < 0 or not finite, no units, a unit with fewer
// than W+1 steps, or a singular system.
func FitRidge(units []eval.Unit, spec RidgeSpec) (*Ridge, error) {
	sys, err := newRidgeSystem(units, spec.W, !spec.NoDrive)
	if err != nil {
		return nil, err
	}
	return sys.solve(spec.Lambda)
}

// FitRidgePath fits one [Ridge] per lambda from a single pass over the units: the normal
// equations of W are accumulated once (the costly part, O(n F²)) and solved for each lambda, as
// SelectRidge does. models[i] is the fit for lambdas[i], or nil with errs[i] saying why (a
// singular system or an invalid lambda); err reports what fails for every lambda (W < 1, bad
// units). Each model equals FitRidge(units, RidgeSpec{W, lambdas[i], noDrive}).
func FitRidgePath(units []eval.Unit, W int, lambdas []float64, noDrive bool) (models []*Ridge, errs []error, err error) {
	sys, err := newRidgeSystem(units, W, !noDrive)
	if err != nil {
		return nil, nil, err
	}
	models, errs = make([]*Ridge, len(lambdas)), make([]error, len(lambdas))
	for i, lam := range lambdas {
		models[i], errs[i] = sys.solve(lam)
	}
	return models, errs, nil
}

// ridgeSystem holds the sums of the normal equations for one W, so that a
// whole λ grid is solved from one pass over the data.
type ridgeSystem struct {
	W, D, J, n int
	gram       *mat.SymDense // Σ z zᵀ, F×F
	cross      *mat.Dense    // Σ z xᵀ_{t+1}, F×D
}

// ridgeChunk is the number of training pairs stacked per BLAS update.
const ridgeChunk = 1024

func newRidgeSystem(units []eval.Unit, W int, useDrive bool) (*ridgeSystem, error) {
	if W < 1 {
		return nil, fmt.Errorf("baseline: FitRidge: W=%d must be >= 1", W)
	}
	D, J, err := checkUnits("FitRidge", units, W+1)
	if err != nil {
		return nil, err
	}
	if !useDrive {
		J = 0
	}
	F := W*D + J + 1
	s := &ridgeSystem{W: W, D: D, J: J, gram: mat.NewSymDense(F, nil), cross: mat.NewDense(F, D, nil)}
	zc := mat.NewDense(ridgeChunk, F, nil)
	yc := mat.NewDense(ridgeChunk, D, nil)
	var tmp mat.Dense
	rows := 0
	flush := func() {
		if rows == 0 {
			return
		}
		z := zc.Slice(0, rows, 0, F)
		s.gram.SymRankK(s.gram, 1, z.T())
		tmp.Reset()
		tmp.Mul(z.T(), yc.Slice(0, rows, 0, D))
		s.cross.Add(s.cross, &tmp)
		s.n += rows
		rows = 0
	}
	for _, u := range units {
		for t := W - 1; t+1 < len(u.X); t++ {
			z := zc.RawRowView(rows)
			for k := range W {
				copy(z[k*D:], u.X[t-k])
			}
			if J > 0 {
				copy(z[W*D:], u.Drive[t])
			}
			z[F-1] = 1
			copy(yc.RawRowView(rows), u.X[t+1])
			if rows++; rows == ridgeChunk {
				flush()
			}
		}
	}
	flush()
	return s, nil
}

// solve returns the ridge model for one λ.
func (s *ridgeSystem) solve(lambda float64) (*Ridge, error) {
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("baseline: FitRidge: lambda=%v must be finite and >= 0", lambda)
	}
	F := s.W*s.D + s.J + 1
	inv := 1 / float64(s.n)
	a := mat.NewSymDense(F, nil)
	a.ScaleSym(inv, s.gram)
	for i := range F - 1 { // the intercept (last) is not penalised
		a.SetSym(i, i, a.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return nil, fmt.Errorf("baseline: FitRidge: normal equations are singular for W=%d, lambda=%g (collinear lags: use lambda > 0)", s.W, lambda)
	}
	var b, x mat.Dense
	b.Scale(inv, s.cross)
	if err := ch.SolveTo(&x, &b); err != nil {
		// A mat.Condition error still returns the solution; ill-conditioned
		// fits are judged by their validation score, not refused here.
		var c mat.Condition
		if !errors.As(err, &c) {
			return nil, fmt.Errorf("baseline: FitRidge: W=%d, lambda=%g: %w", s.W, lambda, err)
		}
	}
	coef := make([]float64, F*s.D)
	for i := range F {
		for j := range s.D {
			coef[i*s.D+j] = x.At(i, j)
		}
	}
	for _, v := range coef {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("baseline: FitRidge: non-finite coefficients for W=%d, lambda=%g", s.W, lambda)
		}
	}
	return &Ridge{W: s.W, Lambda: lambda, D: s.D, J: s.J, coef: coef}, nil
}

package baseline

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/eval"
)

// FitRidgePath gives, lambda by lambda, exactly the models of FitRidge, and reports a singular
// lambda without losing the others.
func TestFitRidgePathEqualsFitRidge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var units []eval.Unit
	for range 3 {
		u := eval.Unit{}
		for range 50 {
			u.X = append(u.X, []float64{rng.NormFloat64(), rng.NormFloat64()})
			u.Drive = append(u.Drive, []float64{rng.NormFloat64()})
		}
		units = append(units, u)
	}
	lambdas := []float64{1, 1e-3, 0, -1}
	models, errs, err := FitRidgePath(units, 3, lambdas, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, lam := range lambdas {
		want, werr := FitRidge(units, RidgeSpec{W: 3, Lambda: lam})
		if (werr == nil) != (errs[i] == nil) {
			t.Fatalf("lambda %v: path error %v, FitRidge error %v", lam, errs[i], werr)
		}
		if werr != nil {
			if models[i] != nil || !strings.Contains(errs[i].Error(), "lambda") {
				t.Fatalf("lambda %v: model %v, error %v", lam, models[i], errs[i])
			}
			continue
		}
		if !slices.Equal(models[i].coef, want.coef) || models[i].W != 3 || models[i].J != 1 {
			t.Fatalf("lambda %v: path model differs from FitRidge's", lam)
		}
	}
	if _, _, err := FitRidgePath(units, 0, lambdas, false); err == nil {
		t.Fatal("W = 0 accepted")
	}
}

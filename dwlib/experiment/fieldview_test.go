package experiment

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// TestFieldForecasts: a tiny finished shear run gives, per test origin, H truths and forecasts of
// the field's dimension; the truths are the test split's own states at the origins, and the
// residuals are forecast − truth. A time-series run is refused.
func TestFieldForecasts(t *testing.T) {
	opt := shearOptions(t)
	cfg := tinyShearRun(t, "full")
	cfg.Fit.EvalBatch = 1 // one window per predictor call: FieldForecasts must cut its windows into calls
	if _, err := Run(cfg, opt); err != nil {
		t.Fatal(err)
	}
	const H = 3
	f, fcs, err := FieldForecasts(cfg, opt, H, 0) // the run's origins: more windows than one predictor call takes
	if err != nil {
		t.Fatal(err)
	}
	ds, err := LoadData(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(fcs) <= cfg.Fit.EvalBatch || f.Dim() != ds.StateDim {
		t.Fatalf("%d forecasts, field %+v for state dimension %d", len(fcs), f, ds.StateDim)
	}
	for _, fc := range fcs {
		if len(fc.Truth) != H || len(fc.Forecast) != H || len(fc.Forecast[0]) != f.Dim() {
			t.Fatalf("unit %d origin %d: %d truths, %d forecasts of %d values", fc.Unit, fc.Origin, len(fc.Truth), len(fc.Forecast), len(fc.Forecast[0]))
		}
		want := ds.Test[fc.Unit].X[cfg.EvalBurnIn+fc.Origin+1]
		if got := fc.Truth[1]; got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
			t.Fatalf("unit %d origin %d: truth at h = 2 is not the test state after the origin", fc.Unit, fc.Origin)
		}
		r := fc.Residual(2)
		if r[5] != fc.Forecast[1][5]-fc.Truth[1][5] {
			t.Fatal("Residual is not forecast − truth")
		}
	}
	mg, err := Resolve(Quick, "mackey-glass", "full", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := FieldForecasts(mg, quickOptions(t), H, 1); err == nil {
		t.Error("FieldForecasts of a Mackey–Glass run: no error")
	}
}

// TestFitSpectral: fitted to residuals whose coordinates have known, different variances, the
// sampler is ready at every horizon and its draws reproduce each coordinate's variance (the
// sampler's promise, eq. field-prior-sampler) to Monte-Carlo accuracy (about 3% standard error here, 15% allowed); draws are reproducible.
func TestFitSpectral(t *testing.T) {
	f := data.Field{Channels: 2, Height: 4, Width: 8}
	const n, K = 3000, 2
	D := f.Dim()
	sd := func(d int) float64 { return 0.5 + float64(d%f.Channels+d%3) } // a planted scale per coordinate
	rng := rand.New(rand.NewPCG(1, 2))
	res := make([]float64, n*K*D)
	for i := range n {
		for k := range K {
			for d := range D {
				res[(i*K+k)*D+d] = sd(d) * rng.NormFloat64()
			}
		}
	}
	s, err := FitSpectral(f, res, n, K)
	if err != nil {
		t.Fatal(err)
	}
	for k, ok := range s.Ready(K) {
		if !ok {
			t.Fatalf("horizon %d not ready after two commits", k+1)
		}
	}
	const m = 4000
	draws, err := SpectralDraws(s, m, K, D, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := SpectralDraws(s, m, K, D, 7)
	if draws[123] != again[123] {
		t.Error("the same seed gave different draws")
	}
	for d := range D {
		var v float64
		for i := range m {
			x := draws[(i*K+1)*D+d]
			v += x * x
		}
		v /= m
		if want := sd(d) * sd(d); math.Abs(v-want) > 0.15*want {
			t.Errorf("coordinate %d: draw variance %.3f, residual variance %.3f", d, v, want)
		}
	}
}

package baseline

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
	"github.com/internal-dw/dwgo/dwlib/eval"
	"github.com/internal-dw/dwgo/dwlib/internal/fft2"
)

// plantedCoef draws per channel and mode AR(1) coefficients a with a(−ω) = conj(a(ω)), so that
// the fields stay real (a real on the self-conjugate modes), in FourierAR.Coef's layout.
func plantedCoef(f data.Field, seed uint64) []complex128 {
	rng := rand.New(rand.NewPCG(seed, 1))
	H, W, hw := f.Height, f.Width, f.Height*f.Width
	a := make([]complex128, f.Channels*hw)
	for c := range f.Channels {
		for ky := range H {
			for kx := range W {
				m, mc := ky*W+kx, ((H-ky)%H)*W+(W-kx)%W
				switch {
				case mc == m:
					a[c*hw+m] = complex(0.9*(2*rng.Float64()-1), 0)
				case mc > m:
					z := cmplx.Rect(0.3+0.6*rng.Float64(), 2*math.Pi*rng.Float64())
					a[c*hw+m], a[c*hw+mc] = z, cmplx.Conj(z)
				}
			}
		}
	}
	return a
}

// plantedFields simulates fields whose every channel and mode follows its own complex AR(1)
// z_{t+1}(ω) = a(ω) z_t(ω) + FFT(ε_t)(ω), ε_t white on the grid, dropping the first 20 frames (the
// transient from z = 0).
func plantedFields(f data.Field, a []complex128, units, T int, seed uint64) []eval.Unit {
	rng := rand.New(rand.NewPCG(seed, 2))
	hw := f.Height * f.Width
	plan := fft2.New(f.Width, f.Height)
	out := make([]eval.Unit, units)
	eps := make([]float64, hw)
	eh := make([]complex128, hw)
	for u := range out {
		z := make([]complex128, f.Channels*hw)
		X := make([][]float64, T)
		for t := range T {
			for c := range f.Channels {
				for i := range eps {
					eps[i] = rng.NormFloat64()
				}
				plan.Forward(eh, eps)
				for m := range hw {
					z[c*hw+m] = a[c*hw+m]*z[c*hw+m] + eh[m]
				}
			}
			row := make([]float64, f.Dim())
			for c := range f.Channels {
				plan.Inverse(row[c*hw:(c+1)*hw], z[c*hw:(c+1)*hw])
			}
			X[t] = row
		}
		out[u] = eval.Unit{X: X[20:]}
	}
	return out
}

// TestFourierARRecoversPlantedAR1: fitted at order 1 with a negligible ridge, every channel's and
// mode's coefficient is the planted one to sampling error (about 1/√samples); selected on
// validation, the order and ridge reproduce it, and its forecast beats persistence.
func TestFourierARRecoversPlantedAR1(t *testing.T) {
	f := data.Field{Channels: 2, Height: 8, Width: 4}
	a := plantedCoef(f, 1)
	train, val := plantedFields(f, a, 20, 120, 2), plantedFields(f, a, 4, 60, 3)
	m, err := FitFourierAR(train, f, 1, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range a {
		worst = max(worst, cmplx.Abs(m.Coef[i]-a[i]))
	}
	if worst > 0.05 { // 20 × 99 samples per mode: sampling error about 0.02
		t.Fatalf("largest coefficient error %.4f, want < 0.05", worst)
	}
	sel, err := SelectFourierAR(train, val, f, 3, 4, 16, FourierGrid{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Candidates) != 3*len(DefaultFourierLambdas) {
		t.Errorf("%d candidates, want orders 1..3 (history 3) x %d lambdas", len(sel.Candidates), len(DefaultFourierLambdas))
	}
	pers, err := eval.Evaluate(Damped{Phi: 1}, val, 3, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	if !(sel.Val.RelL2 < pers.RelL2) {
		t.Errorf("selected Fourier AR (P=%d) validation rel-L2 %.4f, persistence %.4f: want it below", sel.Model.P, sel.Val.RelL2, pers.RelL2)
	}
	for i := range a {
		if sel.Model.P == 1 && cmplx.Abs(sel.Model.Coef[i]-a[i]) > 0.06 {
			t.Fatalf("selected order 1, coefficient %d off by %.4f", i, cmplx.Abs(sel.Model.Coef[i]-a[i]))
		}
	}
}

// TestFourierARForecastIsTheRecursion: a forecast is the planted recursion itself, step by step
// (no noise), in grid coordinates.
func TestFourierARForecastIsTheRecursion(t *testing.T) {
	f := data.Field{Channels: 1, Height: 4, Width: 4}
	a := plantedCoef(f, 5)
	m := &FourierAR{Field: f, P: 1, Coef: a}
	rng := rand.New(rand.NewPCG(9, 9))
	x0 := make([]float64, f.Dim())
	for i := range x0 {
		x0[i] = rng.NormFloat64()
	}
	got, err := m.Forecast(eval.Window{History: [][]float64{x0}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	plan := fft2.New(4, 4)
	z := make([]complex128, 16)
	plan.Forward(z, x0)
	for h := range 3 {
		for i := range z {
			z[i] *= a[i]
		}
		want := make([]float64, 16)
		plan.Inverse(want, z)
		for i := range want {
			if math.Abs(got[h][i]-want[i]) > 1e-12 {
				t.Fatalf("step %d coordinate %d: %v, want %v", h+1, i, got[h][i], want[i])
			}
		}
	}
}

func TestScoreRefusesFieldsAndViceVersa(t *testing.T) {
	f := data.Field{Channels: 1, Height: 4, Width: 4}
	units := plantedFields(f, plantedCoef(f, 1), 3, 40, 4)
	ss := make([]data.Series, len(units))
	for i, u := range units {
		ss[i] = data.Series{X: u.X}
	}
	ds := &data.Dataset{Name: "field", StateDim: 16, Train: ss, Val: ss, Test: ss, Field: &f}
	p := Protocol{History: 2, H: 3, MaxOrigins: 4}
	if _, err := Score(ds, p, Grid{}); err == nil || !strings.Contains(err.Error(), "ScoreField") {
		t.Errorf("Score on a field: %v, want a refusal naming ScoreField", err)
	}
	rs, err := ScoreField(ds, p, FourierGrid{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 || rs[0].Name != NameZero || rs[1].Name != NameDamped || rs[2].Name != NameFourierAR || rs[2].W > 2 {
		t.Fatalf("ScoreField gave %d results %v (P %d)", len(rs), []string{rs[0].Name, rs[1].Name, rs[2].Name}, rs[2].W)
	}
	ds.Field = nil
	if _, err := ScoreField(ds, p, FourierGrid{}); err == nil || !strings.Contains(err.Error(), "not a field") {
		t.Errorf("ScoreField on a time series: %v", err)
	}
}

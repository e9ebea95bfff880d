package data

import (
	"math"
	"testing"
)

// pooledMoments returns per-coordinate mean and population std over all rows.
func pooledMoments(ss []Series, drive bool) (mean, std []float64) {
	var rows [][]float64
	for _, s := range ss {
		if drive {
			rows = append(rows, s.Drive...)
		} else {
			rows = append(rows, s.X...)
		}
	}
	a := FitAffine(rows)
	return a.Mean, a.Std
}

func TestTrainOnlyStandardisation(t *testing.T) {
	for _, name := range []string{"known-snr", "mackey-glass", "driven-mg", "narma5"} {
		t.Run(name, func(t *testing.T) {
			d, err := Load(name, Options{NoCache: true, NumTraj: 10, Length: 200})
			if err != nil {
				t.Fatal(err)
			}
			mean, std := pooledMoments(d.Train, false)
			for j := range mean {
				if math.Abs(mean[j]) > 1e-12 || math.Abs(std[j]-1) > 1e-12 {
					t.Errorf("train coord %d: mean %g std %g, want 0 and 1", j, mean[j], std[j])
				}
			}
			// Val/test use the training statistics, so they are not
			// exactly standardised themselves.
			vm, _ := pooledMoments(d.Test, false)
			if math.Abs(vm[0]) < 1e-9 {
				t.Errorf("test split looks self-standardised (mean %g)", vm[0])
			}
			if !d.Norm.Drive.IsIdentity() {
				t.Errorf("drive of %s should keep its raw scale", name)
			}
		})
	}
}

// TestNormalizerIgnoresValAndTest changes validation and test data and
// checks that the fitted statistics do not move.
func TestNormalizerIgnoresValAndTest(t *testing.T) {
	raw, err := GenerateNARMA5(smallNARMA())
	if err != nil {
		t.Fatal(err)
	}
	d1, err := NewDataset("x", raw[:1], raw[1:2], raw[2:], true)
	if err != nil {
		t.Fatal(err)
	}
	val := raw[1].Clone()
	for _, r := range val.X {
		r[0] += 100
	}
	val.Drive[3][1] = -50
	d2, err := NewDataset("x", raw[:1], []Series{val}, raw[2:], true)
	if err != nil {
		t.Fatal(err)
	}
	for j := range d1.Norm.State.Mean {
		if d1.Norm.State.Mean[j] != d2.Norm.State.Mean[j] || d1.Norm.State.Std[j] != d2.Norm.State.Std[j] {
			t.Fatalf("state statistics moved when validation data changed")
		}
	}
	for j := range d1.Norm.Drive.Mean {
		if d1.Norm.Drive.Mean[j] != d2.Norm.Drive.Mean[j] || d1.Norm.Drive.Std[j] != d2.Norm.Drive.Std[j] {
			t.Fatalf("drive statistics moved when validation data changed")
		}
	}
	// The shifted validation series is mapped with the training statistics.
	if got, want := d2.Val[0].X[0][0], (raw[1].X[0][0]+100-d1.Norm.State.Mean[0])/d1.Norm.State.Std[0]; math.Abs(got-want) > 1e-12 {
		t.Errorf("validation value %v, want %v", got, want)
	}
	// NewDataset must not modify its inputs.
	if raw[1].X[0][0] == d1.Val[0].X[0][0] {
		t.Error("input series were standardised in place")
	}
	// Drive standardisation with train-only statistics when requested.
	m, s := pooledMoments(d1.Train, true)
	for j := range m {
		if math.Abs(m[j]) > 1e-12 || math.Abs(s[j]-1) > 1e-12 {
			t.Errorf("drive coord %d: mean %g std %g", j, m[j], s[j])
		}
	}
}

func TestAffineRoundTripAndConstantCoordinate(t *testing.T) {
	rows := [][]float64{{1, 5, 2}, {3, 5, 4}, {5, 5, 9}}
	a := FitAffine(rows)
	if a.Std[1] != 1 || a.Mean[1] != 5 {
		t.Errorf("constant coordinate: mean %v std %v, want 5 and unit scale", a.Mean[1], a.Std[1])
	}
	for _, r := range rows {
		back := a.Invert(a.Apply(r))
		for j := range r {
			if math.Abs(back[j]-r[j]) > 1e-12 {
				t.Fatalf("round trip %v -> %v", r, back)
			}
		}
	}
	var id Affine
	if v := id.Apply([]float64{3}); !id.IsIdentity() || v[0] != 3 {
		t.Error("zero Affine is not the identity")
	}
	n := Normalizer{State: a}
	s := Series{X: rows}
	if got := n.Invert(n.Apply(s)); math.Abs(got.X[2][2]-9) > 1e-12 || got.Drive != nil {
		t.Errorf("Normalizer round trip: %v", got)
	}
}

// A coordinate that is constant in training is recognised exactly, even
// where rounding makes its computed spread nonzero: later values are then
// shifted, not multiplied by ~1e17.
func TestAffineConstantWithRounding(t *testing.T) {
	var rows [][]float64
	for range 1000 {
		rows = append(rows, []float64{0.1, -0.7818314824680298})
	}
	a := FitAffine(rows, rows[:7])
	for j, v := range rows[0] {
		if a.Mean[j] != v || a.Std[j] != 1 {
			t.Errorf("coordinate %d: mean %v std %v, want %v and 1", j, a.Mean[j], a.Std[j], v)
		}
	}
	if z := a.Apply([]float64{0.2, 0.2}); math.Abs(z[0]-0.1) > 1e-12 || math.Abs(z[1]-0.9818314824680298) > 1e-12 {
		t.Errorf("a later value standardises to %v", z)
	}
}

package data

import (
	"fmt"
	"math"
	"testing"
)

func TestFitScalarAffine(t *testing.T) {
	for _, tc := range []struct {
		name      string
		blocks    [][][]float64
		mean, std float64
		identity  bool
	}{
		{"one block", [][][]float64{{{1, 2}, {3, 6}}}, 3, math.Sqrt(3.5), false},
		{"pooled over blocks", [][][]float64{{{1, 2}}, {{3, 6}}}, 3, math.Sqrt(3.5), false},
		{"constant: unit scale", [][][]float64{{{2, 2}, {2, 2}}}, 2, 1, false},
		{"no rows: identity", nil, 0, 0, true},
	} {
		a := FitScalarAffine(tc.blocks...)
		if a.IsIdentity() != tc.identity {
			t.Fatalf("%s: identity %v", tc.name, a.IsIdentity())
		}
		for j := range a.Mean {
			if math.Abs(a.Mean[j]-tc.mean) > 1e-15 || math.Abs(a.Std[j]-tc.std) > 1e-15 {
				t.Errorf("%s: coordinate %d: mean %v std %v, want %v %v", tc.name, j, a.Mean[j], a.Std[j], tc.mean, tc.std)
			}
		}
	}
}

// scalarMoments pools every state entry of ss.
func scalarMoments(ss []Series) (mean, sd float64) {
	var v []float64
	for _, s := range ss {
		for _, r := range s.X {
			v = append(v, r...)
		}
	}
	return meanSD(v)
}

// TestScalarNormLoad: with ScalarNorm the training states have pooled mean 0
// and sd 1 over all trajectories x time x channels (but not per coordinate),
// validation and test go through the same affine map fitted on train, and
// drives stay raw.
func TestScalarNormLoad(t *testing.T) {
	for _, tc := range []struct{ name, gen string }{
		{"known-snr", GeneratorProject},
		{"mackey-glass", GeneratorProject},
		{"mackey-glass", GeneratorAuthors},
		{"driven-mg", GeneratorAuthors},
		{"narma5", GeneratorAuthors},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.name, tc.gen), func(t *testing.T) {
			opt := Options{NoCache: true, NumTraj: 10, Length: 200, Seed: 1, Generator: tc.gen}
			perCoord, err := Load(tc.name, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.ScalarNorm = true
			d, err := Load(tc.name, opt)
			if err != nil {
				t.Fatal(err)
			}
			mean, sd := scalarMoments(d.Train)
			if math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
				t.Errorf("train pooled mean %g sd %g, want 0 and 1", mean, sd)
			}
			pm, ps := pooledMoments(d.Train, false)
			spread := 0.0
			for j := range pm {
				spread = max(spread, math.Abs(pm[j]), math.Abs(ps[j]-1))
			}
			if spread < 1e-6 {
				t.Errorf("every coordinate is standardised on its own (%g): not a scalar map", spread)
			}
			// The same scalar map, fitted on raw train, for every split.
			raw := func(ss []Series) []Series {
				out := make([]Series, len(ss))
				for i, s := range ss {
					out[i] = perCoord.Norm.Invert(s)
				}
				return out
			}
			fit := FitScalarAffine(statesOf(raw(perCoord.Train))...)
			m, s := d.Norm.State.Mean[0], d.Norm.State.Std[0]
			if math.Abs(m-fit.Mean[0]) > 1e-12 || math.Abs(s-fit.Std[0]) > 1e-12 {
				t.Errorf("scalar map (%v, %v), raw training data give (%v, %v)", m, s, fit.Mean[0], fit.Std[0])
			}
			for j := range d.Norm.State.Mean {
				if d.Norm.State.Mean[j] != m || d.Norm.State.Std[j] != s {
					t.Fatalf("coordinate %d has its own statistics", j)
				}
			}
			for _, sp := range []struct{ got, raw []Series }{
				{d.Train, raw(perCoord.Train)}, {d.Val, raw(perCoord.Val)}, {d.Test, raw(perCoord.Test)},
			} {
				for i := range sp.got {
					for k, r := range sp.got[i].X {
						for j, v := range r {
							if want := (sp.raw[i].X[k][j] - m) / s; math.Abs(v-want) > 1e-12 {
								t.Fatalf("unit %d step %d coord %d: %v, want (raw - mean)/sd = %v", i, k, j, v, want)
							}
						}
					}
					if !d.Norm.Drive.IsIdentity() || !rowsEqual(sp.got[i].Drive, sp.raw[i].Drive) {
						t.Fatalf("unit %d: drive is not raw", i)
					}
				}
			}
		})
	}
}

func statesOf(ss []Series) [][][]float64 {
	out := make([][][]float64, len(ss))
	for i, s := range ss {
		out[i] = s.X
	}
	return out
}

package data

import (
	"math"
	"testing"
)

func smallNARMA() NARMAConfig {
	c := DefaultNARMAConfig()
	c.NumTraj, c.Length, c.Channels = 3, 300, 3
	return c
}

// TestNARMARecursion recomputes every retained y_{t+1} from the stored y and
// u with an independent transcription of the defining equation.
// Both generators satisfy it.
func TestNARMARecursion(t *testing.T) {
	for _, gen := range []string{GeneratorProject, GeneratorAuthors} {
		t.Run(gen, func(t *testing.T) { checkNARMARecursion(t, gen) })
	}
}

func checkNARMARecursion(t *testing.T, gen string) {
	c := smallNARMA()
	c.Generator = gen
	raw, err := GenerateNARMA5(c)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, s := range raw {
		for ch := range c.Channels {
			y := func(k int) float64 { return s.X[k][ch] }
			u := func(k int) float64 { return s.Drive[k][ch] }
			for k := 4; k+1 < s.Len(); k++ {
				sum := y(k) + y(k-1) + y(k-2) + y(k-3) + y(k-4)
				want := math.Tanh(.3*y(k) + .05*y(k)*sum + 1.5*u(k-4)*u(k) + .1)
				if math.Abs(y(k+1)-want) > 1e-15 {
					t.Fatalf("traj %d ch %d t %d: y_{t+1}=%v, recursion gives %v", i, ch, k, y(k+1), want)
				}
				checked++
			}
			for k := range s.Len() {
				if u(k) < 0 || u(k) > .5 || math.Abs(y(k)) >= 1 {
					t.Fatalf("traj %d ch %d t %d: u=%v (want in [0,.5]) y=%v (want |y|<1)", i, ch, k, u(k), y(k))
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
	// Channels have independent inputs.
	if raw[0].Drive[0][0] == raw[0].Drive[0][1] {
		t.Error("channels share their input")
	}
}

// TestNARMABurnIn checks that the retained window starts BurnIn steps into
// the same recursion: a longer burn-in shifts the window.
func TestNARMABurnIn(t *testing.T) {
	c := smallNARMA()
	a, _ := GenerateNARMA5(c)
	c.BurnIn += 10
	b, _ := GenerateNARMA5(c)
	for k := range 50 {
		if !rowsEqualRow(a[0].X[k+10], b[0].X[k]) || !rowsEqualRow(a[0].Drive[k+10], b[0].Drive[k]) {
			t.Fatalf("step %d: window is not the burn-in-shifted recursion", k)
		}
	}
}

func rowsEqualRow(a, b []float64) bool { return rowsEqual([][]float64{a}, [][]float64{b}) }

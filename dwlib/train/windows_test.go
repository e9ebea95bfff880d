package train

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/internal-dw/dwgo/dwlib/data"
)

// rampUnits returns units whose state at step t of unit u is (100u + t, -(100u + t)) and whose
// drive at t is 1000u + t, so every value says where it was cut from.
func rampUnits(lengths ...int) []data.Series {
	out := make([]data.Series, len(lengths))
	for u, n := range lengths {
		s := data.Series{X: make([][]float64, n), Drive: make([][]float64, n)}
		for t := range n {
			v := float64(100*u + t)
			s.X[t] = []float64{v, -v}
			s.Drive[t] = []float64{float64(1000*u + t)}
		}
		out[u] = s
	}
	return out
}

func TestOriginRange(t *testing.T) {
	g := Geometry{Window: 3, K: 4, BurnIn: 2}
	lo, hi, err := g.OriginRange(20)
	if err != nil || lo != 4 || hi != 15 {
		t.Fatalf("OriginRange(20) = %d, %d, %v; want 4, 15 (burn-in 2 + window 3 - 1; 20 - 1 - K)", lo, hi, err)
	}
	if _, _, err := g.OriginRange(8); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("OriginRange(8) error = %v, want 'too short'", err)
	}
	if _, _, err := g.OriginRange(9); err != nil {
		t.Errorf("OriginRange(9) (exactly burn-in+window+K) = %v, want ok", err)
	}
}

func TestMakeBatchCutsTheRightWindows(t *testing.T) {
	units := rampUnits(20, 30)
	g := Geometry{Window: 3, K: 2, BurnIn: 1}
	b, err := MakeBatch(units, []Pick{{Unit: 1, Origin: 10}, {Unit: 0, Origin: 3}}, g)
	if err != nil {
		t.Fatal(err)
	}
	if b.N != 2 || b.Window != 3 || b.K != 2 || b.D != 2 || b.J != 1 {
		t.Fatalf("batch dims N=%d W=%d K=%d D=%d J=%d", b.N, b.Window, b.K, b.D, b.J)
	}
	// Window 0: unit 1, origin 10: history x_8..x_10, targets x_11, x_12, drive d_8..d_11.
	wantHist := []float64{108, -108, 109, -109, 110, -110, 1, -1, 2, -2, 3, -3}
	wantTgt := []float64{111, -111, 112, -112, 4, -4, 5, -5}
	wantDrive := []float64{1008, 1009, 1010, 1011, 1, 2, 3, 4}
	for _, c := range []struct {
		name      string
		got, want []float64
	}{{"History", b.History, wantHist}, {"Targets", b.Targets, wantTgt}, {"Drive", b.Drive, wantDrive}} {
		if len(c.got) != len(c.want) {
			t.Fatalf("%s has %d values, want %d", c.name, len(c.got), len(c.want))
		}
		for i := range c.want {
			if c.got[i] != c.want[i] {
				t.Fatalf("%s = %v, want %v", c.name, c.got, c.want)
			}
		}
	}
	if _, err := MakeBatch(units, []Pick{{Unit: 0, Origin: 2}}, g); err == nil {
		t.Error("origin inside the burn-in accepted")
	}
	if _, err := MakeBatch(units, []Pick{{Unit: 0, Origin: 18}}, g); err == nil {
		t.Error("origin whose targets run past the unit accepted")
	}
}

func TestEpochPicks(t *testing.T) {
	units := rampUnits(20, 12)
	g := Geometry{Window: 2, K: 3, BurnIn: 1}
	a, err := EpochPicks(rand.New(rand.NewPCG(1, 2)), units, 500, g)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := EpochPicks(rand.New(rand.NewPCG(1, 2)), units, 500, g)
	perUnit := map[int]int{}
	seen := map[Pick]bool{}
	for i, p := range a {
		if p != b[i] {
			t.Fatal("same seed, different picks")
		}
		lo, hi, _ := g.OriginRange(units[p.Unit].Len())
		if p.Origin < lo || p.Origin > hi {
			t.Fatalf("pick %+v outside [%d, %d]", p, lo, hi)
		}
		perUnit[p.Unit]++
		seen[p] = true
	}
	if perUnit[0] != 500 || perUnit[1] != 500 {
		t.Errorf("picks per unit = %v, want 500 each", perUnit)
	}
	// Every valid origin is reached: unit 0 has origins 2..16 (15), unit 1 has 2..8 (7).
	if len(seen) != 15+7 {
		t.Errorf("%d distinct (unit, origin) pairs drawn, want all 22", len(seen))
	}
	// Shuffled: the first half is not all from unit 0.
	if first := a[:500]; countUnit(first, 0) == 500 {
		t.Error("picks are not shuffled")
	}
	if _, err := EpochPicks(rand.New(rand.NewPCG(1, 2)), rampUnits(5), 1, g); err == nil {
		t.Error("a unit too short for the geometry was accepted")
	}
}

func countUnit(ps []Pick, u int) int {
	n := 0
	for _, p := range ps {
		if p.Unit == u {
			n++
		}
	}
	return n
}

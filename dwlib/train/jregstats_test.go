package train

import (
	"fmt"
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph"
	mlmodel "github.com/gomlx/gomlx/ml/model"
	"github.com/internal-dw/dwgo/dwlib/backend"
	"github.com/internal-dw/dwgo/dwlib/model"
)

// scaleCell is the linear step x ↦ (1 + c + w)·x through one residual merge, with a trainable w
// that starts at 0: its forward-Jacobian gain along any unit direction is |1 + c| in both JReg
// readings, a planted value for JRegStats.
func scaleCell(c float64) model.Cell {
	return model.CellFunc(func(scope *mlmodel.Scope, x, d *Node, merge model.Merge) *Node {
		w := scope.VariableWithValue("w", 0.0).NodeValue(x.Graph())
		return merge(0, x, func(h *Node) *Node { return Mul(h, AddScalar(w, c)) })
	})
}

// TestJRegStatsPlanted: on a step of known gain |1 + c|, both engines and both JReg readings
// report that gain, the share above 1 and the penalty max(gain − 1, 0)², over N·K gains (the
// text's reading) or N (the authors', first step only).
func TestJRegStatsPlanted(t *testing.T) {
	const N, K, D = 6, 4, 3
	for _, tc := range []struct {
		name   string
		c      float64
		style  string
		engine string
	}{
		{"above one/text/unrolled", 0.5, JRegText, EngineUnrolled},
		{"above one/text/steps", 0.5, JRegText, EngineSteps},
		{"above one/authors/unrolled", 0.5, JRegAuthors, EngineUnrolled},
		{"above one/authors/steps", 0.5, JRegAuthors, EngineSteps},
		{"below one/text/steps", -0.3, JRegText, EngineSteps},
		{"below one/authors/unrolled", -0.3, JRegAuthors, EngineUnrolled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := model.FromCell(backend.MustShared(), model.Spec{StateDim: D, Layers: 1, Window: 1, DType: dtypes.Float64, Seed: 1}, scaleCell(tc.c))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := NewTrainer(backend.MustShared(), m, Config{Method: "jreg", JRegStyle: tc.style, K: K, BatchSize: N, LR: 1e-2, Seed: 3, Engine: tc.engine})
			if err != nil {
				t.Fatal(err)
			}
			r, err := tr.Accumulate(benchBatch(N, 1, K, D, 5), 1)
			if err != nil {
				t.Fatal(err)
			}
			if r.JReg == nil {
				t.Fatal("no JReg statistics reported")
			}
			gain := math.Abs(1 + tc.c)
			excess := max(gain-1, 0)
			over := 0.0
			if gain > 1 {
				over = 1
			}
			n := N * K
			if tc.style == JRegAuthors {
				n = N
			}
			got := *r.JReg
			if got.Gains != n {
				t.Errorf("Gains = %d, want %d", got.Gains, n)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"MeanGain", got.MeanGain, gain}, {"MaxGain", got.MaxGain, gain}, {"OverOne", got.OverOne, over}, {"Penalty", got.Penalty, excess * excess}} {
				if math.Abs(c.got-c.want) > 1e-8 {
					t.Errorf("%s = %.12g, want %.12g", c.what, c.got, c.want)
				}
			}
		})
	}
}

// TestJRegStatsMerge: merging two summaries equals summarising their gains together.
func TestJRegStatsMerge(t *testing.T) {
	sums := func(g ...float64) []float64 {
		s := make([]float64, jregStatsWidth)
		s[3] = math.Inf(-1)
		for _, x := range g {
			e := max(x-1, 0)
			s[0], s[1] = s[0]+x, s[1]+e*e
			if x > 1 {
				s[2]++
			}
			s[3] = max(s[3], x)
		}
		return s
	}
	a, b := []float64{0.5, 1.2, 0.9}, []float64{1.7, 0.1}
	got := jregStatsOf(sums(a...), len(a)).Merge(jregStatsOf(sums(b...), len(b)))
	want := jregStatsOf(sums(append(a, b...)...), len(a)+len(b))
	if got.Gains != want.Gains || math.Abs(got.MeanGain-want.MeanGain) > 1e-15 || got.MaxGain != want.MaxGain ||
		math.Abs(got.OverOne-want.OverOne) > 1e-15 || math.Abs(got.Penalty-want.Penalty) > 1e-15 {
		t.Errorf("merged %+v, want %+v", got, want)
	}
	if empty := (JRegStats{}).Merge(want); empty != want {
		t.Errorf("merging into an empty summary gives %+v, want %+v", empty, want)
	}
}

func ExampleJRegStats() {
	s := JRegStats{Gains: 256, MeanGain: 0.99900, MaxGain: 1.00161, OverOne: 0.2539, Penalty: 8.7e-8}
	fmt.Println(s)
	// Output: JReg gains mean 0.9990, max 1.0016, 25.4% above 1, penalty 8.7e-08
}
